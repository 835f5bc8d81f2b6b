package dev.parallax.cli;

import java.io.IOException;
import java.io.InputStream;

/**
 * An input stream over chunks of bytes fetched one at a time, for COPY FROM STDIN data that comes
 * in pieces: the wire protocol's CopyData messages, the lines of a script.
 */
public abstract class ChunkedInputStream extends InputStream {
    private static final byte[] EMPTY = new byte[0];

    private byte[] chunk = EMPTY;
    private int position;
    private boolean ended;

    /** The next chunk (may be empty), or null at the end of the data; not called again after null. */
    protected abstract byte[] nextChunk() throws IOException;

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return chunk[position++] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int count = Math.min(length, chunk.length - position);
        System.arraycopy(chunk, position, buffer, offset, count);
        position += count;
        return count;
    }

    /** Whether the end of the data was reached. */
    protected final boolean ended() {
        return ended;
    }

    /** Records that the data ended without being read to its end (the rest was skipped). */
    protected final void markEnded() {
        ended = true;
    }

    private boolean fill() throws IOException {
        while (!ended && position >= chunk.length) {
            byte[] next;
            try {
                next = nextChunk();
            } catch (IOException | RuntimeException failure) {
                ended = true;
                throw failure;
            }
            if (next == null) {
                ended = true;
            } else {
                chunk = next;
                position = 0;
            }
        }
        return position < chunk.length;
    }
}
