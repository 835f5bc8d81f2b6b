package dev.parallax;

import java.util.Objects;

/**
 * A message a statement raised besides its result, with PostgreSQL's severity: {@code NOTICE}
 * (e.g. "table \"t\" does not exist, skipping"), {@code INFO} (VACUUM VERBOSE's report) or
 * {@code WARNING}. A wire server sends each as a NoticeResponse; the shell prints
 * {@code SEVERITY:  message} and a {@code DETAIL:  } line when there is a detail.
 *
 * @param detail the DETAIL text, or null
 * @param code the SQLSTATE, or null for PostgreSQL's default (01000 for a WARNING, 00000 otherwise)
 */
public record Notice(String severity, String message, String detail, String code) {
    public static final String NOTICE = "NOTICE";
    public static final String INFO = "INFO";
    public static final String WARNING = "WARNING";

    public Notice {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(message, "message");
    }

    public Notice(String severity, String message, String detail) {
        this(severity, message, detail, null);
    }

    /** The SQLSTATE a client receives: {@link #code()}, else PostgreSQL's default (01000 for a WARNING, 00000 otherwise). */
    public String sqlState() {
        return code != null ? code : severity.equals(WARNING) ? "01000" : "00000";
    }

    public static Notice notice(String message) {
        return new Notice(NOTICE, message, null);
    }

    public static Notice info(String message) {
        return new Notice(INFO, message, null);
    }

    public static Notice warning(String message) {
        return new Notice(WARNING, message, null);
    }

    /** A WARNING with its own SQLSTATE, e.g. 25P01 "there is no transaction in progress". */
    public static Notice warning(dev.parallax.engine.error.SqlState state, String message) {
        return new Notice(WARNING, message, null, state.code());
    }
}
