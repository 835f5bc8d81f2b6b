package dev.parallax.cli.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits the client's byte stream into {@link StartupPacket}s (length word, no type byte) until
 * the real StartupMessage, then into typed {@link FrontendMessage}s. Lengths are checked before
 * anything is buffered: a startup packet over 10,000 bytes (PostgreSQL's limit) or a message over
 * the configured maximum raises a {@link ProtocolException}, so no client can make the server
 * hold an arbitrary amount of memory.
 */
final class PgFrameDecoder extends ByteToMessageDecoder {
    /** PostgreSQL's MAX_STARTUP_PACKET_LENGTH. */
    static final int MAX_STARTUP_PACKET_LENGTH = 10_000;

    private final int maxMessageSize;
    private boolean startupPhase = true;

    PgFrameDecoder(int maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf in, List<Object> out) {
        if (startupPhase) {
            decodeStartup(in, out);
        } else {
            decodeTyped(in, out);
        }
    }

    private void decodeStartup(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_PACKET_LENGTH) {
            throw new ProtocolException("invalid length of startup packet");
        }
        if (in.readableBytes() < length) {
            return;
        }
        in.skipBytes(4);
        int code = in.readInt();
        byte[] body = new byte[length - 8];
        in.readBytes(body);
        StartupPacket packet = new StartupPacket(code, body);
        // After SSL/GSS refusals the client sends another startup packet; after a StartupMessage
        // typed messages follow; a CancelRequest ends the connection.
        if (!packet.isEncryptionRequest()) {
            startupPhase = false;
        }
        out.add(packet);
    }

    private void decodeTyped(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 5) {
            return;
        }
        int start = in.readerIndex();
        byte type = in.getByte(start);
        int length = in.getInt(start + 1);
        if (length < 4) {
            throw new ProtocolException("invalid message length");
        }
        if (length > maxMessageSize) {
            throw new ProtocolException("invalid message length");
        }
        if (in.readableBytes() < length + 1) {
            return;
        }
        in.skipBytes(5);
        byte[] body = new byte[length - 4];
        in.readBytes(body);
        out.add(new FrontendMessage(type, body));
    }
}
