package dev.parallax.cli;

import java.util.Objects;

/**
 * Output settings of a script run.
 *
 * @param format         how rows are laid out
 * @param tuplesOnly     psql {@code -t}: no header and no row-count footer
 * @param fieldSeparator separator of the unaligned format (psql {@code -F}, default {@code |})
 * @param quiet          psql {@code -q}: no command tags and no informational messages
 * @param nullDisplay    psql {@code \pset null}: the text shown for NULL; null keeps each format's
 *                       own rendering (empty, and an empty field in csv)
 * @param expanded       psql {@code \x}: one record per block, one line per column
 */
public record PrintOptions(OutputFormat format, boolean tuplesOnly, String fieldSeparator, boolean quiet,
                           String nullDisplay, ExpandedMode expanded) {
    public PrintOptions {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(fieldSeparator, "fieldSeparator");
        Objects.requireNonNull(expanded, "expanded");
    }

    public PrintOptions(OutputFormat format, boolean tuplesOnly, String fieldSeparator, boolean quiet) {
        this(format, tuplesOnly, fieldSeparator, quiet, null, ExpandedMode.OFF);
    }

    public PrintOptions withFormat(OutputFormat newFormat) {
        return new PrintOptions(newFormat, tuplesOnly, fieldSeparator, quiet, nullDisplay, expanded);
    }

    public PrintOptions withNullDisplay(String newNullDisplay) {
        return new PrintOptions(format, tuplesOnly, fieldSeparator, quiet, newNullDisplay, expanded);
    }

    public PrintOptions withExpanded(ExpandedMode newExpanded) {
        return new PrintOptions(format, tuplesOnly, fieldSeparator, quiet, nullDisplay, newExpanded);
    }

    public static PrintOptions defaults() {
        return new PrintOptions(OutputFormat.ALIGNED, false, "|", false);
    }
}
