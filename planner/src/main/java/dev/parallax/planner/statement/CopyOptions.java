package dev.parallax.planner.statement;

/**
 * The options of a COPY, with PostgreSQL's defaults filled in: text format uses tab and {@code \N},
 * csv uses comma, the empty unquoted string as NULL, and {@code "} as quote and escape.
 */
public record CopyOptions(Format format, char delimiter, boolean header, String nullString, char quote, char escape) {
    public enum Format { TEXT, CSV }

    public static CopyOptions defaults(Format format) {
        return switch (format) {
            case TEXT -> new CopyOptions(format, '\t', false, "\\N", '"', '"');
            case CSV -> new CopyOptions(format, ',', false, "", '"', '"');
        };
    }
}
