package dev.parallax.jdbc;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;

/**
 * Turns engine errors into SQLExceptions shaped like pgJDBC's: {@link SQLException#getSQLState()} is
 * PostgreSQL's SQLSTATE and the message is what pgJDBC's {@code ServerErrorMessage} prints
 * ({@code ERROR: message}, then indented {@code Detail:}, {@code Hint:} and {@code Position:} lines),
 * so code written against PostgreSQL reads the same text. The JDBC 4 subclass follows the SQLSTATE
 * class, which lets generic code (Spring's translators, for one) classify errors without codes.
 * Also the driver-side errors pgJDBC raises itself, with its wording and states.
 */
final class JdbcErrors {
    /** pgJDBC's PSQLState values for errors the driver raises without the engine. */
    static final String NO_DATA = "02000";
    static final String TOO_MANY_RESULTS = "0100E";
    static final String CONNECTION_DOES_NOT_EXIST = "08003";
    static final String OBJECT_NOT_IN_STATE = "55000";
    static final String INVALID_CURSOR_STATE = "24000";
    static final String INVALID_PARAMETER_VALUE = "22023";
    static final String INVALID_PARAMETER_TYPE = "07006";
    static final String NO_ACTIVE_SQL_TRANSACTION = "25P01";
    static final String IN_FAILED_SQL_TRANSACTION = "25P02";
    static final String NUMERIC_VALUE_OUT_OF_RANGE = "22003";
    static final String INVALID_DATETIME_FORMAT = "22007";
    static final String FEATURE_NOT_SUPPORTED = "0A000";
    static final String WRONG_OBJECT_TYPE = "42809";
    static final String INVALID_SCHEMA_NAME = "3F000";
    static final String INTERNAL_ERROR = "XX000";

    private JdbcErrors() {
    }

    /** The SQLException for an engine error: pgJDBC's message shape, the error's SQLSTATE. */
    static SQLException translate(ParallaxException error) {
        StringBuilder message = new StringBuilder("ERROR: ").append(error.getMessage());
        if (error.detail() != null) {
            message.append("\n  Detail: ").append(error.detail());
        }
        if (error.hint() != null) {
            message.append("\n  Hint: ").append(error.hint());
        }
        if (error.position() > 0) {
            message.append("\n  Position: ").append(error.position());
        }
        return of(message.toString(), error.state().code(), error);
    }

    /**
     * The SQLException for any failure out of the engine: ParallaxException as above; anything
     * else is a bug or an internal state (a closed database), reported as XX000 with its cause.
     */
    static SQLException translate(RuntimeException failure) {
        if (failure instanceof ParallaxException error) {
            return translate(error);
        }
        String text = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        return new SQLException("ERROR: " + text, SqlState.INTERNAL_ERROR.code(), failure);
    }

    /** An exception of the JDBC 4 subclass matching {@code sqlState}'s class. */
    static SQLException of(String message, String sqlState, Throwable cause) {
        String stateClass = sqlState.substring(0, 2);
        return switch (stateClass) {
            case "0A" -> new SQLFeatureNotSupportedException(message, sqlState, cause);
            case "08" -> new SQLNonTransientConnectionException(message, sqlState, cause);
            case "22" -> new SQLDataException(message, sqlState, cause);
            case "23" -> new SQLIntegrityConstraintViolationException(message, sqlState, cause);
            case "40" -> new SQLTransactionRollbackException(message, sqlState, cause);
            case "42" -> new SQLSyntaxErrorException(message, sqlState, cause);
            default -> new SQLException(message, sqlState, cause);
        };
    }

    static SQLException of(String message, String sqlState) {
        return of(message, sqlState, null);
    }

    static SQLFeatureNotSupportedException notSupported(String message) {
        return new SQLFeatureNotSupportedException(message, FEATURE_NOT_SUPPORTED);
    }
}
