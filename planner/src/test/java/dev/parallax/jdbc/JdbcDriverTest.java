package dev.parallax.jdbc;

import dev.parallax.Database;
import dev.parallax.Session;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver, connections and statements, through plain JDBC code (DriverManager, Statement, PreparedStatement). */
class JdbcDriverTest {

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:parallax:mem:");
    }

    @Test
    void driverManagerFindsTheDriverThroughServiceLoader() throws SQLException {
        Driver driver = DriverManager.getDriver("jdbc:parallax:mem:");
        assertInstanceOf(ParallaxDriver.class, driver);
        assertTrue(driver.acceptsURL("jdbc:parallax:mem:x"));
        assertFalse(driver.acceptsURL("jdbc:postgresql://localhost/db"));
        assertNull(driver.connect("jdbc:postgresql://localhost/db", new Properties()));
        assertFalse(driver.jdbcCompliant());
        assertEquals(0, driver.getMajorVersion());
        assertEquals(1, driver.getMinorVersion());
        assertEquals(List.of("user", "password"),
                java.util.Arrays.stream(driver.getPropertyInfo("jdbc:parallax:mem:", new Properties())).map(info -> info.name).toList());
    }

    @Test
    void fileUrlsAreNotSupportedYet() {
        SQLException failure = assertThrows(SQLFeatureNotSupportedException.class,
                () -> DriverManager.getConnection("jdbc:parallax:file:/tmp/db"));
        assertEquals("0A000", failure.getSQLState());
        assertTrue(failure.getMessage().contains("only in-memory databases exist yet"), failure.getMessage());
    }

    @Test
    void ddlInsertAndQueryThroughAStatement() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertFalse(statement.execute("create table t (id integer not null, name varchar(10))"));
            assertEquals(0, statement.getUpdateCount());
            assertEquals(3, statement.executeUpdate("insert into t values (1, 'one'), (2, 'two'), (3, null)"));
            try (ResultSet rows = statement.executeQuery("select id, name from t order by id")) {
                List<String> seen = new ArrayList<>();
                while (rows.next()) {
                    seen.add(rows.getInt("id") + "=" + rows.getString(2));
                }
                assertEquals(List.of("1=one", "2=two", "3=null"), seen);
                assertFalse(rows.next());
            }
            assertEquals(2, statement.executeLargeUpdate("insert into t select id + 10, name from t where id < 3"));
        }
    }

    @Test
    void createTableAsAndSelectIntoReturnTheirRowCounts() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table t (a int)");
            statement.executeUpdate("insert into t values (1), (2), (3)");
            assertEquals(3, statement.executeUpdate("create table copy as select * from t"));
            assertEquals(2, statement.executeUpdate("select a into copy2 from t where a > 1"));
            assertFalse(statement.execute("create table copy3 (b) as select a * 10 from t"));
            assertEquals(3, statement.getUpdateCount());
            assertEquals(0, statement.executeUpdate("create table copy4 as select * from t with no data"));
            statement.clearWarnings();
            assertEquals(0, statement.executeUpdate("create table if not exists copy as select 1"));
            assertEquals("relation \"copy\" already exists, skipping", statement.getWarnings().getMessage());
            assertEquals("42P07", statement.getWarnings().getSQLState());
            try (ResultSet rows = statement.executeQuery("select sum(b) from copy3")) {
                assertTrue(rows.next());
                assertEquals(60, rows.getInt(1));
            }
        }
        try (Connection connection = connect(); java.sql.PreparedStatement prepared = connection.prepareStatement(
                "create table t (a) as select g from generate_series(1, 4) g")) {
            assertEquals(4, prepared.executeUpdate());
        }
    }

    @Test
    void executeRunsEveryStatementOfAScriptAndWalksTheirResults() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertFalse(statement.execute("create table t (a int); insert into t values (1), (2); select a from t order by a; select 42"));
            assertEquals(0, statement.getUpdateCount());
            assertFalse(statement.getMoreResults());
            assertEquals(2, statement.getUpdateCount());
            assertTrue(statement.getMoreResults());
            ResultSet first = statement.getResultSet();
            assertTrue(first.next());
            assertEquals(1, first.getInt(1));
            assertTrue(statement.getMoreResults());
            assertTrue(first.isClosed());
            ResultSet second = statement.getResultSet();
            assertTrue(second.next());
            assertEquals(42, second.getInt(1));
            assertFalse(statement.getMoreResults());
            assertEquals(-1, statement.getUpdateCount());
            assertNull(statement.getResultSet());
        }
    }

    @Test
    void executeQueryWithoutRowsAndExecuteUpdateWithRowsFailLikePgJdbc() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            SQLException noRows = assertThrows(SQLException.class, () -> statement.executeQuery("create table t (a int)"));
            assertEquals("02000", noRows.getSQLState());
            assertEquals("No results were returned by the query.", noRows.getMessage());
            SQLException rows = assertThrows(SQLException.class, () -> statement.executeUpdate("select 1"));
            assertEquals("0100E", rows.getSQLState());
            assertEquals("A result was returned when none was expected.", rows.getMessage());
        }
    }

    @Test
    void preparedStatementBatchInsertsAndTypedParameters() throws SQLException {
        try (Connection connection = connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create table items (id bigint not null, price numeric(10,2), name text, sold_on date, sold_at timestamp,"
                        + " ok boolean, ratio double precision)");
            }
            try (PreparedStatement insert = connection.prepareStatement("insert into items values (?, ?, ?, ?, ?, ?, ?)")) {
                assertEquals(7, insert.getParameterMetaData().getParameterCount());
                assertEquals("int8", insert.getParameterMetaData().getParameterTypeName(1));
                assertEquals(java.sql.Types.NUMERIC, insert.getParameterMetaData().getParameterType(2));
                assertNull(insert.getMetaData());
                for (int id = 1; id <= 3; id++) {
                    insert.setLong(1, id);
                    insert.setBigDecimal(2, new java.math.BigDecimal("1.005").multiply(java.math.BigDecimal.valueOf(id)));
                    insert.setString(3, "item " + id);
                    insert.setDate(4, java.sql.Date.valueOf("2024-02-2" + id));
                    insert.setTimestamp(5, java.sql.Timestamp.valueOf("2024-02-29 12:34:56.123456"));
                    insert.setBoolean(6, id % 2 == 1);
                    insert.setDouble(7, id / 4.0);
                    insert.addBatch();
                }
                insert.setInt(1, 4);
                insert.setNull(2, java.sql.Types.NUMERIC);
                insert.setObject(3, null);
                insert.setObject(4, java.time.LocalDate.of(2000, 1, 1));
                insert.setObject(5, "2001-02-03 04:05:06");
                insert.setObject(6, 1, java.sql.Types.BOOLEAN);
                insert.setFloat(7, 0.5f);
                insert.addBatch();
                assertArrayEquals(new int[] {1, 1, 1, 1}, insert.executeBatch());
            }
            try (PreparedStatement select = connection.prepareStatement("select id, price, name, sold_on, sold_at, ok, ratio from items where id >= ? order by id")) {
                assertEquals(7, select.getMetaData().getColumnCount());
                select.setInt(1, 3);
                try (ResultSet rows = select.executeQuery()) {
                    assertTrue(rows.next());
                    assertEquals(3L, rows.getObject(1));
                    assertEquals(new java.math.BigDecimal("3.02"), rows.getBigDecimal(2));
                    assertEquals("item 3", rows.getString(3));
                    assertEquals(java.time.LocalDate.of(2024, 2, 23), rows.getObject(4));
                    assertEquals(java.time.LocalDateTime.of(2024, 2, 29, 12, 34, 56, 123_456_000), rows.getObject(5, java.time.LocalDateTime.class));
                    assertTrue(rows.getBoolean(6));
                    assertEquals(0.75, rows.getDouble(7));
                    assertTrue(rows.next());
                    assertEquals(4, rows.getInt(1));
                    assertNull(rows.getBigDecimal(2));
                    assertTrue(rows.wasNull());
                    assertEquals(0, rows.getInt(2));
                    assertTrue(rows.wasNull());
                    assertNull(rows.getString(3));
                    assertEquals("2000-01-01", rows.getString(4));
                    assertEquals("2001-02-03 04:05:06", rows.getString(5));
                    assertFalse(rows.wasNull());
                    assertEquals("t", rows.getString(6));
                    assertEquals(0.5, rows.getDouble(7));
                    assertFalse(rows.next());
                }
            }
        }
    }

    @Test
    void missingParameterAndSqlTextOnPreparedStatementFail() throws SQLException {
        try (Connection connection = connect(); PreparedStatement select = connection.prepareStatement("select ? + 1")) {
            SQLException missing = assertThrows(SQLException.class, select::executeQuery);
            assertEquals("22023", missing.getSQLState());
            assertEquals("No value specified for parameter 1.", missing.getMessage());
            SQLException text = assertThrows(SQLException.class, () -> select.executeQuery("select 1"));
            assertEquals("42809", text.getSQLState());
            select.setInt(1, 41);
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(42, rows.getInt(1));
            }
        }
    }

    @Test
    void batchFailureReportsTheCountsSoFar() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table t (a int)");
            statement.addBatch("insert into t values (1)");
            statement.addBatch("insert into t values (1), (2)");
            statement.addBatch("insert into missing values (1)");
            statement.addBatch("insert into t values (3)");
            java.sql.BatchUpdateException failure = assertThrows(java.sql.BatchUpdateException.class, statement::executeBatch);
            assertEquals("42P01", failure.getSQLState());
            assertArrayEquals(new long[] {1, 2}, failure.getLargeUpdateCounts());
            assertTrue(failure.getMessage().startsWith("Batch entry 2 insert into missing values (1) was aborted: ERROR: relation \"missing\" does not exist"),
                    failure.getMessage());
            try (ResultSet rows = statement.executeQuery("select count(*) from t")) {
                assertTrue(rows.next());
                assertEquals(3, rows.getLong(1));
            }
        }
    }

    @Test
    void errorsCarryPostgresSqlStates() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            SQLException missing = assertThrows(SQLSyntaxErrorException.class, () -> statement.executeQuery("select * from missing"));
            assertEquals("42P01", missing.getSQLState());
            assertTrue(missing.getMessage().startsWith("ERROR: relation \"missing\" does not exist"), missing.getMessage());
            SQLException syntax = assertThrows(SQLSyntaxErrorException.class, () -> statement.execute("selec 1"));
            assertEquals("42601", syntax.getSQLState());
            assertTrue(syntax.getMessage().startsWith("ERROR: syntax error"), syntax.getMessage());
            assertTrue(syntax.getMessage().contains("\n  Position: 1"), syntax.getMessage());
            SQLException division = assertThrows(java.sql.SQLDataException.class, () -> {
                try (ResultSet rows = statement.executeQuery("select 1 / 0")) {
                    rows.next();
                }
            });
            assertEquals("22012", division.getSQLState());
            assertEquals("ERROR: division by zero", division.getMessage());
            // The connection goes on after errors.
            try (ResultSet rows = statement.executeQuery("select 2")) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
            }
        }
    }

    /** The same sequence as PgJdbcTest's over the wire: both drivers see the same transaction blocks. */
    @Test
    void autoCommitOffRunsTransactionBlocks() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table accounts (id int primary key, balance int)");
            connection.setAutoCommit(false);
            assertFalse(connection.getAutoCommit());
            try (PreparedStatement insert = connection.prepareStatement("insert into accounts values (?, ?)")) {
                for (int id = 1; id <= 3; id++) {
                    insert.setInt(1, id);
                    insert.setInt(2, id * 100);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            Session session = connection.unwrap(Session.class);
            assertEquals(dev.parallax.TransactionStatus.IN_BLOCK, session.transactionStatus());
            statement.executeUpdate("update accounts set balance = balance - 50 where id = 1");
            connection.commit();
            assertEquals(dev.parallax.TransactionStatus.IDLE, session.transactionStatus());
            try (ResultSet rows = statement.executeQuery("select sum(balance) from accounts")) {
                assertTrue(rows.next());
                assertEquals(550, rows.getInt(1));
            }
            // A block of reads rolls back normally, also after an error; settings come back.
            connection.rollback();
            statement.execute("set work_mem = '77MB'");
            SQLException failed = assertThrows(SQLException.class, () -> divideByZero(statement));
            assertEquals("22012", failed.getSQLState());
            SQLException ignored = assertThrows(SQLException.class, () -> statement.executeQuery("select 1"));
            assertEquals("25P02", ignored.getSQLState());
            SQLException syntax = assertThrows(SQLException.class, () -> statement.executeQuery("selec 1"));
            assertEquals("42601", syntax.getSQLState());
            connection.rollback();
            try (ResultSet rows = statement.executeQuery("show work_mem")) {
                assertTrue(rows.next());
                assertEquals("4MB", rows.getString(1));
            }
            // COMMIT of a failed block rolls it back: the driver says the commit did not happen.
            assertThrows(SQLException.class, () -> divideByZero(statement));
            SQLException notCommitted = assertThrows(SQLException.class, connection::commit);
            assertEquals("25P02", notCommitted.getSQLState());
            assertEquals(dev.parallax.TransactionStatus.IDLE, session.transactionStatus());
            // A block that changed data cannot be rolled back: the driver hears so, and the change stays.
            statement.executeUpdate("delete from accounts where id = 3");
            SQLException refused = assertThrows(SQLException.class, connection::rollback);
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("ROLLBACK cannot undo the changes made in this transaction block"), refused.getMessage());
            // Auto-commit back on commits the open block.
            statement.executeUpdate("delete from accounts where id = 2");
            connection.setAutoCommit(true);
            assertEquals(dev.parallax.TransactionStatus.IDLE, session.transactionStatus());
            try (ResultSet rows = statement.executeQuery("select count(*) from accounts")) {
                assertTrue(rows.next());
                assertEquals(1, rows.getInt(1));
            }
            assertThrows(SQLFeatureNotSupportedException.class, () -> {
                connection.setAutoCommit(false);
                connection.setSavepoint();
            });
        }
    }

    private static void divideByZero(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("select 1 / 0")) {
            rows.next();
        }
    }

    @Test
    void autoCommitIsTheDefault() throws SQLException {
        try (Connection connection = connect()) {
            assertTrue(connection.getAutoCommit());
            connection.setAutoCommit(true);
            SQLException commit = assertThrows(SQLException.class, connection::commit);
            assertEquals("25P01", commit.getSQLState());
            assertEquals("Cannot commit when autoCommit is enabled.", commit.getMessage());
            SQLException rollback = assertThrows(SQLException.class, connection::rollback);
            assertEquals("Cannot rollback when autoCommit is enabled.", rollback.getMessage());
            assertThrows(SQLFeatureNotSupportedException.class,
                    () -> connection.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY));
            assertThrows(SQLFeatureNotSupportedException.class,
                    () -> connection.prepareStatement("select 1", ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
            assertEquals("public", connection.getSchema());
            assertNull(connection.getCatalog());
            assertEquals("select 1", connection.nativeSQL("select 1"));
            connection.setReadOnly(true);
            assertTrue(connection.isValid(1));
            assertInstanceOf(Session.class, connection.unwrap(Session.class));
            assertTrue(connection.isWrapperFor(Database.class));
        }
    }

    @Test
    void closedObjectsRefuseWorkAndCloseIsIdempotent() throws SQLException {
        Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("select 1");
        statement.close();
        assertTrue(rows.isClosed());
        SQLException closedStatement = assertThrows(SQLException.class, () -> statement.executeQuery("select 1"));
        assertEquals("This statement has been closed.", closedStatement.getMessage());
        assertEquals("55000", closedStatement.getSQLState());
        statement.close();
        Statement other = connection.createStatement();
        connection.close();
        connection.close();
        assertTrue(connection.isClosed());
        assertTrue(other.isClosed());
        assertFalse(connection.isValid(0));
        SQLException closedConnection = assertThrows(SQLException.class, connection::createStatement);
        assertEquals("08003", closedConnection.getSQLState());
        assertEquals("This connection has been closed.", closedConnection.getMessage());
    }

    @Test
    void namedDatabasesAreSharedWithinTheJvm() throws SQLException {
        String url = "jdbc:parallax:mem:shared_" + UUID.randomUUID().toString().replace('-', '_');
        try (Connection first = DriverManager.getConnection(url); Connection second = DriverManager.getConnection(url)) {
            try (Statement statement = first.createStatement()) {
                statement.execute("create table shared (a int)");
                statement.execute("insert into shared values (7)");
            }
            try (Statement statement = second.createStatement(); ResultSet rows = statement.executeQuery("select a from shared")) {
                assertTrue(rows.next());
                assertEquals(7, rows.getInt(1));
            }
            assertSame(first.unwrap(Database.class), second.unwrap(Database.class));
        }
        try (Connection again = DriverManager.getConnection(url); Statement statement = again.createStatement();
             ResultSet rows = statement.executeQuery("select count(*) from shared")) {
            assertTrue(rows.next());
            assertEquals(1, rows.getInt(1));
            again.unwrap(Database.class).close();
        }
        try (Connection privateOne = connect(); Statement statement = privateOne.createStatement()) {
            SQLException missing = assertThrows(SQLException.class, () -> statement.executeQuery("select * from shared"));
            assertEquals("42P01", missing.getSQLState());
        }
    }

    @Test
    void setMaxRowsStopsReadingAfterThatManyRows() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setMaxRows(10);
            statement.setFetchSize(3);
            assertEquals(10, statement.getMaxRows());
            try (ResultSet rows = statement.executeQuery("select * from generate_series(1, 1000000)")) {
                long sum = 0;
                while (rows.next()) {
                    sum += rows.getLong(1);
                    assertEquals(sum == 1 ? 1 : rows.getRow(), rows.getRow());
                }
                assertEquals(55, sum);
                assertEquals(0, rows.getRow());
                assertTrue(rows.isAfterLast());
            }
            SQLException negative = assertThrows(SQLException.class, () -> statement.setMaxRows(-1));
            assertEquals("22023", negative.getSQLState());
        }
    }

    @Test
    void cancelFromAnotherThreadStopsTheRunningQuery() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            AtomicBoolean done = new AtomicBoolean();
            Thread canceller = new Thread(() -> {
                // Cancel repeatedly: the first cancel may come before the query has started.
                while (!done.get()) {
                    try {
                        Thread.sleep(50);
                        statement.cancel();
                    } catch (InterruptedException | SQLException stop) {
                        return;
                    }
                }
            });
            canceller.start();
            SQLException canceled;
            try {
                canceled = assertThrows(SQLException.class, () -> {
                    try (ResultSet rows = statement.executeQuery("select sum(x) from generate_series(1, 2000000000) as g(x)")) {
                        rows.next();
                    }
                });
            } finally {
                done.set(true);
                canceller.join();
            }
            assertEquals("57014", canceled.getSQLState());
            assertEquals("ERROR: canceling statement due to user request", canceled.getMessage());
            try (ResultSet rows = statement.executeQuery("select 1")) {
                assertTrue(rows.next());
            }
        }
    }

    @Test
    void queryTimeoutCancelsWithStatementTimeout() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(1);
            SQLException timedOut = assertThrows(SQLException.class, () -> {
                try (ResultSet rows = statement.executeQuery("select sum(x) from generate_series(1, 2000000000) as g(x)")) {
                    rows.next();
                }
            });
            assertEquals("57014", timedOut.getSQLState());
            assertEquals("ERROR: canceling statement due to statement timeout", timedOut.getMessage());
            // The timeout applied to that statement only, not to the session.
            try (Statement other = connection.createStatement(); ResultSet rows = other.executeQuery("show statement_timeout")) {
                assertTrue(rows.next());
                assertEquals("0", rows.getString(1));
            }
        }
    }

    @Test
    void generatedKeysAreTheChangedRowsWithTheirSerialValues() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertTrue(connection.getMetaData().supportsGetGeneratedKeys());
            statement.execute("create table keyed (id serial primary key, v text)");
            assertEquals(2, statement.executeUpdate("insert into keyed (v) values ('a'), ('b')", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = statement.getGeneratedKeys()) {
                assertEquals("id", keys.getMetaData().getColumnName(1));
                assertTrue(keys.next());
                assertEquals(1, keys.getInt("id"));
                assertEquals("a", keys.getString("v"));
                assertTrue(keys.next());
                assertEquals(2, keys.getInt("id"));
                assertFalse(keys.next());
            }
            try (PreparedStatement insert = connection.prepareStatement("insert into keyed (v) values (?)", Statement.RETURN_GENERATED_KEYS)) {
                insert.setString(1, "c");
                assertEquals(1, insert.executeUpdate());
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    assertTrue(keys.next());
                    assertEquals(3, keys.getLong(1));
                    assertFalse(keys.next());
                }
            }
            // Without the flag, or for a statement that changes nothing, there are no keys.
            assertEquals(1, statement.executeUpdate("insert into keyed (v) values ('d')"));
            try (ResultSet keys = statement.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
            assertEquals(0, statement.executeUpdate("delete from keyed where id < 0", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = statement.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
        }
    }

    @Test
    void closeOnCompletionClosesTheStatementWithItsLastResultSet() throws SQLException {
        try (Connection connection = connect()) {
            Statement statement = connection.createStatement();
            statement.closeOnCompletion();
            ResultSet rows = statement.executeQuery("select 1");
            assertNotNull(rows);
            assertFalse(statement.isClosed());
            rows.close();
            assertTrue(statement.isClosed());
        }
    }
}
