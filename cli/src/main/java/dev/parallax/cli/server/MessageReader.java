package dev.parallax.cli.server;

import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one message body. A field running past the end of the body is the client's
 * protocol error (08P01), never an index exception.
 */
final class MessageReader {
    private final byte[] body;
    private int position;

    MessageReader(byte[] body) {
        this.body = body;
    }

    int readInt32() {
        require(4);
        int value = ((body[position] & 0xFF) << 24) | ((body[position + 1] & 0xFF) << 16)
                | ((body[position + 2] & 0xFF) << 8) | (body[position + 3] & 0xFF);
        position += 4;
        return value;
    }

    short readInt16() {
        require(2);
        short value = (short) (((body[position] & 0xFF) << 8) | (body[position + 1] & 0xFF));
        position += 2;
        return value;
    }

    byte readByte() {
        require(1);
        return body[position++];
    }

    /** A count read as int16 that must not be negative. */
    int readCount() {
        int count = readInt16();
        if (count < 0) {
            throw new ProtocolException("invalid message format");
        }
        return count;
    }

    /** A NUL-terminated UTF-8 string. */
    String readCString() {
        int end = position;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        if (end >= body.length) {
            throw new ProtocolException("invalid string in message");
        }
        String value = new String(body, position, end - position, StandardCharsets.UTF_8);
        position = end + 1;
        return value;
    }

    byte[] readBytes(int length) {
        if (length < 0) {
            throw new ProtocolException("invalid message format");
        }
        require(length);
        byte[] value = new byte[length];
        System.arraycopy(body, position, value, 0, length);
        position += length;
        return value;
    }

    int remaining() {
        return body.length - position;
    }

    /** PostgreSQL's pq_getmsgend: a message with bytes left over is malformed. */
    void expectEnd() {
        if (position != body.length) {
            throw new ProtocolException("invalid message format");
        }
    }

    private void require(int bytes) {
        if (bytes > body.length - position) {
            throw new ProtocolException("invalid message format");
        }
    }
}
