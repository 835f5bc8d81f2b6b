package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code parallax vacuum}: the statement its options make, and runs on an embedded database set up by -c. */
class VacuumCommandTest {
    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void optionsMapToVacuumStatements() {
        assertEquals("VACUUM", VacuumStatementText.of(1, false, false, false, false, List.of()));
        assertEquals("VACUUM (ANALYZE, PARALLEL 3) a, \"Big Table\"",
                VacuumStatementText.of(4, true, false, false, false, List.of("a", "Big Table")));
        assertEquals("VACUUM (FULL, VERBOSE) t", VacuumStatementText.of(2, false, false, true, true, List.of("t")));
        assertEquals("ANALYZE VERBOSE t", VacuumStatementText.of(2, true, true, false, true, List.of("t")));
    }

    @Test
    void vacuumsTheTablesASetupMade() {
        Run run = run("-c", "create table a (x int)", "-c", "create table b (x int)",
                "-c", "insert into a select g from generate_series(1, 1000) as s(g)",
                "vacuum", "-j", "2", "--analyze", "-t", "a", "--table", "b");
        assertEquals(new Run(0, "CREATE TABLE\nCREATE TABLE\nINSERT 0 1000\nVACUUM\n", ""), run);
    }

    @Test
    void verbosePrintsTheReportAsInfo() {
        Run run = run("-c", "create table a (x int)", "vacuum", "-v", "-Z");
        assertEquals(0, run.status());
        assertEquals("CREATE TABLE\nANALYZE\n", run.out());
        assertEquals("INFO:  analyzing \"public.a\"\n"
                + "INFO:  \"a\": scanned 0 of 0 pages, containing 0 live rows and 0 dead rows; 0 rows in sample, 0 estimated total rows\n",
                run.err());
    }

    @Test
    void unknownTableFailsWithPostgresError() {
        Run run = run("vacuum", "-t", "nope");
        assertEquals(1, run.status());
        assertTrue(run.err().contains("ERROR:  relation \"nope\" does not exist"), run.err());
    }

    @Test
    void jobsMustBePositive() {
        Run run = run("vacuum", "-j", "0");
        assertEquals(new Run(1, "", "parallax: error: number of parallel jobs must be at least 1\n"), run);
    }
}
