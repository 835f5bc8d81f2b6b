package dev.parallax.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parallax command run in-process on a real in-memory database. */
class MainTest {
    @TempDir
    Path directory;

    private static CommandRun run(String stdin, String... args) {
        return CommandRun.of(stdin, args);
    }

    @Test
    void commandsAndFilesRunInCommandLineOrder() throws IOException {
        Path script = Files.writeString(directory.resolve("fill.sql"), "insert into t values (1), (2);\n");
        CommandRun run = run("", "-c", "create table t (a int)", "-f", script.toString(), "-c", "select count(*) from t");
        assertEquals(new CommandRun(0, "CREATE TABLE\nINSERT 0 2\n count \n-------\n     2\n(1 row)\n\n", ""), run);
    }

    @Test
    void readsStandardInputWithoutCommands() {
        CommandRun run = run("create table t (a int);\ninsert into t values (7);\nselect a from t", "--csv");
        assertEquals(new CommandRun(0, "CREATE TABLE\nINSERT 0 1\na\n7\n", ""), run);
    }

    @Test
    void commandsGoOnAfterAFailureAndTheLastDecidesTheStatus() {
        CommandRun run = run("", "-c", "create table t (a int)", "-c", "create table t (a int)", "-c", "select 1");
        assertEquals(new CommandRun(0, "CREATE TABLE\n ?column? \n----------\n        1\n(1 row)\n\n",
                "ERROR:  relation \"t\" already exists\n"), run);
        assertEquals(new CommandRun(1, " ?column? \n----------\n        2\n(1 row)\n\n", "ERROR:  division by zero\n"),
                run("", "-c", "select 2", "-c", "select 1/0"));
    }

    @Test
    void aFailureEndsTheRestOfItsCommand() {
        assertEquals(new CommandRun(1, "", "ERROR:  division by zero\n"), run("", "-c", "select 1/0; select 8"));
    }

    @Test
    void onErrorStopStopsAtTheFailedCommandWithStatusOne() {
        CommandRun run = run("", "-v", "ON_ERROR_STOP=1", "-c", "select 1/0", "-c", "select 2");
        assertEquals(new CommandRun(1, "", "ERROR:  division by zero\n"), run);
        assertEquals(run, run("", "--set=ON_ERROR_STOP=on", "-c", "select 1/0", "-c", "select 2"));
        assertEquals(run, run("", "--variable=ON_ERROR_STOP=TRUE", "-c", "select 1/0", "-c", "select 2"));
        assertEquals(run, run("", "-c", "\\set ON_ERROR_STOP on", "-c", "select 1/0", "-c", "select 2"));
    }

    @Test
    void errorsInFilesNameTheFileAndLineAndTheScriptGoesOn() throws IOException {
        Path script = Files.writeString(directory.resolve("bad.sql"),
                "create table t (a int);\n\ndrop table nope;\ninsert into t\n  values (1/0);\ninsert into t values (2);\n");
        CommandRun run = run("", "-f", script.toString(), "-c", "select a from t");
        assertEquals(new CommandRun(0, "CREATE TABLE\nINSERT 0 1\n a \n---\n 2\n(1 row)\n\n",
                "parallax:" + script + ":3: ERROR:  table \"nope\" does not exist\n"
                        + "parallax:" + script + ":5: ERROR:  division by zero\n"), run);
    }

    @Test
    void onErrorStopEndsTheScriptAndTheRunWithStatusThree() throws IOException {
        Path script = Files.writeString(directory.resolve("bad.sql"), "select 1;\nselect 1/0;\nselect 2;\n");
        CommandRun expected = new CommandRun(3, " ?column? \n----------\n        1\n(1 row)\n\n",
                "parallax:" + script + ":2: ERROR:  division by zero\n");
        assertEquals(expected, run("", "-v", "ON_ERROR_STOP=1", "-f", script.toString(), "-c", "select 3"));
        assertEquals(new CommandRun(3, expected.out(), "ERROR:  division by zero\n"),
                run("select 1;\nselect 1/0;\nselect 2;\n", "-v", "ON_ERROR_STOP=1"));
        CommandRun unstopped = run("select 1;\nselect 1/0;\nselect 2;\n");
        assertEquals(0, unstopped.status());
        assertTrue(unstopped.out().endsWith("        2\n(1 row)\n\n"), unstopped.out());
    }

