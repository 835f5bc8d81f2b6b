package dev.parallax.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The lines a {@code COPY ... FROM STDIN} reads its data from, as psql takes them from its current
 * input: the rest of the script, standard input, or the interactive prompt. Read by the thread
 * running the statement.
 */
interface CopyDataLines {
    /** No data at all: the COPY ends at once, as psql's does with standard input at its end. */
    CopyDataLines NONE = new CopyDataLines() {
        @Override
        public void start() {
        }

        @Override
        public String nextLine() {
            return null;
        }
    };

    /** Called once when a COPY starts reading (the interactive shell shows psql's instructions). */
    void start();

    /**
     * The next line without its line break, or null at the end of the input.
     *
     * @throws UncheckedIOException when the input cannot be read; the COPY fails
     */
    String nextLine();

    /** The lines of {@code reader}. */
    static CopyDataLines of(BufferedReader reader) {
        return new ScriptLines(reader);
    }
}
