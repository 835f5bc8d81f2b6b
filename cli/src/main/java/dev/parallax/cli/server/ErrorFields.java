package dev.parallax.cli.server;

import dev.parallax.Notice;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import java.util.Objects;

/**
 * The fields of an ErrorResponse or NoticeResponse: severity (S and V), SQLSTATE (C), message (M),
 * and the optional detail (D), hint (H), 1-based character position in the query (P) and context (W).
 */
record ErrorFields(String severity, String code, String message, String detail, String hint, int position, String context) {
    static final String ERROR = "ERROR";
    static final String FATAL = "FATAL";

    ErrorFields {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    static ErrorFields error(String code, String message) {
        return new ErrorFields(ERROR, code, message, null, null, 0, null);
    }

    static ErrorFields fatal(SqlState state, String message) {
        return new ErrorFields(FATAL, state.code(), message, null, null, 0, null);
    }

    static ErrorFields of(ParallaxException failure) {
        return new ErrorFields(ERROR, failure.state().code(), failure.getMessage(), failure.detail(), failure.hint(),
                failure.position(), failure.context());
    }

    /** A notice's fields: its own SQLSTATE, else PostgreSQL's default code ({@link Notice#sqlState()}). */
    static ErrorFields notice(Notice notice) {
        return new ErrorFields(notice.severity(), notice.sqlState(), notice.message(), notice.detail(), null, 0, null);
    }

    ErrorFields withPosition(int newPosition) {
        return new ErrorFields(severity, code, message, detail, hint, newPosition, context);
    }
}
