package dev.parallax.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ResultSet getters and conversions, ResultSetMetaData and DatabaseMetaData, through plain JDBC. */
class JdbcResultSetTest {
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:parallax:mem:", "tester", "");
        statement = connection.createStatement();
        statement.execute("create table every_type (b boolean, s smallint not null, i integer, l bigint, n numeric(7,3), r real,"
                + " d double precision, dt date, ts timestamp, c char(4), v varchar(8), t text, bits bit(4), vb bit varying(8))");
        statement.execute("insert into every_type values (true, 12, 3000000, 5000000000, 1234.5, 1.5, 2.25, date '2024-02-29',"
                + " timestamp '2024-02-29 13:14:15.5', 'ab', 'xyz', ' 42 ', B'1010', B'11')");
        statement.execute("insert into every_type (s) values (-7)");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private ResultSet everyType() throws SQLException {
        ResultSet rows = statement.executeQuery("select * from every_type order by s desc");
        assertTrue(rows.next());
        return rows;
    }

    @Test
    void getStringIsPostgresTextForm() throws SQLException {
        try (ResultSet rows = everyType()) {
            List<String> texts = new ArrayList<>();
            for (int column = 1; column <= 14; column++) {
                texts.add(rows.getString(column));
            }
            assertEquals(List.of("t", "12", "3000000", "5000000000", "1234.500", "1.5", "2.25", "2024-02-29",
                    "2024-02-29 13:14:15.5", "ab  ", "xyz", " 42 ", "1010", "11"), texts);
        }
    }

