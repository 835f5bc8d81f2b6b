package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code \d} and {@code \dv} of views, and {@code \d} of a system view named by a pattern, in psql's layout. */
class ViewDescribeTest {
    private static String run(String... commands) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = new String[commands.length * 2];
        for (int index = 0; index < commands.length; index++) {
            args[2 * index] = "-c";
            args[2 * index + 1] = commands[index];
        }
        int status = Main.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, status);
        return out.toString(StandardCharsets.UTF_8);
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
                 Column |  Type   | Collation | Nullable | Default\s
                --------+---------+-----------+----------+---------
                 id     | integer |           |          |\s
                 n      | text    |           |          |\s
                View definition:
                 select id, note || 'x' as n from t;

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
