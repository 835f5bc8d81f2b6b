package dev.parallax.cli.server;

import dev.parallax.engine.error.SqlState;

/**
 * A client broke the protocol (bad length, unknown message, truncated field): the connection is
 * answered with a FATAL error carrying {@code state} and closed.
 */
final class ProtocolException extends RuntimeException {
    private final SqlState state;

    ProtocolException(SqlState state, String message) {
        super(message);
        this.state = state;
    }

    ProtocolException(String message) {
        this(SqlState.PROTOCOL_VIOLATION, message);
    }

    SqlState state() {
        return state;
    }
}
