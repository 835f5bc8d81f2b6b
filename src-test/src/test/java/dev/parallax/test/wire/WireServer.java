package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.Database;
import dev.parallax.cli.server.PgServer;
import dev.parallax.cli.server.ServerOptions;
import dev.parallax.engine.memory.MemoryTag;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/** A wire server on a free loopback port over a fresh in-memory database, for one test class. */
final class WireServer implements AutoCloseable {
    final Database database;
    final PgServer server;

    private WireServer(Database database, PgServer server) {
        this.database = database;
        this.server = server;
    }

    static WireServer start() throws InterruptedException {
        return start(ServerOptions.loopback(0));
    }

    static WireServer start(ServerOptions options) throws InterruptedException {
        Database database = Database.inMemory();
        try {
            return new WireServer(database, PgServer.start(database, options, "test"));
        } catch (RuntimeException | InterruptedException failure) {
            database.close();
            throw failure;
        }
    }

    String url() {
        return "jdbc:postgresql://127.0.0.1:" + server.port() + "/parallax";
    }

    Connection connect() throws SQLException {
        return connect(Map.of());
    }

    Connection connect(Map<String, String> extra) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", "tester");
        extra.forEach(properties::setProperty);
        return DriverManager.getConnection(url(), properties);
    }

    int port() {
        return server.port();
    }

    /** Bytes held for anything but table pages and indexes (sort buffers, hash tables, work tables, other). */
    long queryMemory() {
        return database.memory().allocatedBytes(MemoryTag.HASH_TABLES) + database.memory().allocatedBytes(MemoryTag.SORT_BUFFERS)
                + database.memory().allocatedBytes(MemoryTag.WORK_TABLES) + database.memory().allocatedBytes(MemoryTag.OTHER);
    }

    /** Waits (bounded) until every connection's statement thread has finished and left the server. */
    void awaitNoConnections() throws InterruptedException {
        for (int attempt = 0; attempt < 200 && server.connectionCount() > 0; attempt++) {
            Thread.sleep(25);
        }
    }

    /**
     * Asserts what every wire test expects after each test: once the connections' statement threads
     * had their bounded time to finish, none is left and no statement is still running.
     */
    void assertEveryConnectionGone() throws InterruptedException {
        awaitNoConnections();
        assertEquals(0, server.connectionCount());
        assertTrue(database.runningStatements().isEmpty(), "statements still running: " + database.runningStatements());
    }

    @Override
    public void close() {
        server.close();
        database.close();
    }
}
