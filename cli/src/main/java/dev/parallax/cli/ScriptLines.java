package dev.parallax.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * The lines of a script with the number of the last one read: statements, backslash commands
 * and the data of a COPY FROM STDIN all come from here, so messages name the line the script
 * has reached, as psql's do.
 */
final class ScriptLines implements CopyDataLines {
    private final BufferedReader reader;
    private long lineNumber;

    ScriptLines(BufferedReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public void start() {
    }

    @Override
    public String nextLine() {
        try {
            String line = reader.readLine();
            if (line != null) {
                lineNumber++;
            }
            return line;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /** The 1-based number of the last line read; 0 before the first. */
    long lineNumber() {
        return lineNumber;
    }
}
