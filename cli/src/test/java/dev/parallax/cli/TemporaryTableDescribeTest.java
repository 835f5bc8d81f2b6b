package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code \d} of the shell's session: its temporary tables in its pg_temp_N schema (the first
 * session of a fresh database: pg_temp_1), the permanent table they hide left out of the listing
 * and reached as public.NAME, as psql 15 shows them.
 */
class TemporaryTableDescribeTest {
    @Test
    void temporaryTablesAreInTheSessionsTemporarySchema() {
        String output = CommandLineRun.commands("create table p (x int)", "create table t (x int)",
                "create temp table t (id int primary key)", "\\d", "\\d t", "\\d public.t");
        assertEquals("""
                CREATE TABLE
                CREATE TABLE
                CREATE TABLE
                          List of relations
                  Schema   | Name | Type  |  Owner  \s
                -----------+------+-------+----------
                 pg_temp_1 | t    | table | parallax
                 public    | p    | table | parallax
                (2 rows)

                                Table "pg_temp_1.t"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           | not null |\s
                Indexes:
                    "t_pkey" PRIMARY KEY, hash (id)

                                 Table "public.t"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 x      | integer |           |          |\s

                """, output);
    }

    @Test
    void theirPersistenceIsTemporary() {
        String output = CommandLineRun.commands("create temp table t (id int primary key)", "\\dt+", "\\di+");
        assertTrue(output.contains(" pg_temp_1 | t    | table | parallax | temporary   | columnar "), output);
        assertTrue(output.contains(" pg_temp_1 | t_pkey | index | parallax | t     | temporary   | hash "), output);
    }
}
