package dev.parallax.cli.server;

import java.util.Map;
import java.util.Objects;

/**
 * How the wire server listens and whom it lets in.
 *
 * @param host address to bind (a loopback address unless passwords are configured or {@code insecureNoAuth})
 * @param port TCP port; 0 picks a free one ({@link PgServer#port()} tells which)
 * @param passwords user name to password; empty means trust authentication
 * @param insecureNoAuth allow binding a non-loopback address without passwords
 * @param maxMessageSize the longest message (length word included) a client may send; longer ones close the connection with 54000
 */
public record ServerOptions(String host, int port, Map<String, String> passwords, boolean insecureNoAuth, int maxMessageSize) {
    public static final int DEFAULT_PORT = 5433;
    /** PostgreSQL refuses messages over 1 GB; a smaller default bounds what one client can make us hold. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

    public ServerOptions {
        Objects.requireNonNull(host, "host");
        passwords = Map.copyOf(passwords);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
        }
        if (maxMessageSize < 1024) {
            throw new IllegalArgumentException("max message size must be at least 1024 bytes: " + maxMessageSize);
        }
    }

    /** Loopback, trust authentication, the default limits. */
    public static ServerOptions loopback(int port) {
        return new ServerOptions("127.0.0.1", port, Map.of(), false, DEFAULT_MAX_MESSAGE_SIZE);
    }

    public ServerOptions withPasswords(Map<String, String> newPasswords) {
        return new ServerOptions(host, port, newPasswords, insecureNoAuth, maxMessageSize);
    }

    public ServerOptions withMaxMessageSize(int newMaxMessageSize) {
        return new ServerOptions(host, port, passwords, insecureNoAuth, newMaxMessageSize);
    }
}
