package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * timestamp with time zone through pgJDBC: OID 1184 in the row description, the text form in the
 * session's TimeZone, the binary form (UTC microseconds since 2000-01-01), getTimestamp and
 * getObject(OffsetDateTime) giving the instant, parameters with offsets, and the TimeZone
 * ParameterStatus the server sends at startup and after SET TIME ZONE (as PostgreSQL 15 does).
 */
class TimestampWithTimeZoneWireTest {
    private static final Instant NOON_UTC = Instant.parse("2024-06-01T12:00:00Z");
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
    void textResultsPrintInTheSessionZoneAndReadAsTheInstant() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("set time zone 'Asia/Kolkata'");
            try (ResultSet rows = statement.executeQuery("select timestamptz '2024-06-01 12:00:00.25+00' as t, pg_typeof(now())::text")) {
                assertTrue(rows.next());
                assertEquals("timestamptz", rows.getMetaData().getColumnTypeName(1));
                assertEquals(Types.TIMESTAMP, rows.getMetaData().getColumnType(1));
                assertEquals("2024-06-01 17:30:00.25+05:30", rows.getString(1));
                assertEquals(Timestamp.from(NOON_UTC.plusMillis(250)), rows.getTimestamp(1));
                assertEquals(OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 250_000_000, ZoneOffset.UTC), rows.getObject(1, OffsetDateTime.class));
                assertEquals("timestamp with time zone", rows.getString(2));
            }
        }
    }

    @Test
    void binaryResultsCarryTheInstant() throws SQLException {
        try (Connection connection = server.connect(Map.of("prepareThreshold", "-1", "binaryTransfer", "true"));
             PreparedStatement prepared = connection.prepareStatement("select timestamptz '2024-06-01 14:00:00+02', ?::timestamptz")) {
            connection.createStatement().execute("set timezone = 'America/New_York'");
            prepared.setObject(1, OffsetDateTime.of(2024, 1, 15, 8, 30, 0, 0, ZoneOffset.ofHours(-5)));
            try (ResultSet rows = prepared.executeQuery()) {
                assertTrue(rows.next());
                assertEquals(Timestamp.from(NOON_UTC), rows.getTimestamp(1));
                assertEquals(OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.UTC), rows.getObject(1, OffsetDateTime.class));
                assertEquals(OffsetDateTime.of(2024, 1, 15, 13, 30, 0, 0, ZoneOffset.UTC), rows.getObject(2, OffsetDateTime.class));
            }
        }
    }

    @Test
    void parametersAndColumnsKeepTheInstant() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("create table wire_events (id int primary key, happened timestamptz not null)");
            try (PreparedStatement insert = connection.prepareStatement("insert into wire_events values (?, ?)")) {
                insert.setInt(1, 1);
                insert.setObject(2, OffsetDateTime.of(2024, 6, 1, 14, 0, 0, 0, ZoneOffset.ofHours(2)));
                insert.executeUpdate();
                insert.setInt(1, 2);
                insert.setTimestamp(2, Timestamp.from(NOON_UTC.plusSeconds(3600)));
                insert.executeUpdate();
            }
            statement.execute("set timezone = 'Europe/Paris'");
            try (PreparedStatement select = connection.prepareStatement("select id, happened, happened::text from wire_events where happened >= ? order by id")) {
                select.setObject(1, OffsetDateTime.of(2024, 6, 1, 12, 0, 0, 0, ZoneOffset.UTC));
                try (ResultSet rows = select.executeQuery()) {
                    assertTrue(rows.next());
                    assertEquals(1, rows.getInt(1));
                    assertEquals(Timestamp.from(NOON_UTC), rows.getTimestamp(2));
                    assertEquals("2024-06-01 14:00:00+02", rows.getString(3));
                    assertTrue(rows.next());
                    assertEquals(2, rows.getInt(1));
                    assertEquals(Timestamp.from(NOON_UTC.plusSeconds(3600)), rows.getTimestamp(2));
                    assertEquals("2024-06-01 15:00:00+02", rows.getString(3));
                    assertFalse(rows.next());
                }
            }
            statement.execute("drop table wire_events");
        }
    }

    @Test
    void theServerReportsTimeZoneAtStartupAndAfterSet() throws SQLException {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            PGConnection postgres = connection.unwrap(PGConnection.class);
            // pgJDBC sends the JVM's zone in its startup packet; the session takes it, as PostgreSQL does.
            try (ResultSet rows = statement.executeQuery("show timezone")) {
                assertTrue(rows.next());
                assertEquals(rows.getString(1), postgres.getParameterStatus("TimeZone"));
            }
            statement.execute("set time zone 'america/sao_paulo'");
            assertEquals("America/Sao_Paulo", postgres.getParameterStatus("TimeZone"));
            statement.execute("set timezone = 'UTC'");
            assertEquals("UTC", postgres.getParameterStatus("TimeZone"));
        }
    }
}
