package dev.parallax.cli;

import dev.parallax.ResultColumn;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Message layouts follow psql 15 output captured from the same scripts against PostgreSQL 15. */
class ScriptRunnerTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final FakeSession session = new FakeSession();
    private final ScriptRunner runner = new ScriptRunner(session, PrintOptions.defaults(),
            new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    private static FakeResult one(String value) {
        return FakeResult.rows(List.of(new ResultColumn("?column?", DataType.INTEGER)), new String[] {value});
    }

    private boolean script(String text, String fileName) {
        return runner.runScript(new BufferedReader(new StringReader(text)), fileName);
    }

    @Test
    void commandRunsEachStatementAndPrintsTags() {
        session.answer("create table t (a int)", () -> FakeResult.tag("CREATE TABLE"))
                .answer("insert into t values (1), (2)", () -> FakeResult.tag("INSERT 0 2"))
                .answer("select 1", () -> one("1"));
        assertTrue(runner.runCommand("create table t (a int); insert into t values (1), (2);select 1"));
        assertEquals("CREATE TABLE\nINSERT 0 2\n ?column? \n----------\n        1\n(1 row)\n\n", out());
        assertEquals("", err());
    }

    @Test
    void failedStatementStopsACommandWithPsqlsErrorLayout() {
        session.fail("select 1/0", new ParallaxException(SqlState.DIVISION_BY_ZERO, "division by zero"))
                .answer("select 2", () -> one("2"));
        assertFalse(runner.runCommand("select 1/0; select 2"));
        assertEquals("ERROR:  division by zero\n", err());
        assertEquals(List.of("select 1/0"), session.executed);
        assertEquals("", out());
    }

    @Test
    void syntaxErrorPrintsTheLineAndACaret() {
        session.fail("select from x where", new ParallaxException(SqlState.SYNTAX_ERROR,
                "syntax error at end of input", null, null, 20, null));
        assertFalse(runner.runCommand("select from x where"));
        assertEquals("""
                ERROR:  syntax error at end of input
                LINE 1: select from x where
                                           ^
                """, err());
    }

    @Test
    void excerptThenDetailAndHintFollowTheMessage() {
        session.fail("select f()", new ParallaxException(SqlState.UNDEFINED_FUNCTION, "function f() does not exist",
                "some detail", "No function matches the given name and argument types.", 8, null));
        assertFalse(runner.runCommand("select f()"));
        assertEquals("""
                ERROR:  function f() does not exist
                LINE 1: select f()
                               ^
                DETAIL:  some detail
                HINT:  No function matches the given name and argument types.
                """, err());
    }

    @Test
    void fileErrorsAndNoticesCarryTheScriptLocation() {
        session.answer("select 1", () -> one("1"))
                .answer("drop table if exists zz", () -> FakeResult.tag("DROP TABLE")
                        .withNotice("table \"zz\" does not exist, skipping"))
                .fail("select\n  nope", new ParallaxException(SqlState.UNDEFINED_COLUMN,
                        "column \"nope\" does not exist", null, null, 10, null));
        assertTrue(script("select 1;\ndrop table if exists zz;\nselect\n  nope;\nselect 1;\n", "s.sql"));
        assertEquals(" ?column? \n----------\n        1\n(1 row)\n\nDROP TABLE\n ?column? \n----------\n        1\n(1 row)\n\n",
                out());
        assertEquals("""
                parallax:s.sql:2: NOTICE:  table "zz" does not exist, skipping
                parallax:s.sql:4: ERROR:  column "nope" does not exist
                LINE 2:   nope
                          ^
                """, err());
    }

    @Test
    void standardInputErrorsHaveNoLocation() {
        assertTrue(script("\\foo\n", null));
        assertEquals("invalid command \\foo\n", err());
    }

    @Test
    void unknownMetaCommandInAFileNamesTheLine() {
        session.answer("select 1", () -> one("1"));
        assertTrue(script("select 1;\n\n\\foo bar\nselect 1;\n", "x.sql"));
        assertEquals("parallax:x.sql:3: error: invalid command \\foo\n", err());
        assertEquals(List.of("select 1", "select 1"), session.executed);
    }

    @Test
    void statementsSplitAcrossLinesAndSemicolonsInStrings() {
        session.answer("select 1", () -> one("1"))
                .answer("select 'a;\nb'", () -> one("2"))
                .answer("select\n3", () -> one("3"));
        assertTrue(script("select 1; select 'a;\nb';\nselect\n3", "f.sql"));
        assertEquals(List.of("select 1", "select 'a;\nb'", "select\n3"), session.executed);
    }

    @Test
    void backslashLineInsideAStatementIsSql() {
        session.answer("select 'x\n\\echo y\n'", () -> one("1"));
        assertTrue(script("select 'x\n\\echo y\n';\n", null));
        assertEquals(List.of("select 'x\n\\echo y\n'"), session.executed);
    }

    @Test
    void timingPrintsAfterEachStatement() {
        session.answer("select 1", () -> one("1")).answer("create table t (a int)", () -> FakeResult.tag("CREATE TABLE"));
        assertTrue(runner.runCommand("\\timing on"));
        assertTrue(runner.runCommand("select 1"));
        assertTrue(runner.runCommand("create table t (a int)"));
        assertTrue(runner.runCommand("\\timing"));
        assertTrue(runner.timing() == false);
        String[] lines = out().split("\n", -1);
        assertEquals("Timing is on.", lines[0]);
        assertTrue(lines[6].matches("Time: \\d+\\.\\d{3} ms"), lines[6]);
        assertEquals("CREATE TABLE", lines[7]);
        assertTrue(lines[8].matches("Time: \\d+\\.\\d{3} ms"), lines[8]);
        assertEquals("Timing is off.", lines[9]);
    }

    @Test
    void timingRejectsANonBoolean() {
        assertFalse(runner.runCommand("\\timing maybe"));
        assertEquals("unrecognized value \"maybe\" for \"\\timing\": Boolean expected\n", err());
    }

    @Test
    void echoAndQuit() {
        session.answer("select 1", () -> one("1"));
        assertTrue(script("\\echo -n 'a  b'\n\\echo c d\n\\q\nselect 1;\n", null));
        assertEquals("a  bc d\n", out());
        assertEquals(List.of(), session.executed);
    }

    @Test
    void quietHidesTagsAndInformation() {
        ScriptRunner quiet = new ScriptRunner(session, new PrintOptions(OutputFormat.ALIGNED, false, "|", true),
                new PrintStream(outBytes, true, StandardCharsets.UTF_8), new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        session.answer("create table t (a int)", () -> FakeResult.tag("CREATE TABLE"));
        assertTrue(quiet.runCommand("\\timing on"));
        assertTrue(quiet.runCommand("create table t (a int)"));
        assertTrue(out().matches("Time: \\d+\\.\\d{3} ms\n"), out());
    }

    @Test
    void resultIsClosedEvenWhenPrintingFails() {
        FakeResult result = FakeResult.tag("CREATE TABLE");
        session.answer("create table t (a int)", () -> result);
        assertTrue(runner.runCommand("create table t (a int)"));
        assertTrue(result.closed);
    }
}
