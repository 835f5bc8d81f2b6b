package dev.parallax.test.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.Database;
import dev.parallax.cli.server.PgServer;
import dev.parallax.cli.server.ServeCommand;
import dev.parallax.cli.server.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** SCRAM-SHA-256 with a password file's users, and the refusal to serve a non-loopback address without one. */
class AuthenticationTest {
    @Test
    void scramAcceptsTheRightPasswordAndRefusesWrongOnesAndUnknownUsers() throws Exception {
        try (WireServer server = WireServer.start(ServerOptions.loopback(0).withPasswords(Map.of("alice", "s3cret pässword")))) {
            try (Connection connection = connect(server, "alice", "s3cret pässword");
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select 1 + 1")) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
            }
            SQLException wrong = assertThrows(SQLException.class, () -> connect(server, "alice", "guess"));
            assertEquals("28P01", wrong.getSQLState());
            assertEquals("FATAL: password authentication failed for user \"alice\"", wrong.getMessage());
            SQLException unknown = assertThrows(SQLException.class, () -> connect(server, "mallory", "s3cret pässword"));
            assertEquals("28P01", unknown.getSQLState());
            assertEquals("FATAL: password authentication failed for user \"mallory\"", unknown.getMessage());
            server.awaitNoConnections();
            assertEquals(0, server.server.connectionCount());
        }
    }

    @Test
    void aNonLoopbackAddressWithoutPasswordsIsRefused() throws Exception {
        try (Database database = Database.inMemory()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> PgServer.start(database,
                    new ServerOptions("0.0.0.0", 0, Map.of(), false, ServerOptions.DEFAULT_MAX_MESSAGE_SIZE), "test"));
            assertTrue(refused.getMessage().startsWith("refusing to listen on 0.0.0.0 without authentication"), refused.getMessage());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ServeCommand.run("0.0.0.0", 0, null, false, ServerOptions.DEFAULT_MAX_MESSAGE_SIZE, null, "test",
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
                "parallax serve: error: refusing to listen on 0.0.0.0 without authentication"), err.toString(StandardCharsets.UTF_8));
    }

    private static Connection connect(WireServer server, String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return DriverManager.getConnection(server.url(), properties);
    }
}
