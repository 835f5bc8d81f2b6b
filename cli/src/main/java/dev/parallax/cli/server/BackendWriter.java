package dev.parallax.cli.server;

import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import java.util.List;

/**
 * Builds backend messages into one pending buffer and hands it to the channel on {@link #flush()}.
 * Used by one thread at a time (the connection's statement thread). Messages accumulate until a
 * flush point (ReadyForQuery, a full buffer, Flush), so a small query's answer goes out in one write.
 */
final class BackendWriter {
    /** Past this many pending bytes rows are handed to the channel (and back-pressure checked). */
    static final int FLUSH_THRESHOLD = 64 * 1024;

    private final Channel channel;
    private ByteBuf pending;

    BackendWriter(Channel channel) {
        this.channel = channel;
    }

    /** The buffer to write a message into. */
    ByteBuf buffer() {
        if (pending == null) {
            pending = channel.alloc().buffer(8 * 1024);
        }
        return pending;
    }

    /** Bytes waiting to be handed to the channel. */
    int pendingBytes() {
        return pending == null ? 0 : pending.readableBytes();
    }

    /** Hands the pending messages to the channel and flushes it. */
    void flush() {
        if (pending != null) {
            ByteBuf out = pending;
            pending = null;
            channel.writeAndFlush(out, channel.voidPromise());
        }
    }

    /** Drops pending messages (the connection is gone). */
    void discard() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    /** Starts a message: type byte and a length word patched by {@link #end(int)}; returns the length's index. */
    int begin(byte type) {
        ByteBuf out = buffer();
        out.writeByte(type);
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        return lengthIndex;
    }

    void end(int lengthIndex) {
        ByteBuf out = pending;
        out.setInt(lengthIndex, out.writerIndex() - lengthIndex);
    }

    void authenticationOk() {
        int at = begin((byte) 'R');
        buffer().writeInt(0);
        end(at);
    }

    void authenticationSasl(String mechanism) {
        int at = begin((byte) 'R');
        buffer().writeInt(10);
        writeCString(mechanism);
        buffer().writeByte(0);
        end(at);
    }

    void authenticationSaslContinue(byte[] data) {
        int at = begin((byte) 'R');
        buffer().writeInt(11);
        buffer().writeBytes(data);
        end(at);
    }

    void authenticationSaslFinal(byte[] data) {
        int at = begin((byte) 'R');
        buffer().writeInt(12);
        buffer().writeBytes(data);
        end(at);
    }

    void parameterStatus(String name, String value) {
        int at = begin((byte) 'S');
        writeCString(name);
        writeCString(value);
        end(at);
    }

    void backendKeyData(int processId, int secretKey) {
        int at = begin((byte) 'K');
        buffer().writeInt(processId);
        buffer().writeInt(secretKey);
        end(at);
    }

    void readyForQuery(char transactionStatus) {
        int at = begin((byte) 'Z');
        buffer().writeByte(transactionStatus);
        end(at);
    }

    /** RowDescription; {@code binary[i]} says which columns go in binary format (null: all text). */
    void rowDescription(List<ResultColumn> columns, boolean[] binary) {
        writeRowDescription(buffer(), columns, binary);
    }

    /** The whole RowDescription message as {@link #rowDescription} writes it, for {@link #message(byte[])} later. */
    static byte[] encodeRowDescription(List<ResultColumn> columns, boolean[] binary) {
        ByteBuf out = Unpooled.buffer(64);
        try {
            writeRowDescription(out, columns, binary);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** A whole message encoded before. */
    void message(byte[] encoded) {
        buffer().writeBytes(encoded);
    }

    private static void writeRowDescription(ByteBuf out, List<ResultColumn> columns, boolean[] binary) {
        out.writeByte('T');
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        out.writeShort(columns.size());
        for (int index = 0; index < columns.size(); index++) {
            ResultColumn column = columns.get(index);
            DataType type = column.type();
            ByteBufUtil.writeUtf8(out, column.name());
            out.writeByte(0);
            out.writeInt(0);
            out.writeShort(0);
            out.writeInt(PgTypes.oid(type));
            out.writeShort(PgTypes.length(type));
            out.writeInt(PgTypes.modifier(type));
            out.writeShort(binary != null && binary[index] ? 1 : 0);
        }
        out.setInt(lengthIndex, out.writerIndex() - lengthIndex);
    }

    void parameterDescription(int[] oids) {
        int at = begin((byte) 't');
        buffer().writeShort(oids.length);
        for (int oid : oids) {
            buffer().writeInt(oid);
        }
        end(at);
    }

    void commandComplete(String tag) {
        int at = begin((byte) 'C');
        writeCString(tag);
        end(at);
    }

    void emptyQueryResponse() {
        simple((byte) 'I');
    }

    void parseComplete() {
        simple((byte) '1');
    }

    void bindComplete() {
        simple((byte) '2');
    }

    void closeComplete() {
        simple((byte) '3');
    }

    void noData() {
        simple((byte) 'n');
    }

    void portalSuspended() {
        simple((byte) 's');
    }

    void copyDone() {
        simple((byte) 'c');
    }

    /** CopyInResponse ('G') or CopyOutResponse ('H') in text format for {@code columns} columns. */
    void copyResponse(byte type, int columns) {
        int at = begin(type);
        buffer().writeByte(0);
        buffer().writeShort(columns);
        for (int index = 0; index < columns; index++) {
            buffer().writeShort(0);
        }
        end(at);
    }

    void copyData(byte[] data, int offset, int length) {
        int at = begin((byte) 'd');
        buffer().writeBytes(data, offset, length);
        end(at);
    }

    /** ErrorResponse ('E') or NoticeResponse ('N'). */
    void error(byte type, ErrorFields fields) {
        int at = begin(type);
        field('S', fields.severity());
        field('V', fields.severity());
        field('C', fields.code());
        field('M', fields.message());
        if (fields.detail() != null) {
            field('D', fields.detail());
        }
        if (fields.hint() != null) {
            field('H', fields.hint());
        }
        if (fields.position() > 0) {
            field('P', Integer.toString(fields.position()));
        }
        if (fields.context() != null) {
            field('W', fields.context());
        }
        buffer().writeByte(0);
        end(at);
    }

    void errorResponse(ErrorFields fields) {
        error((byte) 'E', fields);
    }

    void noticeResponse(ErrorFields fields) {
        error((byte) 'N', fields);
    }

    private void field(char code, String value) {
        buffer().writeByte(code);
        writeCString(value);
    }

    private void simple(byte type) {
        ByteBuf out = buffer();
        out.writeByte(type);
        out.writeInt(4);
    }

    private void writeCString(String value) {
        ByteBuf out = buffer();
        ByteBufUtil.writeUtf8(out, value);
        out.writeByte(0);
    }
}
