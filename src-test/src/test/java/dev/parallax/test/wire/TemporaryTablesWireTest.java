package dev.parallax.test.wire;

import dev.parallax.engine.memory.MemoryTag;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Temporary tables over the wire: each connection is a session with its own (pgJDBC, PostgreSQL
 * 15's rows and errors), and a connection's end drops them and frees their memory, also when the
 * client goes away without a Terminate message.
 */
class TemporaryTablesWireTest {
    private static WireServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = WireServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void connectionsGone() throws InterruptedException {
        server.assertEveryConnectionGone();
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertTrue(rows.next());
            return rows.getLong(1);
        }
    }

    @Test
    void twoConnectionsHaveTablesOfOneNameEach() throws SQLException {
        try (Connection first = server.connect(); Connection second = server.connect();
             Statement one = first.createStatement(); Statement two = second.createStatement()) {
            one.execute("create temp table wire_t (id int primary key, v text)");
            SQLException missing = assertThrows(SQLException.class, () -> two.executeQuery("select * from wire_t"));
            assertEquals("42P01", missing.getSQLState());
            two.execute("create temp table wire_t (id int primary key, n bigint)");
            one.execute("insert into wire_t values (1, 'a'), (2, 'b')");
            try (PreparedStatement insert = second.prepareStatement("insert into wire_t values (?, ?)")) {
                insert.setInt(1, 7);
                insert.setLong(2, 70);
                assertEquals(1, insert.executeUpdate());
            }
            assertEquals(2, count(first, "select count(*) from wire_t"));
            assertEquals(70, count(second, "select n from wire_t where id = 7"));
            // The catalogs of each show its own: the table, in a pg_temp schema.
            assertEquals(1, count(first, "select count(*) from information_schema.tables "
                    + "where table_name = 'wire_t' and table_type = 'LOCAL TEMPORARY' and table_schema like 'pg_temp%'"));
            assertEquals(1, count(second, "select count(*) from pg_class where relname = 'wire_t' and relpersistence = 't'"));
        }
    }

    @Test
    void aConnectionsEndDropsItsTablesEvenWhenTheClientJustGoesAway() throws Exception {
        server.awaitNoConnections();
        long pages = server.database.memory().allocatedBytes(MemoryTag.PAGES);
        long indexes = server.database.memory().allocatedBytes(MemoryTag.INDEXES);
        try (RawClient client = RawClient.connected(server.port())) {
            client.query("create temp table wire_gone (id int primary key, v text)");
            client.readUntilReady();
            client.query("insert into wire_gone select g, md5(g::text) from generate_series(1, 20000) g");
            client.readUntilReady();
            assertTrue(server.database.memory().allocatedBytes(MemoryTag.PAGES) > pages);
            // Closing the socket sends no Terminate: the server finds the connection gone.
        }
        server.awaitNoConnections();
        assertEquals(pages, server.database.memory().allocatedBytes(MemoryTag.PAGES));
        assertEquals(indexes, server.database.memory().allocatedBytes(MemoryTag.INDEXES));
        assertNull(server.database.catalog().findTable("wire_gone"));
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            assertEquals(0, count(connection, "select count(*) from pg_class where relname = 'wire_gone'"));
            assertFalse(statement.execute("create temp table wire_gone (id int primary key)"));
        }
    }
}
