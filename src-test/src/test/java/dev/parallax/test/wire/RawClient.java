package dev.parallax.test.wire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A hand-driven PostgreSQL protocol client: writes exact bytes, reads backend messages one at a time. */
final class RawClient implements AutoCloseable {
    /** One backend message: its type and body. */
    record Message(char type, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The value of field {@code code} of an ErrorResponse/NoticeResponse, or null. */
        String field(char code) {
            int position = 0;
            while (position < body.length && body[position] != 0) {
                char fieldCode = (char) body[position];
                int end = position + 1;
                while (body[end] != 0) {
                    end++;
                }
                if (fieldCode == code) {
                    return new String(body, position + 1, end - position - 1, StandardCharsets.UTF_8);
                }
                position = end + 1;
            }
            return null;
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    /** While holding: typed messages are collected here instead of sent (see {@link #hold()}). */
    private ByteArrayOutputStream held;

    RawClient(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(Integer.getInteger("parallax.test.readTimeout", 60_000));
        in = new DataInputStream(new java.io.BufferedInputStream(socket.getInputStream(), 64 * 1024));
        out = socket.getOutputStream();
    }

    /** Connects as {@code user} with trust authentication and reads up to the first ReadyForQuery. */
    static RawClient connected(int port) throws IOException {
        RawClient client = new RawClient(port);
        client.startup("raw");
        client.readUntilReady();
        return client;
    }

    void startup(String user) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        writeInt(body, 196608);
        cstring(body, "user");
        cstring(body, user);
        body.write(0);
        sendUntyped(body.toByteArray());
    }

    void sendUntyped(byte[] body) throws IOException {
        ByteBuffer packet = ByteBuffer.allocate(4 + body.length).putInt(4 + body.length).put(body);
        out.write(packet.array());
        out.flush();
    }

    void send(char type, byte[] body) throws IOException {
        ByteBuffer message = ByteBuffer.allocate(5 + body.length).put((byte) type).putInt(4 + body.length).put(body);
        if (held != null) {
            held.writeBytes(message.array());
            return;
        }
        out.write(message.array());
        out.flush();
    }

    /** From now on typed messages are collected, not sent, until {@link #release()}. */
    void hold() {
        held = new ByteArrayOutputStream();
    }

    /** The messages collected since {@link #hold()}; sending goes back to one write per message. */
    byte[] release() {
        byte[] bytes = held.toByteArray();
        held = null;
        return bytes;
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    void query(String sql) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, sql);
        send('Q', body.toByteArray());
    }

    void parse(String name, String sql) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, name);
        cstring(body, sql);
        body.write(0);
        body.write(0);
        send('P', body.toByteArray());
    }

    /** Parse declaring each parameter's type OID. */
    void parse(String name, String sql, int... parameterOids) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, name);
        cstring(body, sql);
        writeShort(body, parameterOids.length);
        for (int oid : parameterOids) {
            writeInt(body, oid);
        }
        send('P', body.toByteArray());
    }

    /** Bind with parameters in binary format (null: SQL NULL), all results in text. */
    void bindBinary(String portal, String statement, byte[]... parameters) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, portal);
        cstring(body, statement);
        writeShort(body, 1);
        writeShort(body, 1);
        writeShort(body, parameters.length);
        for (byte[] parameter : parameters) {
            if (parameter == null) {
                writeInt(body, -1);
            } else {
                writeInt(body, parameter.length);
                body.writeBytes(parameter);
            }
        }
        writeShort(body, 0);
        send('B', body.toByteArray());
    }

    /** Bind with parameters in text format (null: SQL NULL), all results in text. */
    void bind(String portal, String statement, String... parameters) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, portal);
        cstring(body, statement);
        writeShort(body, 0);
        writeShort(body, parameters.length);
        for (String parameter : parameters) {
            if (parameter == null) {
                writeInt(body, -1);
            } else {
                byte[] bytes = parameter.getBytes(StandardCharsets.UTF_8);
                writeInt(body, bytes.length);
                body.writeBytes(bytes);
            }
        }
        writeShort(body, 0);
        send('B', body.toByteArray());
    }

    /** Describe of a statement ({@code kind} 'S') or portal ('P'). */
    void describe(char kind, String name) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(kind);
        cstring(body, name);
        send('D', body.toByteArray());
    }

    /** Close of a statement ({@code kind} 'S') or portal ('P'). */
    void close(char kind, String name) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(kind);
        cstring(body, name);
        send('C', body.toByteArray());
    }

    void flush() throws IOException {
        send('H', new byte[0]);
    }

    void execute(String portal, int maxRows) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        cstring(body, portal);
        writeInt(body, maxRows);
        send('E', body.toByteArray());
    }

    void sync() throws IOException {
        send('S', new byte[0]);
    }

    Message read() throws IOException {
        char type = (char) in.readUnsignedByte();
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        return new Message(type, body);
    }

    /** Reads the single byte answer to an SSLRequest. */
    int readByte() throws IOException {
        return in.readUnsignedByte();
    }

    /** Messages up to and including ReadyForQuery. */
    List<Message> readUntilReady() throws IOException {
        List<Message> messages = new ArrayList<>();
        Message message;
        do {
            message = read();
            messages.add(message);
        } while (message.type() != 'Z');
        return messages;
    }

    /** True when the server closed the connection (after any messages it still had to send). */
    boolean closedByServer() throws IOException {
        try {
            while (true) {
                read();
            }
        } catch (EOFException | java.net.SocketException closed) {
            return true;
        }
    }

    static void cstring(ByteArrayOutputStream out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }

    static void writeShort(ByteArrayOutputStream out, int value) {
        out.write(value >>> 8);
        out.write(value);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
