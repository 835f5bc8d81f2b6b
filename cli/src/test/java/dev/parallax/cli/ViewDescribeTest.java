package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code \d} and {@code \dv} of views, and {@code \d} of a system view named by a pattern, in psql's layout. */
class ViewDescribeTest {
    private static String run(String... commands) {
        return CommandLineRun.commands(commands);
    }

    @Test
    void viewsAreListedAndDescribedWithTheirQuerysColumns() {
        String output = run("create table t (id int primary key, note text)",
                "create view v as select id, note || 'x' as n from t", "\\d", "\\dv", "\\d+ v");
        assertEquals("""
                CREATE TABLE
                CREATE VIEW
                        List of relations
                 Schema | Name | Type  |  Owner  \s
                --------+------+-------+----------
                 public | t    | table | parallax
                 public | v    | view  | parallax
                (2 rows)

                        List of relations
                 Schema | Name | Type |  Owner  \s
                --------+------+------+----------
                 public | v    | view | parallax
                (1 row)

                                              View "public.v"
                 Column |  Type   | Collation | Nullable | Default | Storage  | Description\s
                --------+---------+-----------+----------+---------+----------+-------------
                 id     | integer |           |          |         | plain    |\s
                 n      | text    |           |          |         | extended |\s
                View definition:
                 select id, note || 'x' as n from t;

                """, output);
    }

    @Test
    void commentsShowAsDescriptions() {
        String output = run("create table t (id int primary key, note text)", "create view v as select id, note from t",
                "comment on view v is 'the notes'", "comment on column v.note is 'free text'", "\\dv+", "\\d+ v");
        assertEquals("""
                CREATE TABLE
                CREATE VIEW
                COMMENT
                COMMENT
                                           List of relations
                 Schema | Name | Type |  Owner   | Persistence |  Size   | Description\s
                --------+------+------+----------+-------------+---------+-------------
                 public | v    | view | parallax | permanent   | 0 bytes | the notes
                (1 row)

                                              View "public.v"
                 Column |  Type   | Collation | Nullable | Default | Storage  | Description\s
                --------+---------+-----------+----------+---------+----------+-------------
                 id     | integer |           |          |         | plain    |\s
                 note   | text    |           |          |         | extended | free text
                View definition:
                 select id, note from t;

                """, output);
    }

    @Test
    void aReplacedAndRenamedViewIsDescribedWithItsNewColumns() {
        String output = run("create table t (id int, note text)", "create view v as select id from t",
                "create or replace view v as select id, note as n, id + 1 as next from t", "alter view v rename to w", "\\d w");
        assertEquals("""
                CREATE TABLE
                CREATE VIEW
                CREATE VIEW
                ALTER VIEW
                                  View "public.w"
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           |          |\s
                 n      | text    |           |          |\s
                 next   | integer |           |          |\s

                """, output);
    }

    @Test
    void aSystemViewIsFoundByName() {
        String output = run("\\d pg_stat_user_tables", "\\d pg_catalog.pg_stat_progress_vacuum");
        assertTrue(output.startsWith("""
                                      View "pg_catalog.pg_stat_user_tables"
                      Column       |            Type             | Collation | Nullable | Default\s
                -------------------+-----------------------------+-----------+----------+---------
                 schemaname        | text                        |           |          |\s
                """), output);
        assertTrue(output.contains("View \"pg_catalog.pg_stat_progress_vacuum\""), output);
    }
}
