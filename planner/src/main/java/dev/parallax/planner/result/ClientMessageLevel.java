package dev.parallax.planner.result;

import dev.parallax.Notice;

import java.util.Locale;

/**
 * PostgreSQL's client_min_messages: the lowest severity of the messages a client is sent, in
 * its client order (LOG ranks below NOTICE here, unlike in the server log). An INFO is sent
 * whatever the level, and an ERROR always reaches the client as the statement's failure.
 */
public enum ClientMessageLevel {
    DEBUG5, DEBUG4, DEBUG3, DEBUG2, DEBUG1, LOG, NOTICE, WARNING, ERROR;

    /** The name of the setting. */
    public static final String SETTING = "client_min_messages";

    /** The level of a setting value as SHOW prints it ({@code notice}, {@code warning}...). */
    public static ClientMessageLevel of(String settingValue) {
        return valueOf(settingValue.toUpperCase(Locale.ROOT));
    }

    /** Whether a client at this level is sent {@code message}. */
    public boolean sends(Notice message) {
        return switch (message.severity()) {
            case Notice.INFO -> true;
            case Notice.WARNING -> compareTo(WARNING) <= 0;
            default -> compareTo(NOTICE) <= 0;
        };
    }
}
