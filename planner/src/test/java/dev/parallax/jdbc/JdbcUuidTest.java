package dev.parallax.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** uuid through jdbc:parallax:mem:: getObject as java.util.UUID, getString, setObject(UUID), setString, metadata. */
class JdbcUuidTest {
    private static final UUID FIRST = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    private static final UUID SECOND = UUID.fromString("ffffffff-0000-4000-8000-000000000002");

    private static Connection connectWithTable() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:parallax:mem:");
        try (Statement statement = connection.createStatement()) {
            statement.execute("create table keyed (id uuid primary key, v int) partition by hash (id) partitions 4");
        }
        return connection;
    }

    @Test
    void setObjectOfAUuidStoresItAndGetObjectReturnsOne() throws SQLException {
        try (Connection connection = connectWithTable();
             PreparedStatement insert = connection.prepareStatement("insert into keyed values (?, ?)");
             PreparedStatement select = connection.prepareStatement("select id, v from keyed where id = ?")) {
            insert.setObject(1, FIRST);
            insert.setInt(2, 1);
            insert.executeUpdate();
            insert.setString(1, "{FFFFFFFF-0000-4000-8000-000000000002}");
            insert.setInt(2, 2);
            insert.executeUpdate();

            select.setObject(1, SECOND);
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(SECOND, rows.getObject(1));
                assertInstanceOf(UUID.class, rows.getObject(1));
                assertEquals(SECOND, rows.getObject(1, UUID.class));
                assertEquals("ffffffff-0000-4000-8000-000000000002", rows.getString(1));
                assertEquals(2, rows.getInt(2));
                assertEquals(Types.OTHER, rows.getMetaData().getColumnType(1));
                assertEquals("uuid", rows.getMetaData().getColumnTypeName(1));
                assertEquals("java.util.UUID", rows.getMetaData().getColumnClassName(1));
                assertFalse(rows.next());
            }
            select.setString(1, FIRST.toString().toUpperCase());
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(FIRST, rows.getObject(1));
                assertEquals(1, rows.getInt(2));
            }
        }
    }

    @Test
    void nullAndMalformedUuids() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:parallax:mem:");
             Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("select null::uuid")) {
                assertTrue(rows.next());
                assertNull(rows.getObject(1));
                assertNull(rows.getString(1));
            }
            // Raised when the row is computed: by executeQuery or by the first next().
            SQLException malformed = assertThrows(SQLException.class, () -> {
                try (ResultSet rows = statement.executeQuery("select 'xyz'::uuid")) {
                    rows.next();
                }
            });
            assertEquals("22P02", malformed.getSQLState());
            assertEquals("ERROR: invalid input syntax for type uuid: \"xyz\"", malformed.getMessage());
        }
    }
}
