package dev.parallax.cli;

import dev.parallax.Database;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.cli.server.PgServer;
import dev.parallax.cli.server.ServerOptions;
import dev.parallax.engine.storage.PagedTableStorage;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

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
        assertEquals("VACUUM (ANALYZE, PARALLEL 3) \"a\", \"Big Table\"",
                VacuumStatementText.of(4, true, false, false, false, tables("A", "\"Big Table\"")));
        assertEquals("VACUUM (FULL, VERBOSE) \"public\".\"t\"", VacuumStatementText.of(2, false, false, true, true, tables("public.t")));
        assertEquals("ANALYZE VERBOSE \"t\" (x, \"Y\")", VacuumStatementText.of(2, true, true, false, true, tables("t (x, \"Y\")")));
    }

    private static List<TableSpecification> tables(String... arguments) {
        return java.util.Arrays.stream(arguments).map(TableSpecification::parse).toList();
    }

    /** -t is read as vacuumdb reads it: an SQL name (folded unless quoted, maybe qualified), then an optional column list. */
    @Test
    void tableArgumentsAreSqlNames() {
        assertEquals(new TableSpecification(null, "orders", ""), TableSpecification.parse("Orders"));
        assertEquals(new TableSpecification(null, "Big \"Table\"", ""), TableSpecification.parse("\"Big \"\"Table\"\"\""));
        assertEquals(new TableSpecification("public", "t(x)", "(a, b)"), TableSpecification.parse("Public.\"t(x)\"(a, b)"));
        assertEquals("public.t", TableSpecification.parse("t").qualifiedName());
        for (String invalid : List.of("", "a b", "a.b.c", "\"open", "a.", "\"\"")) {
            IllegalArgumentException failure = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> TableSpecification.parse(invalid));
            assertEquals("invalid name syntax: \"" + invalid + "\"", failure.getMessage());
        }
        Run run = run("-c", "create table \"Mixed\" (x int, y int)", "-c", "create table plain (x int)",
                "vacuum", "-z", "-t", "\"Mixed\"(y)", "-t", "PUBLIC.Plain", "-v");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.err().contains("INFO:  analyzing \"public.Mixed\""), run.err());
        assertTrue(run.err().contains("INFO:  vacuuming \"public.plain\""), run.err());
        Run invalid = run("vacuum", "-t", "a b");
        assertEquals(new Run(1, "", "parallax: error: invalid name syntax: \"a b\"\n"), invalid);
    }

    @Test
    void fullAndAnalyzeOnlyDoNotGoTogether() {
        assertEquals(new Run(1, "", "parallax: error: cannot use the \"full\" option when performing only analyze\n"),
                run("vacuum", "-Z", "--full"));
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

    /** A server on a free loopback port over a fresh database, optionally with SCRAM passwords. */
    private static PgServer server(Database database, Map<String, String> passwords) throws InterruptedException {
        ServerOptions options = ServerOptions.loopback(0);
        return PgServer.start(database, passwords.isEmpty() ? options : options.withPasswords(passwords), "test");
    }

    private static Run runWith(Map<String, String> environment, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), environment);
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static long deadRows(Database database, String table) {
        return ((PagedTableStorage) database.catalog().table(table).storage()).deadRowCount();
    }

    /**
     * Against a running server: the tables (partitions one by one, not their parent) are listed
     * from pg_class and vacuumed over two connections; ANALYZE runs too.
     */
    @Test
    void vacuumsTheTablesOfARunningServerOverConnections() throws Exception {
        try (Database database = Database.inMemory(); PgServer server = server(database, Map.of());
             Session session = database.openSession()) {
            for (String sql : List.of("create table small (x int)", "create table big (x int, name text)",
                    "create table parts (x int) partition by hash (x)",
                    "create table parts_0 partition of parts for values with (modulus 2, remainder 0)",
                    "create table parts_1 partition of parts for values with (modulus 2, remainder 1)",
                    "insert into small select g from generate_series(1, 100) as s(g)",
                    "insert into big select g, 'name ' || g from generate_series(1, 20000) as s(g)",
                    "insert into parts select g from generate_series(1, 5000) as s(g)",
                    "delete from small where x % 2 = 0", "delete from big where x % 2 = 0",
                    "delete from parts_0 where x % 2 = 0", "delete from parts_1 where x % 2 = 0")) {
                session.execute(sql).close();
            }
            assertEquals(10000, deadRows(database, "big"));
            Run run = runWith(Map.of(), "", "vacuum", "--host", "127.0.0.1", "--port", String.valueOf(server.port()),
                    "-U", "tester", "-d", "shop", "-j", "2", "--analyze");
            assertEquals(new Run(0, "parallax: vacuuming database \"shop\"\n", ""), run);
            for (String table : List.of("small", "big", "parts_0", "parts_1")) {
                assertEquals(0, deadRows(database, table), table);
                assertEquals(1, database.catalog().table(table).maintenance().vacuumCount(), table);
                assertEquals(1, database.catalog().table(table).maintenance().analyzeCount(), table);
            }
            // The partitioned parent itself was not handed out: its partitions were.
            assertEquals(0, database.catalog().table("parts").maintenance().vacuumCount());
            // One job takes the tables largest first.
            Run serial = runWith(Map.of(), "", "vacuum", "--port", String.valueOf(server.port()), "-U", "tester", "-j", "1");
            assertEquals(0, serial.status(), serial.err());
            java.time.Instant big = database.catalog().table("big").maintenance().lastVacuum();
            java.time.Instant partition = database.catalog().table("parts_0").maintenance().lastVacuum();
            java.time.Instant small = database.catalog().table("small").maintenance().lastVacuum();
            assertTrue(!big.isAfter(partition) && !partition.isAfter(small), big + " " + partition + " " + small);
            try (Result rows = session.execute("select relname, relkind, relispartition from pg_class where relname like 'p%' and relnamespace = 2200 order by relname")) {
                assertEquals(List.of(List.of("parts", "p", false), List.of("parts_0", "r", true), List.of("parts_1", "r", true)),
                        rows.fetchAll());
            }
        }
    }

    /** Named tables only; the password from PGPASSWORD, or from the prompt when the server asks; VERBOSE's report on stderr. */
    @Test
    void namedTablesPasswordsAndVerboseReports() throws Exception {
        try (Database database = Database.inMemory(); PgServer server = server(database, Map.of("alice", "s3cret"));
             Session session = database.openSession()) {
            for (String sql : List.of("create table a (x int)", "create table b (x int)",
                    "insert into a select g from generate_series(1, 100) as s(g)", "delete from a where x <= 10")) {
                session.execute(sql).close();
            }
            String port = String.valueOf(server.port());
            Run fromEnvironment = runWith(Map.of("PGPASSWORD", "s3cret", "PGUSER", "alice"), "",
                    "vacuum", "--port", port, "-t", "a");
            assertEquals(new Run(0, "parallax: vacuuming database \"alice\"\n", ""), fromEnvironment);
            assertEquals(0, deadRows(database, "a"));
            assertEquals(0, database.catalog().table("b").maintenance().vacuumCount());

            session.execute("delete from a where x <= 20").close();
            Run prompted = runWith(Map.of(), "s3cret\n", "vacuum", "--port", port, "-U", "alice", "-t", "a", "-v");
            assertEquals(0, prompted.status(), prompted.err());
            assertTrue(prompted.err().startsWith("Password: "), prompted.err());
            assertTrue(prompted.err().startsWith("Password: INFO:  vacuuming \"public.a\"\nINFO:  finished vacuuming \"public.a\""),
                    prompted.err());
            assertTrue(prompted.err().contains("tuples: 10 removed, 80 remain, 0 are dead but not yet removable"), prompted.err());

            Run refused = runWith(Map.of(), "", "vacuum", "--port", port, "-U", "alice", "-w");
            assertEquals(1, refused.status());
            assertTrue(refused.err().startsWith("parallax: error: connection to server at \"127.0.0.1\", port " + port + " failed: "),
                    refused.err());

            Run unknown = runWith(Map.of("PGPASSWORD", "s3cret"), "", "vacuum", "--port", port, "-U", "alice", "-t", "nope");
            assertEquals(1, unknown.status());
            assertEquals("parallax: error: vacuuming of table \"public.nope\" in database \"alice\" failed: "
                    + "ERROR: relation \"nope\" does not exist\n", unknown.err());
        }
    }

    @Test
    void jobsMustBePositive() {
        Run run = run("vacuum", "-j", "0");
        assertEquals(new Run(1, "", "parallax: error: number of parallel jobs must be at least 1\n"), run);
    }
}
