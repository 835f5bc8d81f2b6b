package dev.parallax.cli;

/** psql's {@code \x} setting. */
public enum ExpandedMode {
    /** One row per line (the aligned table). */
    OFF,
    /** One block per record, one line per column. */
    ON,
    /** Expanded when the aligned table would be wider than the terminal (interactive shells only). */
    AUTO
}
