package dev.parallax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * COPY ... FROM STDIN in scripts, piped standard input and -c, as psql 15 runs it; every expected
 * output and error was printed by psql 15 against PostgreSQL 15 for the same script.
 */
class CopyFromStdinTest {
    @TempDir
    Path directory;

    private static CommandRun run(String stdin, String... args) {
        return CommandRun.of(stdin, args);
    }

    /** Text and csv data, a bad value in the second COPY, then a statement that fails after it. */
    private static final String SCRIPT = """
            create table items (id int, name text, price numeric(8,2), added date, active boolean);
            copy items from stdin;
            1\tone\t1.50\t2024-01-02\tt
            2\t\\N\t\\N\t\\N\t\\N
            3\ttab\\there\t-0.25\t2000-02-29\tf
            \\.
            copy items (id, name, price, added, active) from stdin;
            4\tfour\tabc\t2024-01-02\tt
            5\tfive\t1\t2024-01-03\tt
            \\.
            select 1/0;
            copy items from stdin with (format csv);
            6,"multi
            line",2.00,2024-03-01,true
            7,,,,
            8,"",0,2024-03-02,false
            \\.
            select id, name, price, added, active, name is null as name_null from items order by id;
            """;

    private static final String ROWS = """
            CREATE TABLE
            COPY 3
            COPY 3
             id |     name     | price |   added    | active | name_null\s
            ----+--------------+-------+------------+--------+-----------
              1 | one          |  1.50 | 2024-01-02 | t      | f
              2 |              |       |            |        | t
              3 | tab     here | -0.25 | 2000-02-29 | f      | f
              6 | multi       +|  2.00 | 2024-03-01 | t      | f
                | line         |       |            |        |\s
              7 |              |       |            |        | t
              8 |              |  0.00 | 2024-03-02 | f      | f
            (6 rows)

            """;

    @Test
    void scriptFileFeedsTheDataLinesAndGoesOnAfterABadOne() throws IOException {
        Path script = Files.writeString(directory.resolve("copy.sql"), SCRIPT);
        // The failed COPY is reported at its end marker, the line psql has reached; none of its rows stay.
        assertEquals(new CommandRun(0, ROWS, "parallax:" + script + ":10: ERROR:  invalid input syntax for type numeric: \"abc\"\n"
                + "CONTEXT:  COPY items, line 1, column price: \"abc\"\n"
                + "parallax:" + script + ":11: ERROR:  division by zero\n"), run("", "-f", script.toString()));
    }

    @Test
    void pipedStandardInputFeedsTheDataLines() {
        assertEquals(new CommandRun(0, ROWS, "ERROR:  invalid input syntax for type numeric: \"abc\"\n"
                + "CONTEXT:  COPY items, line 1, column price: \"abc\"\n"
                + "ERROR:  division by zero\n"), run(SCRIPT));
    }

    @Test
    void onErrorStopStopsAtTheFailedCopy() throws IOException {
        Path script = Files.writeString(directory.resolve("copy.sql"), SCRIPT);
        assertEquals(new CommandRun(3, "CREATE TABLE\nCOPY 3\n", "parallax:" + script + ":10: ERROR:  invalid input syntax for type numeric: \"abc\"\n"
                + "CONTEXT:  COPY items, line 1, column price: \"abc\"\n"), run("", "-v", "ON_ERROR_STOP=1", "-f", script.toString()));
    }

    @Test
    void badThirdLineNamesLineAndColumnAndLeavesNoRow() throws IOException {
        Path script = Files.writeString(directory.resolve("bad.sql"), """
                create table t (a int, x int);
                copy t from stdin;
                1\t2
                3\t4
                5\tabc
                6\t7
                \\.
                select count(*) from t;
                """);
        assertEquals(new CommandRun(0, "CREATE TABLE\n count \n-------\n     0\n(1 row)\n\n",
                "parallax:" + script + ":7: ERROR:  invalid input syntax for type integer: \"abc\"\n"
                        + "CONTEXT:  COPY t, line 3, column x: \"abc\"\n"), run("", "-f", script.toString()));
    }

    @Test
    void commandReadsTheDataFromStandardInput() {
        CommandRun run = run("1\t2\n3\t4\n\\.\n", "-c", "create table t (a int, b int)", "-c", "copy t from stdin", "-c", "select * from t");
        assertEquals(new CommandRun(0, "CREATE TABLE\nCOPY 2\n a | b \n---+---\n 1 | 2\n 3 | 4\n(2 rows)\n\n", ""), run);
    }

    @Test
    void endOfInputEndsTheDataWithoutAMarker() {
        CommandRun run = run("create table t (a int);\ncopy t from stdin;\n1\n2\n", "-A", "-t");
        assertEquals(new CommandRun(0, "CREATE TABLE\nCOPY 2\n", ""), run);
    }
}
