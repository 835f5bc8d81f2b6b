package dev.parallax.cli;

import dev.parallax.CopyChannel;
import dev.parallax.engine.load.CopyFormat;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The shell's end of COPY for one statement, as psql's: FROM STDIN reads data lines from the
 * current input up to a line {@code \.} (or the end of the input), TO STDOUT prints to the current
 * output. psql sends all the data before it learns whether the COPY failed, so the data of a COPY
 * that stopped early is skipped ({@link #skipRemainingData()}), never read as SQL.
 */
final class ShellCopyChannel implements CopyChannel {
    private static final String END_OF_DATA = "\\.";

    private final CopyDataLines lines;
    private final Supplier<PrintStream> output;
    private DataInput input;

    ShellCopyChannel(CopyDataLines lines, Supplier<PrintStream> output) {
        this.lines = Objects.requireNonNull(lines, "lines");
        this.output = Objects.requireNonNull(output, "output");
    }

    @Override
    public InputStream openInput(int columnCount, CopyFormat format) {
        lines.start();
        input = new DataInput();
        return input;
    }

    @Override
    public OutputStream openOutput(int columnCount, CopyFormat format) {
        PrintStream target = output.get();
        return new FilterOutputStream(target) {
            @Override
            public void write(byte[] bytes, int offset, int length) {
                target.write(bytes, offset, length);
            }

            @Override
            public void close() {
                target.flush();
            }
        };
    }

    /** Reads and drops the data lines the COPY did not read, up to the end marker. */
    void skipRemainingData() {
        if (input != null) {
            input.skipToEnd();
        }
    }

    /** The data lines as UTF-8 bytes, each ending in a newline, up to the end marker. */
    private final class DataInput extends ChunkedInputStream {
        @Override
        protected byte[] nextChunk() throws IOException {
            String next;
            try {
                next = lines.nextLine();
            } catch (UncheckedIOException failure) {
                throw failure.getCause();
            }
            return next == null || next.equals(END_OF_DATA) ? null : (next + "\n").getBytes(StandardCharsets.UTF_8);
        }

        void skipToEnd() {
            while (!ended()) {
                String next = lines.nextLine();
                if (next == null || next.equals(END_OF_DATA)) {
                    markEnded();
                }
            }
        }
    }
}
