package dev.parallax.cli.server;

/**
 * An error of the protocol layer itself that ends the current statement (not the connection):
 * unknown prepared statement or portal, duplicate names, bad Bind counts. Carries its SQLSTATE.
 */
final class ServerError extends RuntimeException {
    private final String code;

    ServerError(String code, String message) {
        super(message);
        this.code = code;
    }

    String code() {
        return code;
    }
}
