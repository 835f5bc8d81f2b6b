package dev.parallax.cli;

/** How rows are printed, named after psql's {@code \pset format} values. */
public enum OutputFormat {
    /** psql's default: a table with centered headers, {@code -+-} rule and a {@code (N rows)} footer. */
    ALIGNED,
    /** psql {@code -A}: values joined by the field separator, no padding. */
    UNALIGNED,
    /** psql {@code --csv}: RFC 4180 with quotes only where needed, NULL as an empty field. */
    CSV
}
