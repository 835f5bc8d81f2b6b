package dev.parallax.cli;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parallax command run in-process on a real in-memory database. */
class MainTest {
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

    @Test
    void commandsAndFilesRunInCommandLineOrder() throws IOException {
        Path script = Files.writeString(directory.resolve("fill.sql"), "insert into t values (1), (2);\n");
        Run run = run("", "-c", "create table t (a int)", "-f", script.toString(), "-c", "select count(*) from t");
        assertEquals(new Run(0, "CREATE TABLE\nINSERT 0 2\n count \n-------\n     2\n(1 row)\n\n", ""), run);
    }

    @Test
    void readsStandardInputWithoutCommands() {
        Run run = run("create table t (a int);\ninsert into t values (7);\nselect a from t", "--csv");
        assertEquals(new Run(0, "CREATE TABLE\nINSERT 0 1\na\n7\n", ""), run);
    }

    @Test
    void firstFailureStopsWithStatusOne() {
        Run run = run("", "-c", "create table t (a int)", "-c", "create table t (a int)", "-c", "select 1");
        assertEquals(new Run(1, "CREATE TABLE\n", "ERROR:  relation \"t\" already exists\n"), run);
    }

    @Test
    void errorsInFilesNameTheFileAndLine() throws IOException {
        Path script = Files.writeString(directory.resolve("bad.sql"), "create table t (a int);\n\ndrop table nope;\n");
        Run run = run("", "-f", script.toString());
        assertEquals(1, run.status());
        assertEquals("parallax:" + script + ":3: ERROR:  table \"nope\" does not exist\n", run.err());
    }

    @Test
    void noticesGoToStandardError() {
        Run run = run("", "-c", "drop table if exists nope");
        assertEquals(new Run(0, "DROP TABLE\n", "NOTICE:  table \"nope\" does not exist, skipping\n"), run);
    }

    @Test
    void createTableAsAndSelectIntoPrintPostgresTags() {
        Run run = run("", "-c", "create table t as select g as a from generate_series(1, 2) g", "-c", "select a into u from t",
                "-c", "create table if not exists t as select 1", "-c", "create table v as table t with no data",
                "-c", "select count(*) from u");
        assertEquals(new Run(0, "SELECT 2\nSELECT 2\nCREATE TABLE AS\nCREATE TABLE AS\n count \n-------\n     2\n(1 row)\n\n",
                "NOTICE:  relation \"t\" already exists, skipping\n"), run);
    }

    @Test
    void backslashCommandsInCommands() {
        Run run = run("", "-c", "\\echo hello", "-c", "\\timing on", "-c", "create table t (a int)", "-c", "\\nope");
        assertEquals(1, run.status());
        assertTrue(run.out().matches("hello\nTiming is on.\nCREATE TABLE\nTime: \\d+\\.\\d{3} ms\n"), run.out());
        assertEquals("invalid command \\nope\n", run.err());
    }

    @Test
    void missingFileAndBadOptionFailWithStatusOne() {
        Run missing = run("", "-f", directory.resolve("absent.sql").toString());
        assertEquals(new Run(1, "", "parallax: error: " + directory.resolve("absent.sql") + ": No such file or directory\n"), missing);
        Run badOption = run("", "--bogus");
        assertEquals(1, badOption.status());
        assertTrue(badOption.err().startsWith("parallax: error: Unknown option: '--bogus'\n"), badOption.err());
    }

    @Test
    void versionAndHelp() {
        Run version = run("", "--version");
        assertEquals(0, version.status());
        assertTrue(version.out().matches("parallax \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n"), version.out());
        Run help = run("", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("parallax — an in-process parallel SQL engine\nUsage: parallax "), help.out());
    }
}
