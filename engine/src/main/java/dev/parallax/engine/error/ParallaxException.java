package dev.parallax.engine.error;

import java.util.Objects;

/**
 * Every failure a user can cause reaches them as this exception: a message in PostgreSQL's words,
 * a SQLSTATE, and optionally a DETAIL, a HINT, (for syntax errors) a 1-based character position
 * in the statement text, and a CONTEXT saying where the work was when it failed (COPY's line).
 */
public class ParallaxException extends RuntimeException {
    private final SqlState state;
    private final String detail;
    private final String hint;
    private final int position;
    private final String context;

    public ParallaxException(SqlState state, String message) {
        this(state, message, null, null, 0, null);
    }

    public ParallaxException(SqlState state, String message, Throwable cause) {
        this(state, message, null, null, 0, cause);
    }

    public ParallaxException(SqlState state, String message, String detail, String hint, int position, Throwable cause) {
        this(state, message, detail, hint, position, null, cause);
    }

    private ParallaxException(SqlState state, String message, String detail, String hint, int position, String context,
                              Throwable cause) {
        super(message, cause);
        this.state = Objects.requireNonNull(state, "state");
        this.detail = detail;
        this.hint = hint;
        this.position = position;
        this.context = context;
    }

    public static ParallaxException of(SqlState state, String format, Object... arguments) {
        return new ParallaxException(state, String.format(format, arguments));
    }

    public SqlState state() {
        return state;
    }

    /** PostgreSQL's DETAIL line, or null. */
    public String detail() {
        return detail;
    }

    /** PostgreSQL's HINT line, or null. */
    public String hint() {
        return hint;
    }

    /** 1-based character position in the statement the error points at, or 0 when none. */
    public int position() {
        return position;
    }

    /** PostgreSQL's CONTEXT line ({@code COPY t, line 3, column x: "abc"}), or null. */
    public String context() {
        return context;
    }

    public ParallaxException withDetail(String newDetail) {
        return new ParallaxException(state, getMessage(), newDetail, hint, position, context, getCause());
    }

    public ParallaxException withHint(String newHint) {
        return new ParallaxException(state, getMessage(), detail, newHint, position, context, getCause());
    }

    public ParallaxException withPosition(int newPosition) {
        return new ParallaxException(state, getMessage(), detail, hint, newPosition, context, getCause());
    }

    public ParallaxException withContext(String newContext) {
        return new ParallaxException(state, getMessage(), detail, hint, position, newContext, getCause());
    }
}
