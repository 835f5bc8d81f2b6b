package dev.parallax.cli;

import java.util.Objects;

/**
 * Output settings of a script run.
 *
 * @param format         how rows are laid out
 * @param tuplesOnly     psql {@code -t}: no header and no row-count footer
 * @param fieldSeparator separator of the unaligned format (psql {@code -F}, default {@code |})
 * @param quiet          psql {@code -q}: no command tags and no informational messages
 */
public record PrintOptions(OutputFormat format, boolean tuplesOnly, String fieldSeparator, boolean quiet) {
    public PrintOptions {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(fieldSeparator, "fieldSeparator");
    }

    public static PrintOptions defaults() {
        return new PrintOptions(OutputFormat.ALIGNED, false, "|", false);
    }
}