    @Test
    void getObjectGivesJavaValues() throws SQLException {
        try (ResultSet rows = everyType()) {
            assertEquals(Boolean.TRUE, rows.getObject("b"));
            assertEquals((short) 12, rows.getObject("s"));
            assertEquals(3000000, rows.getObject("i"));
            assertEquals(5000000000L, rows.getObject("l"));
            assertEquals(new BigDecimal("1234.500"), rows.getObject("n"));
            assertEquals(1.5f, rows.getObject("r"));
            assertEquals(2.25, rows.getObject("d"));
            assertEquals(LocalDate.of(2024, 2, 29), rows.getObject("dt"));
            assertEquals(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 500_000_000), rows.getObject("ts"));
            assertEquals("1010", rows.getObject("bits"));
            assertEquals(LocalDate.of(2024, 2, 29), rows.getObject("ts", LocalDate.class));
            assertEquals(new BigDecimal("3000000"), rows.getObject("i", BigDecimal.class));
            assertEquals(1234L, rows.getObject("n", Long.class));
            assertEquals(42, rows.getObject("t", Integer.class));
            assertEquals("12", rows.getObject("s", String.class));
            SQLException unsupported = assertThrows(SQLException.class, () -> rows.getObject("i", java.util.UUID.class));
            assertEquals("07006", unsupported.getSQLState());
        }
    }

    @Test
    void numericGettersConvertAndCheckRanges() throws SQLException {
        try (ResultSet rows = everyType()) {
            assertEquals(1, rows.getInt("b"));
            assertEquals(3000000L, rows.getLong("i"));
            assertEquals(1234, rows.getInt("n"));
            assertEquals(1234.5, rows.getDouble("n"));
            assertEquals(1, rows.getInt("r"));
            assertEquals(42, rows.getInt("t"));
            assertEquals(12, rows.getByte("s"));
            assertEquals(new BigDecimal("2.25"), rows.getBigDecimal("d"));
            assertEquals(new BigDecimal("1234.50"), rows.getBigDecimal("n", 2));
            SQLException tooBig = assertThrows(SQLException.class, () -> rows.getInt("l"));
            assertEquals("22003", tooBig.getSQLState());
            assertEquals("Bad value for type int : 5000000000", tooBig.getMessage());
            assertEquals("22003", assertThrows(SQLException.class, () -> rows.getShort("i")).getSQLState());
            assertEquals("22003", assertThrows(SQLException.class, () -> rows.getByte("i")).getSQLState());
            assertEquals("22003", assertThrows(SQLException.class, () -> rows.getInt("v")).getSQLState());
            assertEquals("22003", assertThrows(SQLException.class, () -> rows.getLong("dt")).getSQLState());
        }
    }

    @Test
    void dateTimeAndBooleanGetters() throws SQLException {
        try (ResultSet rows = everyType()) {
            assertEquals(java.sql.Date.valueOf("2024-02-29"), rows.getDate("dt"));
            assertEquals(java.sql.Timestamp.valueOf("2024-02-29 13:14:15.5"), rows.getTimestamp("ts"));
            assertEquals(java.sql.Timestamp.valueOf("2024-02-29 00:00:00"), rows.getTimestamp("dt"));
            assertEquals(java.sql.Time.valueOf("13:14:15").toLocalTime(), rows.getTime("ts").toLocalTime());
            java.util.Calendar utc = java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC"));
            assertEquals(java.time.Instant.parse("2024-02-29T13:14:15.500Z"), rows.getTimestamp("ts", utc).toInstant());
            assertTrue(rows.getBoolean("b"));
            SQLException notBoolean = assertThrows(SQLException.class, () -> rows.getBoolean("s"));
            assertEquals("Cannot cast to boolean: \"12\"", notBoolean.getMessage());
            assertEquals("22007", assertThrows(SQLException.class, () -> rows.getDate("i")).getSQLState());
        }
    }

    @Test
    void nullsReadAsNullOrZeroWithWasNull() throws SQLException {
        try (ResultSet rows = everyType()) {
            assertTrue(rows.next());
            assertEquals(-7, rows.getShort("s"));
            assertFalse(rows.wasNull());
            assertFalse(rows.getBoolean("b"));
            assertTrue(rows.wasNull());
            assertEquals(0L, rows.getLong("l"));
            assertTrue(rows.wasNull());
            assertEquals(0.0, rows.getDouble("d"));
            assertNull(rows.getString("t"));
            assertNull(rows.getDate("dt"));
            assertNull(rows.getTimestamp("ts"));
            assertNull(rows.getObject("n"));
            assertNull(rows.getObject("i", Integer.class));
            assertTrue(rows.wasNull());
            assertFalse(rows.next());
        }
    }

    @Test
    void cursorStateAndColumnLookup() throws SQLException {
        try (ResultSet rows = statement.executeQuery("select 1 as \"Mixed\", 2 as mixed")) {
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, rows.getType());
            assertEquals(ResultSet.CONCUR_READ_ONLY, rows.getConcurrency());
            assertEquals(ResultSet.FETCH_FORWARD, rows.getFetchDirection());
            assertEquals(statement, rows.getStatement());
            assertTrue(rows.isBeforeFirst());
            assertEquals(0, rows.getRow());
            SQLException notPositioned = assertThrows(SQLException.class, () -> rows.getInt(1));
            assertEquals("24000", notPositioned.getSQLState());
            assertTrue(rows.next());
            assertTrue(rows.isFirst());
            assertEquals(1, rows.getRow());
            assertEquals(1, rows.findColumn("Mixed"));
            assertEquals(2, rows.findColumn("mixed"));
            assertEquals(1, rows.findColumn("MIXED"));
            assertEquals("42703", assertThrows(SQLException.class, () -> rows.findColumn("nope")).getSQLState());
            SQLException outOfRange = assertThrows(SQLException.class, () -> rows.getInt(3));
            assertEquals("The column index is out of range: 3, number of columns: 2.", outOfRange.getMessage());
            assertThrows(SQLFeatureNotSupportedException.class, () -> rows.updateInt(1, 5));
            assertEquals("24000", assertThrows(SQLException.class, rows::previous).getSQLState());
            assertFalse(rows.next());
            assertTrue(rows.isAfterLast());
        }
        try (ResultSet empty = statement.executeQuery("select s from every_type where s > 100")) {
            assertFalse(empty.isBeforeFirst());
            assertFalse(empty.next());
            empty.close();
            assertEquals("This ResultSet is closed.", assertThrows(SQLException.class, empty::next).getMessage());
        }
    }

    @Test
    void resultsStreamInBatchesAcrossManyRows() throws SQLException {
        try (ResultSet rows = statement.executeQuery("select x, x * 2 from generate_series(1, 100000) as g(x) where x % 3 = 0")) {
            long count = 0;
            long sum = 0;
            while (rows.next()) {
                count++;
                sum += rows.getLong(2);
                assertEquals(rows.getLong(1) * 2, rows.getLong(2));
            }
            assertEquals(33333, count);
            assertEquals(2L * 3 * (33333L * 33334 / 2), sum);
        }
    }

    @Test
    void resultSetMetaDataFollowsPgJdbc() throws SQLException {
        try (ResultSet rows = everyType()) {
            ResultSetMetaData metaData = rows.getMetaData();
            assertEquals(14, metaData.getColumnCount());
            List<Integer> types = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int column = 1; column <= 14; column++) {
                types.add(metaData.getColumnType(column));
                names.add(metaData.getColumnTypeName(column));
            }
            assertEquals(List.of(Types.BIT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.NUMERIC, Types.REAL, Types.DOUBLE,
                    Types.DATE, Types.TIMESTAMP, Types.CHAR, Types.VARCHAR, Types.VARCHAR, Types.BIT, Types.OTHER), types);
            assertEquals(List.of("bool", "int2", "int4", "int8", "numeric", "float4", "float8", "date", "timestamp", "bpchar",
                    "varchar", "text", "bit", "varbit"), names);
            assertEquals("b", metaData.getColumnName(1));
            assertEquals("ts", metaData.getColumnLabel(9));
            assertEquals(7, metaData.getPrecision(5));
            assertEquals(3, metaData.getScale(5));
            assertEquals(8, metaData.getPrecision(11));
            assertEquals(ResultSetMetaData.columnNullableUnknown, metaData.isNullable(1));
            assertEquals("java.math.BigDecimal", metaData.getColumnClassName(5));
            assertEquals(rows.getObject(9).getClass().getName(), metaData.getColumnClassName(9));
            assertTrue(metaData.isSigned(3));
            assertFalse(metaData.isSigned(12));
        }
    }

    /** The connection's temporary tables, in its pg_temp_N schema with pgJDBC's type, also one hiding a permanent table. */
    @Test
    void databaseMetaDataListsTheConnectionsTemporaryTables() throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        statement.execute("create table shadowed (id int)");
        statement.execute("create temp table shadowed (id int, note text)");
        statement.execute("create temp table scratch (n bigint)");
        List<String> tables = new ArrayList<>();
        try (ResultSet rows = metaData.getTables(null, null, "s%", null)) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_SCHEM").replaceFirst("^pg_temp_[0-9]+$", "pg_temp_N") + "."
                        + rows.getString("TABLE_NAME") + ":" + rows.getString("TABLE_TYPE"));
            }
        }
        assertEquals(List.of("public.shadowed:TABLE", "pg_temp_N.scratch:TEMPORARY TABLE", "pg_temp_N.shadowed:TEMPORARY TABLE"), tables);
        List<String> columns = new ArrayList<>();
        try (ResultSet rows = metaData.getColumns(null, "pg_temp%", "shadowed", null)) {
            while (rows.next()) {
                columns.add(rows.getString("COLUMN_NAME"));
            }
        }
        assertEquals(List.of("id", "note"), columns);
        try (ResultSet rows = metaData.getTables(null, "public", "scratch", null)) {
            assertFalse(rows.next());
        }
    }

    @Test
    void databaseMetaDataDescribesTheEngineAndCatalog() throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        assertEquals("Parallax", metaData.getDatabaseProductName());
        assertEquals(ParallaxDriver.VERSION, metaData.getDatabaseProductVersion());
        assertEquals("Parallax JDBC Driver", metaData.getDriverName());
        assertEquals("jdbc:parallax:mem:", metaData.getURL());
        assertEquals("tester", metaData.getUserName());
        assertEquals("\"", metaData.getIdentifierQuoteString());
        assertFalse(metaData.supportsTransactions());
        assertTrue(metaData.storesLowerCaseIdentifiers());
        statement.execute("create table other_table (id bigint not null, label varchar(20))");

        List<String> tables = new ArrayList<>();
        try (ResultSet rows = metaData.getTables(null, "public", "%", new String[] {"TABLE"})) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_SCHEM") + "." + rows.getString("TABLE_NAME") + ":" + rows.getString("TABLE_TYPE"));
                assertNull(rows.getString("TABLE_CAT"));
            }
        }
        assertEquals(List.of("public.every_type:TABLE", "public.other_table:TABLE"), tables);
        try (ResultSet rows = metaData.getTables(null, null, "other\\_%", null)) {
            assertTrue(rows.next());
            assertEquals("other_table", rows.getString(3));
            assertFalse(rows.next());
        }
        try (ResultSet rows = metaData.getTables(null, "elsewhere", null, null)) {
            assertFalse(rows.next());
        }
        try (ResultSet rows = metaData.getTables(null, null, null, new String[] {"VIEW"})) {
            assertFalse(rows.next());
        }
        statement.execute("create view other_view as select id, label || 'x' as tagged, id * 2 as doubled from other_table");
        try (ResultSet rows = metaData.getTables(null, null, "other%", null)) {
            assertTrue(rows.next());
            assertEquals("other_table:TABLE", rows.getString("TABLE_NAME") + ":" + rows.getString("TABLE_TYPE"));
            assertTrue(rows.next());
            assertEquals("other_view:VIEW", rows.getString("TABLE_NAME") + ":" + rows.getString("TABLE_TYPE"));
            assertFalse(rows.next());
        }
        List<String> viewColumns = new ArrayList<>();
        try (ResultSet rows = metaData.getColumns(null, "public", "other_view", null)) {
            while (rows.next()) {
                viewColumns.add(rows.getInt("ORDINAL_POSITION") + " " + rows.getString("COLUMN_NAME") + " " + rows.getString("TYPE_NAME")
                        + " " + rows.getString("IS_NULLABLE"));
            }
        }
        // A view's columns are nullable, as PostgreSQL lists them, whatever their table's are.
        assertEquals(List.of("1 id int8 YES", "2 tagged text YES", "3 doubled int8 YES"), viewColumns);

        List<String> columns = new ArrayList<>();
        try (ResultSet rows = metaData.getColumns(null, null, "every_type", "%")) {
            while (rows.next()) {
                columns.add(rows.getInt("ORDINAL_POSITION") + " " + rows.getString("COLUMN_NAME") + " " + rows.getInt("DATA_TYPE") + " "
                        + rows.getString("TYPE_NAME") + " " + rows.getInt("COLUMN_SIZE") + " " + rows.getObject("DECIMAL_DIGITS") + " "
                        + rows.getInt("NULLABLE") + " " + rows.getString("IS_NULLABLE"));
            }
        }
        assertEquals(List.of(
                "1 b -7 bool 1 0 1 YES",
                "2 s 5 int2 5 0 0 NO",
                "3 i 4 int4 10 0 1 YES",
                "4 l -5 int8 19 0 1 YES",
                "5 n 2 numeric 7 3 1 YES",
                "6 r 7 float4 8 0 1 YES",
                "7 d 8 float8 17 0 1 YES",
                "8 dt 91 date 13 0 1 YES",
                "9 ts 93 timestamp 29 6 1 YES",
                "10 c 1 bpchar 4 null 1 YES",
                "11 v 12 varchar 8 null 1 YES",
                "12 t 12 text 2147483647 null 1 YES",
                "13 bits -7 bit 4 null 1 YES",
                "14 vb 1111 varbit 8 null 1 YES"), columns);
        try (ResultSet rows = metaData.getColumns(null, null, "other_table", "id")) {
            assertTrue(rows.next());
            assertEquals("other_table", rows.getString("TABLE_NAME"));
            assertEquals(DatabaseMetaData.columnNoNulls, rows.getInt("NULLABLE"));
            assertEquals(Types.INTEGER, rows.getMetaData().getColumnType(rows.findColumn("DATA_TYPE")));
            assertNull(rows.getStatement());
            assertFalse(rows.next());
        }

        try (ResultSet rows = metaData.getSchemas()) {
            assertTrue(rows.next());
            assertEquals("public", rows.getString("TABLE_SCHEM"));
            assertFalse(rows.next());
        }
        try (ResultSet rows = metaData.getTableTypes()) {
            assertTrue(rows.next());
            assertEquals("TABLE", rows.getString(1));
            assertTrue(rows.next());
            assertEquals("TEMPORARY TABLE", rows.getString(1));
            assertTrue(rows.next());
            assertEquals("VIEW", rows.getString(1));
            assertFalse(rows.next());
        }
        try (ResultSet rows = metaData.getPrimaryKeys(null, null, "other_table")) {
            assertEquals(6, rows.getMetaData().getColumnCount());
            assertEquals("KEY_SEQ", rows.getMetaData().getColumnName(5));
            assertFalse(rows.next());
        }
        List<String> typeNames = new ArrayList<>();
        try (ResultSet rows = metaData.getTypeInfo()) {
            int previous = Integer.MIN_VALUE;
            while (rows.next()) {
                assertTrue(rows.getInt("DATA_TYPE") >= previous);
                previous = rows.getInt("DATA_TYPE");
                typeNames.add(rows.getString("TYPE_NAME"));
            }
        }
        assertEquals(16, typeNames.size());
        assertTrue(typeNames.containsAll(List.of("bool", "int4", "numeric", "text", "timestamp", "varbit", "uuid")), typeNames.toString());
    }
}
