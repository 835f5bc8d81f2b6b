package dev.parallax.cli;

import dev.parallax.engine.expr.eval.SizePrettyEvaluator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shell's meta-commands driven through standard input, -c and -f, with exact psql output. */
class MetaCommandsTest {
    @TempDir
    Path directory;

    private record Run(int status, String out, String err) {
    }

    private static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static final String TABLE = "create table t (a int not null, b text);\n"
            + "insert into t values (1, null), (22, 'x');\n";

    @Test
    void expandedDisplay() {
        Run run = run(TABLE + "\\x\nselect a, b as longer_name from t order by a;\n\\x off\nselect 1 as a;\n", "-q");
        assertEquals(new Run(0, """
                -[ RECORD 1 ]---
                a           | 1
                longer_name | \n\
                -[ RECORD 2 ]---
                a           | 22
                longer_name | x

                 a \n\
                ---
                 1
                (1 row)

                """, ""), run);
    }

    @Test
    void expandedRuleShorterThanItsLabel() {
        StringBuilder rule = new StringBuilder();
        ExpandedResultPrinter.appendRecordRule(rule, 1, 2, 5);
        ExpandedResultPrinter.appendRecordRule(rule, 1, 16, 3);
        assertEquals("-[ RECORD 1 ]\n-[ RECORD 1 ]----+----\n", rule.toString());
    }

    @Test
    void nullDisplayAndFormat() {
        Run run = run(TABLE + "\\pset null (null)\nselect * from t order by a;\n\\pset format csv\nselect * from t order by a;\n");
        assertEquals(new Run(0, """
                CREATE TABLE
                INSERT 0 2
                Null display is "(null)".
                 a  |   b    \n\
                ----+--------
                  1 | (null)
                 22 | x
                (2 rows)

                Output format is csv.
                a,b
                1,(null)
                22,x
                """, ""), run);
    }

    @Test
    void describeCommands() {
        Run run = run(TABLE + "alter table t set (parallel_workers = 3, autovacuum_enabled = off);\n\\d\n\\dt+\n\\d t\n\\d nosuch\n", "-q");
        assertEquals(new Run(0, """
                        List of relations
                 Schema | Name | Type  |  Owner   \n\
                --------+------+-------+----------
                 public | t    | table | parallax
                (1 row)

                """ + "                                   List of relations\n" + """
                 Schema | Name | Type  |  Owner   | Persistence | Access method |  Size  | Description \n\
                --------+------+-------+----------+-------------+---------------+--------+-------------
                 public | t    | table | parallax | permanent   | columnar      | %s | \n\
                (1 row)

                                 Table "public.t"
                 Column |  Type   | Collation | Nullable | Default \n\
                --------+---------+-----------+----------+---------
                 a      | integer |           | not null | \n\
                 b      | text    |           |          | \n\
                Options: parallel_workers=3, autovacuum_enabled=off

                """.formatted(sizeOfT()), "Did not find any relation named \"nosuch\".\n"), run);
    }

    /** The size column is pg_size_pretty of the storage, whatever its page size. */
    private static String sizeOfT() {
        Run run = run(TABLE + "\\dt+\n", "-q", "-A", "-t");
        return run.out().split("\\|")[6];
    }

    @Test
    void listIndexesFindsNone() {
        assertEquals(new Run(0, "", "Did not find any relations.\n"), run(TABLE + "\\di\n", "-q"));
        assertEquals(new Run(0, "", "Did not find any relation named \"t_pkey\".\n"), run("\\di+ t_pkey\n"));
    }

    @Test
    void expandedAutoWithoutTerminalIsAligned() {
        Run run = run(TABLE + "\\x auto\nselect a, b as longer_name from t order by a;\n");
        assertEquals(new Run(0, """
                CREATE TABLE
                INSERT 0 2
                Expanded display is used automatically.
                 a  | longer_name\s
                ----+-------------
                  1 |\s
                 22 | x
                (2 rows)

                """, ""), run);
    }

    @Test
    void emptyCatalog() {
        assertEquals(new Run(0, "", "Did not find any relations.\n"), run("\\dt\n"));
    }

    @Test
    void sizesPrintLikePgSizePretty() {
        assertEquals("8192 bytes", SizePrettyEvaluator.text(8192));
        assertEquals("10 kB", SizePrettyEvaluator.text(10240));
        assertEquals("10239 kB", SizePrettyEvaluator.text(10239L * 1024));
        assertEquals("10 MB", SizePrettyEvaluator.text(10240L * 1024));
        assertEquals("25 MB", SizePrettyEvaluator.text(25L * 1024 * 1024));
        assertEquals("2048 GB", SizePrettyEvaluator.text(2L << 40));
        assertEquals("20 TB", SizePrettyEvaluator.text(20L << 40));
    }

    @Test
    void variablesAreSubstitutedOutsideQuotes() {
        Run run = run("\\set n 22\n\\set word 'it''s'\n\\set column a\n"
                + "select :n + 1 as n, :'word' as w, ':n' as quoted, 2::int as c, 7 as :\"column\";\n"
                + "\\echo :n\n\\unset n\n\\echo :n\n", "-A", "-t");
        assertEquals(new Run(0, "23|it's|:n|2|7\n22\n:n\n", ""), run);
    }

    @Test
    void outputToFileAndBack() throws IOException {
        Path file = directory.resolve("out.txt");
        Run run = run("\\o " + file + "\nselect 1 as a;\n\\echo to stdout\n\\o\nselect 2 as b;\n", "-A");
        assertEquals(new Run(0, "to stdout\nb\n2\n(1 row)\n", ""), run);
        assertEquals("a\n1\n(1 row)\n", Files.readString(file));
    }

    @Test
    void includeRunsAFileWithItsNameInErrors() throws IOException {
        Path included = Files.writeString(directory.resolve("inc.sql"), "select 5 as five;\nselect nosuch;\n");
        Run run = run("", "-A", "-c", "\\i " + included);
        assertEquals(0 + 1, run.status());
        assertEquals("five\n5\n(1 row)\n", run.out());
        assertEquals("parallax:" + included + ":2: ERROR:  column \"nosuch\" does not exist\n"
                + "LINE 1: select nosuch\n               ^\n", run.err());
    }

    @Test
    void unknownCommandAndReservedDatabaseOption() {
        assertEquals(new Run(1, "", "invalid command \\foo\n"), run("", "-c", "\\foo"));
        assertEquals(new Run(1, "", "parallax: error: persistent databases are not available yet: "
                + "--db is reserved for the persistent mode\n"), run("", "--db", "/tmp/x", "-c", "select 1"));
    }
}
