package dev.parallax.engine.spill;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One temporary file that rows are appended to in any number of calls, then read back (any
 * number of times, by any number of readers) once writing ended. The file opens on the first
 * row, so an empty partition costs nothing. Written by one thread.
 */
public final class SpillFile {
    private final Path file;
    private final List<DataType> columnTypes;
    private final SpillRunWriter writer;
    private OutputStream output;
    private long rowCount;
    private long bytes;

    /** @param writer the encoder to use (shared by the files of one writer thread, never across threads) */
    SpillFile(Path file, List<DataType> columnTypes, SpillRunWriter writer) {
        this.file = file;
        this.columnTypes = columnTypes;
        this.writer = writer;
    }

    /** Appends rows at positions {@code positions[from .. from+count)} of {@code rows}. */
    void append(Batch rows, int[] positions, int from, int count) {
        if (count == 0) {
            return;
        }
        if (output == null) {
            try {
                output = new BufferedOutputStream(Files.newOutputStream(file), 16 * 1024);
            } catch (IOException failure) {
                throw SpillRunWriter.writeFailure(file, failure);
            }
        }
        bytes += writer.append(output, file, rows, positions, from, count);
        rowCount += count;
    }

    /** Ends writing (flushes and closes the stream); idempotent. */
    void finish() {
        if (output == null) {
            return;
        }
        OutputStream stream = output;
        output = null;
        try {
            stream.close();
        } catch (IOException failure) {
            throw SpillRunWriter.writeFailure(file, failure);
        }
    }

    /** Rows appended. */
    public long rowCount() {
        return rowCount;
    }

    /** Bytes written. */
    public long bytes() {
        return bytes;
    }

    /** A reader from the first row; writing must have ended. */
    public SpillRunReader openReader() {
        if (output != null) {
            throw new IllegalStateException("spill file read before writing ended");
        }
        return new SpillRunReader(file, rowCount, columnTypes);
    }

    /** Closes the stream if open and deletes the file (its directory goes with the operator anyway). */
    void delete() {
        try {
            finish();
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // The directory's removal at the operator's close retries it.
            }
        }
    }
}