    @Test
    void onErrorStopTakesABooleanAsPsqlDoes() {
        assertEquals(new CommandRun(1, "", "parallax: error: unrecognized value \"maybe\" for \"ON_ERROR_STOP\": Boolean expected\n"),
                run("", "-v", "ON_ERROR_STOP=maybe", "-c", "select 1"));
        // Unset or without a value, as psql 15 prints them.
        assertEquals(new CommandRun(0, "off\non\noff\noff\n", "unrecognized value \"maybe\" for \"ON_ERROR_STOP\": Boolean expected\n"),
                run("", "-c", "\\echo :ON_ERROR_STOP", "-c", "\\set ON_ERROR_STOP", "-c", "\\echo :ON_ERROR_STOP",
                        "-c", "\\unset ON_ERROR_STOP", "-c", "\\echo :ON_ERROR_STOP",
                        "-c", "\\set ON_ERROR_STOP maybe", "-c", "\\echo :ON_ERROR_STOP"));
        // With it on, the refused value is a failed command that stops the run.
        assertEquals(new CommandRun(1, "", "unrecognized value \"maybe\" for \"ON_ERROR_STOP\": Boolean expected\n"),
                run("", "-c", "\\set ON_ERROR_STOP yes", "-c", "\\set ON_ERROR_STOP maybe", "-c", "\\echo :ON_ERROR_STOP"));
    }

    @Test
    void noticesGoToStandardError() {
        CommandRun run = run("", "-c", "drop table if exists nope");
        assertEquals(new CommandRun(0, "DROP TABLE\n", "NOTICE:  table \"nope\" does not exist, skipping\n"), run);
    }

    @Test
    void createTableAsAndSelectIntoPrintPostgresTags() {
        CommandRun run = run("", "-c", "create table t as select g as a from generate_series(1, 2) g", "-c", "select a into u from t",
                "-c", "create table if not exists t as select 1", "-c", "create table v as table t with no data",
                "-c", "select count(*) from u");
        assertEquals(new CommandRun(0, "SELECT 2\nSELECT 2\nCREATE TABLE AS\nCREATE TABLE AS\n count \n-------\n     2\n(1 row)\n\n",
                "NOTICE:  relation \"t\" already exists, skipping\n"), run);
    }

    @Test
    void backslashCommandsInCommands() {
        CommandRun run = run("", "-c", "\\echo hello", "-c", "\\timing on", "-c", "create table t (a int)", "-c", "\\nope");
        assertEquals(1, run.status());
        assertTrue(run.out().matches("hello\nTiming is on.\nCREATE TABLE\nTime: \\d+\\.\\d{3} ms\n"), run.out());
        assertEquals("invalid command \\nope\n", run.err());
    }

    @Test
    void missingFileAndBadOptionFailWithStatusOne() {
        CommandRun missing = run("", "-f", directory.resolve("absent.sql").toString());
        assertEquals(new CommandRun(1, "", "parallax: error: " + directory.resolve("absent.sql") + ": No such file or directory\n"), missing);
        CommandRun thenCommand = run("", "-A", "-t", "-f", directory.resolve("absent.sql").toString(), "-c", "select 5");
        assertEquals(new CommandRun(0, "5\n", missing.err()), thenCommand);
        CommandRun stopped = run("", "-v", "ON_ERROR_STOP=1", "-A", "-t", "-c", "select 1", "-f", directory.resolve("absent.sql").toString(),
                "-c", "select 6");
        assertEquals(new CommandRun(1, "1\n", directory.resolve("absent.sql") + ": No such file or directory\n"), stopped);
        CommandRun badOption = run("", "--bogus");
        assertEquals(1, badOption.status());
        assertTrue(badOption.err().startsWith("parallax: error: Unknown option: '--bogus'\n"), badOption.err());
    }

    @Test
    void versionAndHelp() {
        CommandRun version = run("", "--version");
        assertEquals(0, version.status());
        assertTrue(version.out().matches("parallax \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n"), version.out());
        CommandRun help = run("", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("parallax — an in-process parallel SQL engine\nUsage: parallax "), help.out());
    }
}
