package dev.parallax.cli.server;

import dev.parallax.CopyChannel;
import dev.parallax.cli.ChunkedInputStream;
import dev.parallax.engine.load.CopyFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;

/**
 * COPY over the protocol for one statement: FROM STDIN answers CopyInResponse and reads CopyData
 * messages until CopyDone (CopyFail fails the COPY); TO STDOUT answers CopyOutResponse and sends
 * the lines as CopyData, pausing while the client does not read. The caller sends CopyDone after a
 * successful COPY TO ({@link #outputOpened()}).
 */
final class ServerCopyChannel implements CopyChannel {
    private static final int CHUNK = 64 * 1024;

    private final PgConnection connection;
    private final BackendWriter writer;
    private boolean outputOpened;

    ServerCopyChannel(PgConnection connection, BackendWriter writer) {
        this.connection = connection;
        this.writer = writer;
    }

    boolean outputOpened() {
        return outputOpened;
    }

    @Override
    public InputStream openInput(int columnCount, CopyFormat format) {
        writer.copyResponse((byte) 'G', columnCount);
        writer.flush();
        return new CopyDataInput();
    }

    @Override
    public OutputStream openOutput(int columnCount, CopyFormat format) {
        outputOpened = true;
        writer.copyResponse((byte) 'H', columnCount);
        return new CopyDataOutput();
    }

    /** The bytes of the client's CopyData messages, ending at CopyDone. */
    private final class CopyDataInput extends ChunkedInputStream {
        @Override
        protected byte[] nextChunk() throws IOException {
            while (true) {
                FrontendMessage message = connection.nextMessage();
                switch (message.type()) {
                    case FrontendMessage.COPY_DATA -> {
                        return message.body();
                    }
                    case FrontendMessage.COPY_DONE -> {
                        return null;
                    }
                    case FrontendMessage.COPY_FAIL -> throw new IOException(new MessageReader(message.body()).readCString());
                    // PostgreSQL ignores Flush and Sync during COPY FROM STDIN (a client may send them out of habit).
                    case FrontendMessage.FLUSH, FrontendMessage.SYNC -> {
                    }
                    default -> throw new ProtocolException(String.format(Locale.ROOT,
                            "unexpected message type 0x%02X during COPY from stdin", message.type()));
                }
            }
        }
    }

    /** Lines to the client as CopyData messages of up to 64 kB. */
    private final class CopyDataOutput extends OutputStream {
        private final byte[] chunk = new byte[CHUNK];
        private int used;

        @Override
        public void write(int value) {
            if (used == chunk.length) {
                send();
            }
            chunk[used++] = (byte) value;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            while (length > 0) {
                if (used == chunk.length) {
                    send();
                }
                int count = Math.min(length, chunk.length - used);
                System.arraycopy(bytes, offset, chunk, used, count);
                used += count;
                offset += count;
                length -= count;
            }
        }

        @Override
        public void close() {
            send();
        }

        private void send() {
            if (used == 0) {
                return;
            }
            writer.copyData(chunk, 0, used);
            used = 0;
            if (writer.pendingBytes() >= BackendWriter.FLUSH_THRESHOLD || !connection.isWritable()) {
                connection.awaitWritable();
            }
        }
    }
}
