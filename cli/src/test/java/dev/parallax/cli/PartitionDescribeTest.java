package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code \d} of a partitioned table and of its partitions, in psql's layout. */
class PartitionDescribeTest {
    private static String run(String... commands) {
        return CommandLineRun.commands(commands);
    }

    @Test
    void describesParentAndPartitions() {
        String output = run("create table p (id int primary key, info text) partition by hash (id)",
                "create table p_0 partition of p for values with (modulus 2, remainder 0)",
                "create table p_1 partition of p for values with (modulus 2, remainder 1)",
                "\\d p", "\\d+ p", "\\d p_1", "\\dt");
        assertEquals("""
                CREATE TABLE
                CREATE TABLE
                CREATE TABLE
                           Partitioned table "public.p"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 info   | text    |           |          |\s
                Partition key: HASH (id)
                Indexes:
                    "p_pkey" PRIMARY KEY, hash (id)
                Number of partitions: 2 (Use \\d+ to list them.)

                           Partitioned table "public.p"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 info   | text    |           |          |\s
                Partition key: HASH (id)
                Indexes:
                    "p_pkey" PRIMARY KEY, hash (id)
                Partitions: p_0 FOR VALUES WITH (modulus 2, remainder 0),
                            p_1 FOR VALUES WITH (modulus 2, remainder 1)

                                Table "public.p_1"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 info   | text    |           |          |\s
                Partition of: p FOR VALUES WITH (modulus 2, remainder 1)
                Indexes:
                    "p_1_pkey" PRIMARY KEY, hash (id)

                              List of relations
                 Schema | Name |       Type        |  Owner  \s
                --------+------+-------------------+----------
                 public | p    | partitioned table | parallax
                 public | p_0  | table             | parallax
                 public | p_1  | table             | parallax
                (3 rows)

                """, output);
    }

    @Test
    void dropOfTheParentDropsThePartitions() {
        String output = run("create table p (id bigint, k text, primary key (id, k)) partition by hash (id, k) partitions 3",
                "\\dt", "drop table p", "\\dt");
        assertEquals("""
                CREATE TABLE
                              List of relations
                 Schema | Name |       Type        |  Owner  \s
                --------+------+-------------------+----------
                 public | p    | partitioned table | parallax
                 public | p_0  | table             | parallax
                 public | p_1  | table             | parallax
                 public | p_2  | table             | parallax
                (4 rows)

                DROP TABLE
                """, output);
    }
}
