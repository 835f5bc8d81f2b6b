package dev.parallax.cli;

import dev.parallax.engine.expr.eval.SizePrettyEvaluator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The shell's meta-commands driven through standard input, -c and -f, with exact psql output. */
class MetaCommandsTest {
    @TempDir
    Path directory;

    private static CommandRun run(String stdin, String... args) {
        return CommandRun.of(stdin, args);
    }

    private static final String TABLE = "create table t (a int not null, b text);\n"
            + "insert into t values (1, null), (22, 'x');\n";

    @Test
    void expandedDisplay() {
        CommandRun run = run(TABLE + "\\x\nselect a, b as longer_name from t order by a;\n\\x off\nselect 1 as a;\n", "-q");
        assertEquals(new CommandRun(0, """
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
        CommandRun run = run(TABLE + "\\pset null (null)\nselect * from t order by a;\n\\pset format csv\nselect * from t order by a;\n");
        assertEquals(new CommandRun(0, """
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
        CommandRun run = run(TABLE + "alter table t set (parallel_workers = 3, autovacuum_enabled = off);\n\\d\n\\dt+\n\\d t\n\\d nosuch\n", "-q");
        assertEquals(new CommandRun(0, """
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
        CommandRun run = run(TABLE + "\\dt+\n", "-q", "-A", "-t");
        return run.out().split("\\|")[6];
    }

    @Test
    void listIndexesFindsNone() {
        assertEquals(new CommandRun(0, "", "Did not find any relations.\n"), run(TABLE + "\\di\n", "-q"));
        assertEquals(new CommandRun(0, "", "Did not find any relation named \"t_pkey\".\n"), run("\\di+ t_pkey\n"));
    }

    @Test
    void expandedAutoWithoutTerminalIsAligned() {
        CommandRun run = run(TABLE + "\\x auto\nselect a, b as longer_name from t order by a;\n");
        assertEquals(new CommandRun(0, """
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
        assertEquals(new CommandRun(0, "", "Did not find any relations.\n"), run("\\dt\n"));
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
        CommandRun run = run("\\set n 22\n\\set word 'it''s'\n\\set column a\n"
                + "select :n + 1 as n, :'word' as w, ':n' as quoted, 2::int as c, 7 as :\"column\";\n"
                + "\\echo :n\n\\unset n\n\\echo :n\n", "-A", "-t");
        assertEquals(new CommandRun(0, "23|it's|:n|2|7\n22\n:n\n", ""), run);
    }

    @Test
    void outputToFileAndBack() throws IOException {
        Path file = directory.resolve("out.txt");
        CommandRun run = run("\\o " + file + "\nselect 1 as a;\n\\echo to stdout\n\\o\nselect 2 as b;\n", "-A");
        assertEquals(new CommandRun(0, "to stdout\nb\n2\n(1 row)\n", ""), run);
        assertEquals("a\n1\n(1 row)\n", Files.readString(file));
    }

    @Test
    void includeRunsAFileWithItsNameInErrors() throws IOException {
        Path included = Files.writeString(directory.resolve("inc.sql"), "select 5 as five;\nselect nosuch;\n");
        CommandRun run = run("", "-A", "-c", "\\i " + included);
        assertEquals(0, run.status());
        assertEquals("five\n5\n(1 row)\n", run.out());
        assertEquals("parallax:" + included + ":2: ERROR:  column \"nosuch\" does not exist\n"
                + "LINE 1: select nosuch\n               ^\n", run.err());
    }

    @Test
    void includedFileStoppedByOnErrorStopStopsTheOuterScript() throws IOException {
        Path inner = Files.writeString(directory.resolve("inner.sql"), "select 10;\nselect 1/0;\nselect 11;\n");
        Path outer = Files.writeString(directory.resolve("outer.sql"), "select 1;\n\\i " + inner + "\nselect 2;\n");
        CommandRun goesOn = run("", "-A", "-t", "-f", outer.toString());
        assertEquals(new CommandRun(0, "1\n10\n11\n2\n", "parallax:" + inner + ":2: ERROR:  division by zero\n"), goesOn);
        CommandRun stopped = run("", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", outer.toString(), "-c", "select 99");
        assertEquals(new CommandRun(3, "1\n10\n", goesOn.err()), stopped);
        // A missing file is a failed command: the script goes on, or stops with ON_ERROR_STOP.
        Path missing = Files.writeString(directory.resolve("missing.sql"), "select 1;\n\\i " + directory.resolve("nope.sql")
                + "\nselect 2;\n");
        String message = "parallax:" + missing + ":2: error: " + directory.resolve("nope.sql") + ": No such file or directory\n";
        assertEquals(new CommandRun(0, "1\n2\n", message), run("", "-A", "-t", "-f", missing.toString()));
        assertEquals(new CommandRun(3, "1\n", message), run("", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", missing.toString()));
    }

    @Test
    void includeRelativeReadsBesideTheCurrentScript() throws IOException {
        Path subdirectory = Files.createDirectory(directory.resolve("sub"));
        Files.writeString(subdirectory.resolve("other.sql"), "\\echo in-other\n");
        Path script = Files.writeString(subdirectory.resolve("a.sql"), "\\echo in-a\n\\ir other.sql\n\\ir\n");
        assertEquals(new CommandRun(0, "in-a\nin-other\n", "parallax:" + script + ":3: error: \\ir: missing required argument\n"),
                run("", "-f", script.toString()));
        // Outside a script a relative path is taken from the working directory, as \\i does.
        assertEquals(new CommandRun(1, "", "other.sql: No such file or directory\n"), run("", "-c", "\\ir other.sql"));
    }

    @Test
    void restrictRefusesBackslashCommandsUntilUnrestrictWithTheKey() throws IOException {
        Path script = Files.writeString(directory.resolve("r.sql"), """
                \\unrestrict abc
                \\restrict
                \\restrict a b
                \\echo x
                select 1;
                \\unrestrict
                \\unrestrict abd
                \\unrestrict a
                \\echo y
                """);
        String at = "parallax:" + script + ":";
        assertEquals(new CommandRun(0, "1\ny\n", at + "1: error: \\unrestrict: not currently in restricted mode\n"
                + at + "2: error: \\restrict: missing required argument\n"
                + at + "3: warning: \\restrict: extra argument \"b\" ignored\n"
                + at + "4: error: backslash commands are restricted; only \\unrestrict is allowed\n"
                + at + "6: error: \\unrestrict: missing required argument\n"
                + at + "7: error: \\unrestrict: wrong key\n"), run("", "-A", "-t", "-f", script.toString()));
    }

    @Test
    void unknownCommandAndReservedDatabaseOption() {
        assertEquals(new CommandRun(1, "", "invalid command \\foo\n"), run("", "-c", "\\foo"));
        assertEquals(new CommandRun(1, "", "parallax: error: persistent databases are not available yet: "
                + "--db is reserved for the persistent mode\n"), run("", "--db", "/tmp/x", "-c", "select 1"));
    }
}
