package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code \di} lists indexes and {@code \d TABLE} ends with psql's {@code Indexes:} footer. */
class IndexDescribeTest {
    private static String run(String... commands) {
        return CommandLineRun.commands(commands);
    }

    @Test
    void listsIndexesAndDescribesThemUnderTheirTable() {
        String output = run("create table t (a int, b text)", "create index on t (a)", "create index t_ab on t (a, b)",
                "\\di", "\\di t_a_*", "\\d t");
        assertEquals("""
                CREATE TABLE
                CREATE INDEX
                CREATE INDEX
                              List of relations
                 Schema |  Name   | Type  |  Owner   | Table\s
                --------+---------+-------+----------+-------
                 public | t_a_idx | index | parallax | t
                 public | t_ab    | index | parallax | t
                (2 rows)

                              List of relations
                 Schema |  Name   | Type  |  Owner   | Table\s
                --------+---------+-------+----------+-------
                 public | t_a_idx | index | parallax | t
                (1 row)

                                 Table "public.t"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 a      | integer |           |          |\s
                 b      | text    |           |          |\s
                Indexes:
                    "t_a_idx" ordered (a)
                    "t_ab" ordered (a, b)

                """, output);
    }

    @Test
    void describesPrimaryKeyAndUniqueConstraintsFirstAsPsqlOrdersThem() {
        String output = run("create table k (id int primary key, b text unique, c int, unique (c, b))",
                "create index a_idx on k (c)", "\\di k*", "\\d k");
        assertEquals("""
                CREATE TABLE
                CREATE INDEX
                               List of relations
                 Schema |   Name    | Type  |  Owner   | Table\s
                --------+-----------+-------+----------+-------
                 public | k_b_key   | index | parallax | k
                 public | k_c_b_key | index | parallax | k
                 public | k_pkey    | index | parallax | k
                (3 rows)

                                 Table "public.k"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                 b      | text    |           |          |\s
                 c      | integer |           |          |\s
                Indexes:
                    "k_pkey" PRIMARY KEY, hash (id)
                    "a_idx" ordered (c)
                    "k_b_key" UNIQUE CONSTRAINT, hash (b)
                    "k_c_b_key" UNIQUE CONSTRAINT, hash (c, b)

                """, output);
    }

    @Test
    void describesAUniqueIndexAsPsqlPrintsIt() {
        String output = run("create table u (a int, b int)", "insert into u values (1, 1)", "create unique index on u (a)", "\\d u");
        assertEquals("""
                CREATE TABLE
                INSERT 0 1
                CREATE INDEX
                                 Table "public.u"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 a      | integer |           |          |\s
                 b      | integer |           |          |\s
                Indexes:
                    "u_a_idx" UNIQUE, btree (a)

                """, output);
    }
}
