package dev.parallax.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Arrays through jdbc:parallax:mem:: createArrayOf, setArray and setObject of Java arrays, getArray. */
class JdbcArrayTest {

    private static Connection connectWithTable() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:parallax:mem:");
        try (Statement statement = connection.createStatement()) {
            statement.execute("create table items (id bigint primary key, name text, tags text[], scores int[])");
            statement.execute("insert into items values (1, 'one', '{a,b}', '{10,20}'), (2, 'two', '{}', NULL),"
                    + " (3, 'three', ARRAY['c', NULL], '{30,NULL,40}'), (4, 'four', NULL, '{}')");
        }
        return connection;
    }

    private static List<String> names(PreparedStatement select) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    @Test
    void anyOfABoundArrayParameterTakesCreatedArraysAndJavaArrays() throws SQLException {
        try (Connection connection = connectWithTable();
             PreparedStatement select = connection.prepareStatement("select name from items where id = any(?) order by id")) {
            assertEquals(Types.ARRAY, select.getParameterMetaData().getParameterType(1));
            assertEquals("_int8", select.getParameterMetaData().getParameterTypeName(1));
            select.setArray(1, connection.createArrayOf("int", new Integer[] {3, 1, 99}));
            assertEquals(List.of("one", "three"), names(select));
            select.setObject(1, new int[] {2, 4});
            assertEquals(List.of("two", "four"), names(select));
            select.setObject(1, new Long[] {4L, null});
            assertEquals(List.of("four"), names(select));
            select.setObject(1, new long[0]);
            assertEquals(List.of(), names(select));
            select.setNull(1, Types.ARRAY);
            assertEquals(List.of(), names(select));
            select.setString(1, "{1,2}");
            assertEquals(List.of("one", "two"), names(select));
        }
    }

    @Test
    void allAndTheParameterOnTheLeftSide() throws SQLException {
        try (Connection connection = connectWithTable();
             PreparedStatement notIn = connection.prepareStatement("select name from items where id <> all(?) order by id");
             PreparedStatement tagged = connection.prepareStatement("select name from items where ? = any(tags) order by id")) {
            notIn.setArray(1, connection.createArrayOf("bigint", new Object[] {1, 2}));
            assertEquals(List.of("three", "four"), names(notIn));
            assertEquals("text", tagged.getParameterMetaData().getParameterTypeName(1));
            tagged.setString(1, "c");
            assertEquals(List.of("three"), names(tagged));
        }
    }

    @Test
    void arraysBindIntoArrayColumns() throws SQLException {
        try (Connection connection = connectWithTable();
             PreparedStatement insert = connection.prepareStatement("insert into items values (?, ?, ?, ?)");
             Statement statement = connection.createStatement()) {
            insert.setLong(1, 5);
            insert.setString(2, "five");
            insert.setArray(3, connection.createArrayOf("varchar", new String[] {"x y", null, "NULL"}));
            insert.setObject(4, new int[] {7, 8});
            assertEquals(1, insert.executeUpdate());
            try (ResultSet rows = statement.executeQuery("select tags, scores, scores[2] from items where id = 5")) {
                assertTrue(rows.next());
                assertEquals("{\"x y\",NULL,\"NULL\"}", rows.getString(1));
                assertEquals("{7,8}", rows.getString(2));
                assertEquals(8, rows.getInt(3));
            }
        }
    }

    @Test
    void getArrayGivesTypedElementsAndARowPerElement() throws SQLException {
        try (Connection connection = connectWithTable(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select tags, scores, '[0:1]={1.5,2.25}'::numeric(4,2)[], '{2024-02-29}'::date[]"
                     + " from items where id = 3")) {
            assertTrue(rows.next());
            assertEquals("java.sql.Array", rows.getMetaData().getColumnClassName(1));
            Array tags = rows.getArray(1);
            assertEquals("text", tags.getBaseTypeName());
            assertEquals(Types.VARCHAR, tags.getBaseType());
            assertArrayEquals(new String[] {"c", null}, (String[]) tags.getArray());
            assertEquals("{c,NULL}", tags.toString());
            Array scores = (Array) rows.getObject(2);
            assertArrayEquals(new Integer[] {30, null, 40}, (Integer[]) scores.getArray());
            assertArrayEquals(new Integer[] {null, 40}, (Integer[]) scores.getArray(2, 5));
            try (ResultSet elements = scores.getResultSet()) {
                List<String> seen = new ArrayList<>();
                while (elements.next()) {
                    seen.add(elements.getInt("INDEX") + "=" + elements.getObject("VALUE"));
                }
                assertEquals(List.of("1=30", "2=null", "3=40"), seen);
            }
            Array decimals = rows.getObject(3, Array.class);
            assertArrayEquals(new BigDecimal[] {new BigDecimal("1.50"), new BigDecimal("2.25")}, (BigDecimal[]) decimals.getArray());
            try (ResultSet elements = decimals.getResultSet(2, 1)) {
                assertTrue(elements.next());
                assertEquals(1, elements.getInt(1));
                assertEquals(new BigDecimal("2.25"), elements.getBigDecimal(2));
                assertFalse(elements.next());
            }
            assertArrayEquals(new LocalDate[] {LocalDate.of(2024, 2, 29)}, (LocalDate[]) rows.getArray(4).getArray());
            SQLException badIndex = assertThrows(SQLException.class, () -> rows.getArray(1).getArray(0, 1));
            assertEquals("22023", badIndex.getSQLState());
        }
        try (Connection connection = connectWithTable(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("select scores, name from items where id = 2")) {
            assertTrue(rows.next());
            assertNull(rows.getArray(1));
            assertTrue(rows.wasNull());
            SQLException notAnArray = assertThrows(SQLException.class, () -> rows.getArray(2));
            assertEquals("07006", notAnArray.getSQLState());
        }
    }

    @Test
    void createArrayOfConvertsItsElementsOrFailsAsPostgresWould() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:parallax:mem:")) {
            Array numbers = connection.createArrayOf("int4", new Object[] {"5", 6L, null});
            assertArrayEquals(new Integer[] {5, 6, null}, (Integer[]) numbers.getArray());
            assertEquals("{5,6,NULL}", numbers.toString());
            assertEquals("22P02", assertThrows(SQLException.class,
                    () -> connection.createArrayOf("integer", new Object[] {"x"})).getSQLState());
            assertEquals("22003", assertThrows(SQLException.class,
                    () -> connection.createArrayOf("smallint", new Object[] {40000})).getSQLState());
            assertEquals("42704", assertThrows(SQLException.class,
                    () -> connection.createArrayOf("nosuchtype", new Object[] {1})).getSQLState());
            assertEquals("0A000", assertThrows(SQLException.class,
                    () -> connection.createArrayOf("int", new Object[] {new int[] {1}, new int[] {2}})).getSQLState());
            numbers.free();
            assertEquals("55000", assertThrows(SQLException.class, numbers::getArray).getSQLState());
            assertInstanceOf(String[].class, connection.createArrayOf("text", new Object[0]).getArray());
            assertEquals("[]", Arrays.toString((Object[]) connection.createArrayOf("text", new Object[0]).getArray()));
        }
    }
}
