package dev.parallax.cli.server;

/**
 * A packet of the startup phase (no type byte): its leading code — a protocol version such as
 * 196608 for 3.0, or one of the special request codes — and the rest of its body.
 */
record StartupPacket(int code, byte[] body) {
    static final int PROTOCOL_3_0 = 196608;
    static final int CANCEL_REQUEST = 80877102;
    static final int SSL_REQUEST = 80877103;
    static final int GSSENC_REQUEST = 80877104;

    /** True for a packet after which the client goes on with another startup packet. */
    boolean isEncryptionRequest() {
        return code == SSL_REQUEST || code == GSSENC_REQUEST;
    }
}
