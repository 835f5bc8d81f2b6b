package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The real PostgreSQL JDBC driver against the wire server: statements, prepared statements, types, errors, cancel. */
class PgJdbcTest {
    private static WireServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void createTableAsReturnsItsRowCountToPgJdbc() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            assertEquals(3, statement.executeUpdate("create table jdbc_ctas as select g from generate_series(1, 3) g"));
            assertEquals(2, statement.executeUpdate("select g into jdbc_ctas_into from jdbc_ctas where g > 1"));
            try (java.sql.PreparedStatement prepared = connection.prepareStatement("create table jdbc_ctas_prepared (n) as select g * 2 from jdbc_ctas")) {
                assertEquals(3, prepared.executeUpdate());
            }
            try (ResultSet rows = statement.executeQuery("select sum(n) from jdbc_ctas_prepared")) {
                rows.next();
                assertEquals(12, rows.getInt(1));
            }
            statement.execute("drop table jdbc_ctas, jdbc_ctas_into, jdbc_ctas_prepared");
        }
    }

    /**
     * SQL PREPARE / EXECUTE / DEALLOCATE sent by pgJDBC, which wraps each in the extended protocol's
     * unnamed statement: Describe of EXECUTE answers the prepared statement's columns, and pgJDBC's
     * own server-side statements (named after prepareThreshold uses) sit beside them in one namespace.
     */
    @Test
    void sqlPreparedStatementsThroughPgJdbc() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table jdbc_prepared (id int primary key, v text)");
            statement.execute("insert into jdbc_prepared values (1, 'one'), (2, 'two')");
            statement.execute("prepare jq(int) as select v from jdbc_prepared where id = $1");
            try (ResultSet rows = statement.executeQuery("execute jq(2)")) {
                assertEquals("v", rows.getMetaData().getColumnName(1));
                assertTrue(rows.next());
                assertEquals("two", rows.getString(1));
                assertFalse(rows.next());
            }
            try (java.sql.PreparedStatement prepared = connection.prepareStatement("select v from jdbc_prepared where id = ?")) {
                for (int run = 0; run < 6; run++) {
                    prepared.setInt(1, 1);
                    try (ResultSet rows = prepared.executeQuery()) {
                        assertTrue(rows.next());
                        assertEquals("one", rows.getString(1));
                    }
                }
            }
            try (ResultSet rows = statement.executeQuery("select name, from_sql from pg_prepared_statements order by from_sql desc, name")) {
                assertTrue(rows.next());
                assertEquals("jq", rows.getString(1));
                assertTrue(rows.getBoolean(2));
                // pgJDBC's server-side statement of the loop above (S_n), from the protocol.
                assertTrue(rows.next());
                assertTrue(rows.getString(1).startsWith("S_"), rows.getString(1));
                assertFalse(rows.getBoolean(2));
            }
            statement.execute("deallocate jq");
            SQLException gone = assertThrows(SQLException.class, () -> statement.executeQuery("execute jq(1)"));
            assertEquals("26000", gone.getSQLState());
            statement.execute("drop table jdbc_prepared");
        }
    }

    @Test
    void simpleStatementsReturnTypedRows() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table typed (i int, b bigint, s smallint, n numeric(12,3), r real, d double precision,"
                    + " dt date, ts timestamp, t text, v varchar(10), c char(3), flag boolean)");
            assertEquals(2, statement.executeUpdate("insert into typed values (1, 9000000000, 7, 1234.5, 1.5, 2.25,"
                    + " date '2024-02-29', '2024-02-29 13:14:15.123456'::timestamp, 'hé', 'abc', 'x', true),"
                    + " (null, null, null, -0.001, null, null, null, null, null, null, null, false)"));
            try (ResultSet rows = statement.executeQuery("select * from typed order by i nulls last")) {
                ResultSetMetaData meta = rows.getMetaData();
                assertEquals(12, meta.getColumnCount());
                assertEquals("int4", meta.getColumnTypeName(1));
                assertEquals("int8", meta.getColumnTypeName(2));
                assertEquals("numeric", meta.getColumnTypeName(4));
                assertEquals(12, meta.getPrecision(4));
                assertEquals(3, meta.getScale(4));
                assertEquals("varchar", meta.getColumnTypeName(10));
                assertEquals(10, meta.getPrecision(10));
                assertEquals("bpchar", meta.getColumnTypeName(11));
                assertEquals(Types.TIMESTAMP, meta.getColumnType(8));
                assertTrue(rows.next());
                assertEquals(1, rows.getInt(1));
                assertEquals(9_000_000_000L, rows.getLong(2));
                assertEquals(7, rows.getShort(3));
                assertEquals(new BigDecimal("1234.500"), rows.getBigDecimal(4));
                assertEquals(1.5f, rows.getFloat(5));
                assertEquals(2.25, rows.getDouble(6));
                assertEquals(Date.valueOf("2024-02-29"), rows.getDate(7));
                assertEquals(Timestamp.valueOf("2024-02-29 13:14:15.123456"), rows.getTimestamp(8));
                assertEquals(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_000), rows.getObject(8, LocalDateTime.class));
                assertEquals("hé", rows.getString(9));
                assertEquals("abc", rows.getString(10));
                assertEquals("x  ", rows.getString(11));
                assertTrue(rows.getBoolean(12));
                assertTrue(rows.next());
                assertEquals(0, rows.getInt(1));
                assertTrue(rows.wasNull());
                assertEquals(new BigDecimal("-0.001"), rows.getBigDecimal(4));
                assertNull(rows.getString(9));
                assertFalse(rows.getBoolean(12));
                assertFalse(rows.next());
            }
        }
    }

    @Test
    void sessionFunctionsAnswerTheConnectingUserAndTheServerVersion() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select current_user, session_user, current_database(), current_schema(), version()")) {
            assertTrue(rows.next());
            assertEquals("tester", rows.getString(1));
            assertEquals("tester", rows.getString(2));
            assertEquals("parallax", rows.getString(3));
            assertEquals("public", rows.getString(4));
            assertTrue(rows.getString(5).startsWith("PostgreSQL 15.0 (Parallax test) on "), rows.getString(5));
            assertEquals("15.0 (Parallax test)", connection.getMetaData().getDatabaseProductVersion());
        }
    }

    @Test
    void severalStatementsInOneSimpleQuery() throws SQLException {
        try (Connection connection = server.connect(Map.of("preferQueryMode", "simple"));
             Statement statement = connection.createStatement()) {
            assertFalse(statement.execute("create table several (a int); insert into several values (1), (2); select sum(a) from several"));
            assertEquals(0, statement.getUpdateCount());
            assertFalse(statement.getMoreResults());
            assertEquals(2, statement.getUpdateCount());
            assertTrue(statement.getMoreResults());
            try (ResultSet rows = statement.getResultSet()) {
                assertTrue(rows.next());
                assertEquals(3, rows.getLong(1));
            }
        }
    }

    @Test
    void preparedStatementsBindTextAndBinaryParameters() throws SQLException {
        // prepareThreshold=-1 makes the driver use named server statements and binary transfer from the first execution.
        for (String threshold : List.of("5", "-1")) {
            String table = "prepared_" + (threshold.equals("5") ? "default" : "binary");
            try (Connection connection = server.connect(Map.of("prepareThreshold", threshold))) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("create table " + table + " (id int, amount numeric(10,2), day date,"
                            + " stamp timestamp, name varchar(20), ratio double precision, big bigint, flag boolean)");
                }
                try (PreparedStatement insert = connection.prepareStatement("insert into " + table + " values (?, ?, ?, ?, ?, ?, ?, ?)")) {
                    for (int id = 1; id <= 20; id++) {
                        insert.setInt(1, id);
                        insert.setBigDecimal(2, new BigDecimal(id + ".25"));
                        insert.setObject(3, LocalDate.of(2024, 1, id));
                        insert.setTimestamp(4, Timestamp.valueOf(LocalDateTime.of(2024, 1, 1, id % 24, 30, 0, id * 1000)));
                        insert.setString(5, "name " + id);
                        insert.setDouble(6, id / 4.0);
                        insert.setLong(7, id * 10_000_000_000L);
                        insert.setBoolean(8, id % 2 == 0);
                        insert.addBatch();
                    }
                    int[] counts = insert.executeBatch();
                    assertEquals(20, counts.length);
                    for (int count : counts) {
                        assertEquals(1, count);
                    }
                }
                try (PreparedStatement select = connection.prepareStatement(
                        "select id, amount, day, stamp, name, ratio, big, flag from " + table + " where id = ?")) {
                    for (int repeat = 0; repeat < 8; repeat++) {
                        for (int id : new int[] {3, 17}) {
                            select.setInt(1, id);
                            try (ResultSet rows = select.executeQuery()) {
                                assertTrue(rows.next());
                                assertEquals(id, rows.getInt(1));
                                assertEquals(new BigDecimal(id + ".25"), rows.getBigDecimal(2));
                                assertEquals(LocalDate.of(2024, 1, id), rows.getObject(3, LocalDate.class));
                                assertEquals(LocalDateTime.of(2024, 1, 1, id % 24, 30, 0, id * 1000), rows.getObject(4, LocalDateTime.class));
                                assertEquals("name " + id, rows.getString(5));
                                assertEquals(id / 4.0, rows.getDouble(6));
                                assertEquals(id * 10_000_000_000L, rows.getLong(7));
                                assertEquals(id % 2 == 0, rows.getBoolean(8));
                                assertFalse(rows.next());
                            }
                        }
                    }
                }
                try (PreparedStatement range = connection.prepareStatement(
                        "select count(*), sum(amount) from " + table + " where day between ? and ? and flag = ?")) {
                    range.setDate(1, Date.valueOf("2024-01-05"));
                    range.setObject(2, LocalDate.of(2024, 1, 10));
                    range.setBoolean(3, true);
                    try (ResultSet rows = range.executeQuery()) {
                        assertTrue(rows.next());
                        assertEquals(3, rows.getLong(1));
                        assertEquals(new BigDecimal("24.75"), rows.getBigDecimal(2));
                    }
                }
            }
        }
    }

    @Test
    void negativeAndFractionalNumericsRoundTripInBinary() throws SQLException {
        try (Connection connection = server.connect(Map.of("prepareThreshold", "-1"));
             PreparedStatement select = connection.prepareStatement("select ?::numeric(18,6), ?::numeric(18,0), ?::numeric(5,4)")) {
            String[][] cases = {{"-123456789012.345678", "999999999999999999", "0.0001"}, {"0.000000", "-10000", "-9.9999"},
                    {"100000000.000001", "0", "1.0000"}};
            for (String[] values : cases) {
                for (int index = 0; index < 3; index++) {
                    select.setBigDecimal(index + 1, new BigDecimal(values[index]));
                }
                try (ResultSet rows = select.executeQuery()) {
                    assertTrue(rows.next());
                    for (int index = 0; index < 3; index++) {
                        assertEquals(new BigDecimal(values[index]), rows.getBigDecimal(index + 1), values[index]);
                    }
                }
            }
        }
    }

    @Test
    void errorsCarryPostgresSqlStateAndTheConnectionGoesOn() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            SQLException syntax = assertThrows(SQLException.class, () -> statement.executeQuery("selec 1"));
            assertEquals("42601", syntax.getSQLState());
            assertTrue(syntax.getMessage().contains("syntax error at or near \"selec\""), syntax.getMessage());
            SQLException missing = assertThrows(SQLException.class, () -> statement.executeQuery("select * from no_such_table"));
            assertEquals("42P01", missing.getSQLState());
            assertEquals("ERROR: relation \"no_such_table\" does not exist\n  Position: 15", missing.getMessage());
            statement.execute("create table unique_keys (k int primary key)");
            statement.execute("insert into unique_keys values (1)");
            SQLException duplicate = assertThrows(SQLException.class, () -> statement.execute("insert into unique_keys values (1)"));
            assertEquals("23505", duplicate.getSQLState());
            try (PreparedStatement divide = connection.prepareStatement("select 1 / ?")) {
                divide.setInt(1, 0);
                SQLException division = assertThrows(SQLException.class, divide::executeQuery);
                assertEquals("22012", division.getSQLState());
                divide.setInt(1, 1);
                try (ResultSet rows = divide.executeQuery()) {
                    assertTrue(rows.next());
                    assertEquals(1, rows.getInt(1));
                }
            }
            statement.execute("drop table if exists no_such_table");
            assertEquals("table \"no_such_table\" does not exist, skipping", statement.getWarnings().getMessage());
            assertEquals("00000", statement.getWarnings().getSQLState());
            try (ResultSet rows = statement.executeQuery("select count(*) from unique_keys")) {
                assertTrue(rows.next());
                assertEquals(1, rows.getInt(1));
            }
        }
    }

    @Test
    void cancelStopsTheRunningQueryOfThatConnectionOnly() throws Exception {
        try (Connection slow = server.connect(); Connection other = server.connect();
             Statement slowStatement = slow.createStatement(); Statement otherStatement = other.createStatement()) {
            CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> {
                try {
                    slowStatement.executeQuery("select count(*) from generate_series(1, 100000000000) g where g % 7 = 3");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            // The other connection answers while the slow query runs.
            waitUntilRunning();
            try (ResultSet rows = otherStatement.executeQuery("select 42")) {
                assertTrue(rows.next());
                assertEquals(42, rows.getInt(1));
            }
            slowStatement.cancel();
            SQLException cancelled = failure.get(30, TimeUnit.SECONDS);
            assertEquals("57014", cancelled.getSQLState());
            assertEquals("ERROR: canceling statement due to user request", cancelled.getMessage());
            try (ResultSet rows = slowStatement.executeQuery("select 7")) {
                assertTrue(rows.next());
                assertEquals(7, rows.getInt(1));
            }
        }
        assertEquals(0, server.queryMemory());
    }

    /**
     * As many CPU-bound serial queries as the machine has cores, each on its own connection, do
     * not keep another connection from answering: each connection's statements run on a thread
     * the operating system schedules (on virtual threads, one carrier per core, "select 42" waited
     * for a slow query to end).
     */
    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a starved connection hangs, not fails
    void slowQueriesOnEveryCoreLeaveAnotherConnectionAnswering() throws Exception {
        int slowCount = Math.max(2, Runtime.getRuntime().availableProcessors());
        List<Connection> slow = new ArrayList<>();
        List<Statement> slowStatements = new ArrayList<>();
        List<CompletableFuture<SQLException>> failures = new ArrayList<>();
        try (Connection other = server.connect(); Statement otherStatement = other.createStatement()) {
            for (int index = 0; index < slowCount; index++) {
                Connection connection = server.connect();
                slow.add(connection);
                Statement statement = connection.createStatement();
                slowStatements.add(statement);
                statement.execute("set max_parallel_workers_per_gather = 0");
                failures.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        statement.executeQuery("select count(*) from generate_series(1, 100000000000) g where g % 7 = 3");
                        return null;
                    } catch (SQLException e) {
                        return e;
                    }
                }, runnable -> Thread.ofPlatform().daemon(true).start(runnable)));
            }
            for (int attempt = 0; attempt < 400 && server.database.runningStatements().size() < slowCount; attempt++) {
                Thread.sleep(10);
            }
            assertEquals(slowCount, server.database.runningStatements().size(), "the slow queries never all started");
            try (ResultSet rows = otherStatement.executeQuery("select 42")) {
                assertTrue(rows.next());
                assertEquals(42, rows.getInt(1));
            }
            assertEquals(slowCount, server.database.runningStatements().size(), "a slow query ended early");
        } finally {
            for (Statement statement : slowStatements) {
                statement.cancel();
            }
            for (CompletableFuture<SQLException> failure : failures) {
                assertEquals("57014", failure.get(30, TimeUnit.SECONDS).getSQLState());
            }
            for (Connection connection : slow) {
                connection.close();
            }
        }
    }

    @Test
    void largeResultsStreamInOrder() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            long expected = 1;
            try (ResultSet rows = statement.executeQuery("select g, g * 2 from generate_series(1, 300000) g order by g")) {
                while (rows.next()) {
                    assertEquals(expected, rows.getLong(1));
                    assertEquals(expected * 2, rows.getLong(2));
                    expected++;
                }
            }
            assertEquals(300_001, expected);
        }
    }

    @Test
    void copyInAndOutThroughTheCopyManager() throws Exception {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table copied (id int, name text, price numeric(6,2))");
            org.postgresql.copy.CopyManager copy = connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
            long loaded = copy.copyIn("copy copied from stdin with (format csv)",
                    new java.io.StringReader("1,one,1.50\n2,\"two, too\",\n3,three,3.25\n"));
            assertEquals(3, loaded);
            java.io.StringWriter text = new java.io.StringWriter();
            assertEquals(3, copy.copyOut("copy copied to stdout", text));
            assertEquals("1\tone\t1.50\n2\ttwo, too\t\\N\n3\tthree\t3.25\n", text.toString());
            java.io.StringWriter csv = new java.io.StringWriter();
            assertEquals(2, copy.copyOut("copy (select id, name from copied where price is not null order by id) to stdout"
                    + " with (format csv, header)", csv));
            assertEquals("id,name\n1,one\n3,three\n", csv.toString());
            SQLException bad = assertThrows(SQLException.class,
                    () -> copy.copyIn("copy copied from stdin", new java.io.StringReader("4\tfour\t4.00\nfive\tfive\t5\n")));
            assertEquals("22P02", bad.getSQLState());
            try (ResultSet rows = statement.executeQuery("select count(*) from copied")) {
                assertTrue(rows.next());
                assertEquals(3, rows.getInt(1));
            }
        }
    }

    @Test
    void databaseMetaDataListsSchemasTablesAndColumns() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table meta_items (id int primary key, name varchar(20) not null, price numeric(8,2))");
            statement.execute("create view meta_names as select id, name from meta_items");
            java.sql.DatabaseMetaData meta = connection.getMetaData();
            try (ResultSet schemas = meta.getSchemas()) {
                StringBuilder names = new StringBuilder();
                while (schemas.next()) {
                    names.append(schemas.getString("TABLE_SCHEM")).append(' ');
                }
                assertEquals("information_schema pg_catalog public ", names.toString());
            }
            try (ResultSet tables = meta.getTables(null, "public", "meta%", null)) {
                StringBuilder rows = new StringBuilder();
                while (tables.next()) {
                    rows.append(tables.getString("TABLE_SCHEM")).append('.').append(tables.getString("TABLE_NAME"))
                            .append(' ').append(tables.getString("TABLE_TYPE")).append('\n');
                }
                assertEquals("public.meta_items_pkey INDEX\npublic.meta_items TABLE\npublic.meta_names VIEW\n", rows.toString());
            }
            try (ResultSet tables = meta.getTables(null, null, "meta%", new String[] {"TABLE"})) {
                assertTrue(tables.next());
                assertEquals("meta_items", tables.getString("TABLE_NAME"));
                assertNull(tables.getString("REMARKS"));
                assertFalse(tables.next());
            }
            try (ResultSet tables = meta.getTables(null, "pg_catalog", "pg_cl%", new String[] {"SYSTEM VIEW"})) {
                assertTrue(tables.next());
                assertEquals("pg_class", tables.getString("TABLE_NAME"));
                assertEquals("SYSTEM VIEW", tables.getString("TABLE_TYPE"));
            }
            try (ResultSet columns = meta.getColumns(null, "public", "meta_items", null)) {
                StringBuilder rows = new StringBuilder();
                while (columns.next()) {
                    rows.append(columns.getInt("ORDINAL_POSITION")).append(' ').append(columns.getString("COLUMN_NAME"))
                            .append(' ').append(columns.getInt("DATA_TYPE")).append(' ').append(columns.getString("TYPE_NAME"))
                            .append(' ').append(columns.getInt("COLUMN_SIZE")).append(' ').append(columns.getInt("DECIMAL_DIGITS"))
                            .append(' ').append(columns.getString("IS_NULLABLE")).append('\n');
                }
                assertEquals("1 id " + Types.INTEGER + " int4 10 0 NO\n2 name " + Types.VARCHAR + " varchar 20 0 NO\n"
                        + "3 price " + Types.NUMERIC + " numeric 8 2 YES\n", rows.toString());
            }
            try (ResultSet columns = meta.getColumns(null, "public", "meta_names", null)) {
                StringBuilder rows = new StringBuilder();
                while (columns.next()) {
                    rows.append(columns.getInt("ORDINAL_POSITION")).append(' ').append(columns.getString("COLUMN_NAME"))
                            .append(' ').append(columns.getString("TYPE_NAME")).append(' ').append(columns.getString("IS_NULLABLE"))
                            .append('\n');
                }
                // A view's columns, nullable as PostgreSQL lists them though the table's are NOT NULL.
                assertEquals("1 id int4 YES\n2 name varchar YES\n", rows.toString());
            }
        }
    }

    @Test
    void databaseMetaDataListsPrimaryKeysAndIndexes() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table keyed_items (a int, b int, c text, primary key (b, a))");
            statement.execute("create index keyed_items_c on keyed_items (c)");
            java.sql.DatabaseMetaData meta = connection.getMetaData();
            try (ResultSet keys = meta.getPrimaryKeys(null, "public", "keyed_items")) {
                StringBuilder rows = new StringBuilder();
                while (keys.next()) {
                    rows.append(keys.getString("COLUMN_NAME")).append(' ').append(keys.getInt("KEY_SEQ")).append(' ')
                            .append(keys.getString("PK_NAME")).append('\n');
                }
                assertEquals("b 1 keyed_items_pkey\na 2 keyed_items_pkey\n", rows.toString());
            }
            try (ResultSet indexes = meta.getIndexInfo(null, "public", "keyed_items", false, false)) {
                StringBuilder rows = new StringBuilder();
                while (indexes.next()) {
                    rows.append(indexes.getString("INDEX_NAME")).append(' ').append(indexes.getBoolean("NON_UNIQUE")).append(' ')
                            .append(indexes.getInt("ORDINAL_POSITION")).append(' ').append(indexes.getString("COLUMN_NAME"))
                            .append(' ').append(indexes.getString("ASC_OR_DESC")).append('\n');
                }
                assertEquals("keyed_items_pkey false 1 b null\nkeyed_items_pkey false 2 a null\nkeyed_items_c true 1 c A\n",
                        rows.toString());
            }
            try (ResultSet indexes = meta.getIndexInfo(null, "public", "keyed_items", true, false)) {
                int count = 0;
                while (indexes.next()) {
                    assertEquals("keyed_items_pkey", indexes.getString("INDEX_NAME"));
                    count++;
                }
                assertEquals(2, count);
            }
        }
    }

    @Test
    void arraysArriveAsJdbcArrays() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select ARRAY[1,NULL,3], '{a,\"b c\"}'::text[], '1 2'::int2vector")) {
            assertTrue(rows.next());
            assertEquals(Types.ARRAY, rows.getMetaData().getColumnType(1));
            assertEquals("_int4", rows.getMetaData().getColumnTypeName(1));
            assertEquals("[1, null, 3]", java.util.Arrays.toString((Object[]) rows.getArray(1).getArray()));
            assertEquals("[a, b c]", java.util.Arrays.toString((Object[]) rows.getArray(2).getArray()));
            assertEquals("1 2", rows.getString(3));
        }
    }

    @Test
    void arrayParametersBindInTextAndBinary() throws SQLException {
        // Default: text parameters at first; prepareThreshold=-1: named statements and binary transfer;
        // simple: the driver inlines each parameter as a literal.
        for (Map<String, String> options : List.of(Map.of("prepareThreshold", "5"), Map.of("prepareThreshold", "-1"),
                Map.of("preferQueryMode", "simple"))) {
            String table = "array_parameters_" + options.values().iterator().next().replace("-", "m");
            try (Connection connection = server.connect(options)) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("create table " + table + " (id bigint, name text, scores int[])");
                    statement.execute("insert into " + table + " values (1, 'one', '{1}'), (2, 'two', NULL), (3, 'three', '{}'),"
                            + " (4, 'four', '{4,NULL}')");
                }
                try (PreparedStatement select = connection.prepareStatement(
                        "select name from " + table + " where id = any(?) order by id")) {
                    for (int repeat = 0; repeat < 3; repeat++) {
                        select.setArray(1, connection.createArrayOf("int", new Integer[] {3, 1, 99}));
                        assertEquals(List.of("one", "three"), strings(select), options.toString());
                        select.setObject(1, new int[] {2, 4});
                        assertEquals(List.of("two", "four"), strings(select), options.toString());
                        select.setObject(1, new long[] {4});
                        assertEquals(List.of("four"), strings(select), options.toString());
                        select.setArray(1, connection.createArrayOf("int8", new Long[] {1L, null, 2L}));
                        assertEquals(List.of("one", "two"), strings(select), options.toString());
                        select.setArray(1, connection.createArrayOf("int4", new Integer[0]));
                        assertEquals(List.of(), strings(select), options.toString());
                    }
                }
                try (PreparedStatement select = connection.prepareStatement(
                        "select name from " + table + " where name <> all(?) and ? = any(scores) order by id")) {
                    select.setArray(1, connection.createArrayOf("text", new String[] {"one", "x y"}));
                    select.setInt(2, 4);
                    assertEquals(List.of("four"), strings(select), options.toString());
                }
                try (PreparedStatement insert = connection.prepareStatement("insert into " + table + " values (?, ?, ?)")) {
                    insert.setLong(1, 5);
                    insert.setString(2, "five");
                    insert.setObject(3, new int[] {5, -6});
                    assertEquals(1, insert.executeUpdate());
                }
                try (Statement statement = connection.createStatement();
                     ResultSet rows = statement.executeQuery("select scores from " + table + " where id = 5")) {
                    assertTrue(rows.next());
                    assertEquals("[5, -6]", java.util.Arrays.toString((Object[]) rows.getArray(1).getArray()));
                }
            }
        }
    }

    private static List<String> strings(PreparedStatement select) throws SQLException {
        List<String> values = new java.util.ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }

    private static void waitUntilRunning() throws InterruptedException {
        for (int attempt = 0; attempt < 400 && server.database.runningStatements().isEmpty(); attempt++) {
            Thread.sleep(10);
        }
        assertFalse(server.database.runningStatements().isEmpty(), "the slow query never started");
    }

    @Test
    void autocommitOffCommitsAndRollsBackWhatCanBeRolledBack() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table accounts (id int primary key, balance int)");
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("insert into accounts values (?, ?)")) {
                for (int id = 1; id <= 3; id++) {
                    insert.setInt(1, id);
                    insert.setInt(2, id * 100);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            statement.executeUpdate("update accounts set balance = balance - 50 where id = 1");
            connection.commit();
            try (ResultSet rows = statement.executeQuery("select sum(balance) from accounts")) {
                assertTrue(rows.next());
                assertEquals(550, rows.getInt(1));
            }
            // A block of reads rolls back normally, also after an error.
            connection.rollback();
            SQLException failed = assertThrows(SQLException.class, () -> statement.executeQuery("select 1 / 0"));
            assertEquals("22012", failed.getSQLState());
            SQLException ignored = assertThrows(SQLException.class, () -> statement.executeQuery("select 1"));
            assertEquals("25P02", ignored.getSQLState());
            connection.rollback();
            try (ResultSet rows = statement.executeQuery("select count(*) from accounts")) {
                assertTrue(rows.next());
                assertEquals(3, rows.getInt(1));
            }
            connection.commit();
            // A block that changed data cannot be rolled back: the driver hears so, and the change stays.
            statement.executeUpdate("delete from accounts where id = 3");
            SQLException refused = assertThrows(SQLException.class, connection::rollback);
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("ROLLBACK cannot undo the changes made in this transaction block"), refused.getMessage());
            connection.setAutoCommit(true);
            try (ResultSet rows = statement.executeQuery("select count(*) from accounts")) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
            }
            statement.execute("drop table accounts");
        }
    }

    private static final java.util.UUID UUID_FIRST = java.util.UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    private static final java.util.UUID UUID_SECOND = java.util.UUID.fromString("00000000-0000-4000-8000-0000000000ff");

    /**
     * uuid through pgJDBC: the column described as OID 2950 (pgJDBC then returns java.util.UUID),
     * setObject(UUID) sent in pgJDBC's binary uuid format, and results in text and, once pgJDBC
     * switches a prepared statement to binary (prepareThreshold), in uuid_send's 16 bytes.
     */
    @Test
    void uuidsRoundTripInTextAndBinary() throws SQLException {
        try (Connection connection = server.connect(java.util.Map.of("prepareThreshold", "1"));
             Statement statement = connection.createStatement()) {
            statement.execute("create table jdbc_uuid (id uuid primary key, v int) partition by hash (id) partitions 4");
            try (PreparedStatement insert = connection.prepareStatement("insert into jdbc_uuid values (?, ?)")) {
                insert.setObject(1, UUID_FIRST);
                insert.setInt(2, 1);
                assertEquals(1, insert.executeUpdate());
                insert.setObject(1, UUID_SECOND);
                insert.setInt(2, 2);
                assertEquals(1, insert.executeUpdate());
            }
            try (ResultSet rows = statement.executeQuery("select id, id::text, v from jdbc_uuid order by id")) {
                assertEquals(Types.OTHER, rows.getMetaData().getColumnType(1));
                assertEquals("uuid", rows.getMetaData().getColumnTypeName(1));
                assertTrue(rows.next());
                assertEquals(UUID_SECOND, rows.getObject(1));
                assertEquals(UUID_SECOND.toString(), rows.getString(2));
                assertTrue(rows.next());
                assertEquals(UUID_FIRST, rows.getObject(1));
                assertEquals(UUID_FIRST.toString(), rows.getString(1));
                assertFalse(rows.next());
            }
            try (PreparedStatement select = connection.prepareStatement("select id, v from jdbc_uuid where id = ?")) {
                // Several executions: pgJDBC prepares on the server and then asks for binary uuid results.
                for (int round = 0; round < 4; round++) {
                    select.setObject(1, round % 2 == 0 ? UUID_FIRST : UUID_SECOND);
                    try (ResultSet rows = select.executeQuery()) {
                        assertTrue(rows.next());
                        assertEquals(round % 2 == 0 ? UUID_FIRST : UUID_SECOND, rows.getObject(1, java.util.UUID.class));
                        assertEquals(round % 2 == 0 ? 1 : 2, rows.getInt(2));
                        assertFalse(rows.next());
                    }
                }
            }
        }
    }
}
