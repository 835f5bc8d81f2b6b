package dev.parallax.engine.load;

import java.util.Objects;

/**
 * The options of a COPY with PostgreSQL's defaults filled in: text format uses tab and {@code \N};
 * csv uses comma, the empty unquoted string as NULL, and {@code "} as quote and escape.
 */
public record CopyFormat(Kind kind, char delimiter, boolean header, String nullString, char quote, char escape) {
    public enum Kind { TEXT, CSV }

    public CopyFormat {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(nullString, "nullString");
    }

    public static CopyFormat text() {
        return new CopyFormat(Kind.TEXT, '\t', false, "\\N", '"', '"');
    }

    public static CopyFormat csv() {
        return new CopyFormat(Kind.CSV, ',', false, "", '"', '"');
    }

    public CopyFormat withDelimiter(char newDelimiter) {
        return new CopyFormat(kind, newDelimiter, header, nullString, quote, escape);
    }

    public CopyFormat withHeader(boolean newHeader) {
        return new CopyFormat(kind, delimiter, newHeader, nullString, quote, escape);
    }

    public CopyFormat withNullString(String newNullString) {
        return new CopyFormat(kind, delimiter, header, newNullString, quote, escape);
    }

    public CopyFormat withQuote(char newQuote) {
        return new CopyFormat(kind, delimiter, header, nullString, newQuote, escape);
    }

    public CopyFormat withEscape(char newEscape) {
        return new CopyFormat(kind, delimiter, header, nullString, quote, newEscape);
    }
}
