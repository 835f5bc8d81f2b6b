package dev.parallax.cli.server;

/**
 * One message a client sent after startup: its type byte ({@code 'Q'}, {@code 'P'}, ...) and its
 * body without type and length. The body is a private copy, so it may cross to the connection's
 * statement thread without Netty reference counting.
 */
record FrontendMessage(byte type, byte[] body) {
    /** Query. */
    static final byte QUERY = 'Q';
    static final byte PARSE = 'P';
    static final byte BIND = 'B';
    static final byte DESCRIBE = 'D';
    static final byte EXECUTE = 'E';
    static final byte CLOSE = 'C';
    static final byte SYNC = 'S';
    static final byte FLUSH = 'H';
    static final byte TERMINATE = 'X';
    static final byte COPY_DATA = 'd';
    static final byte COPY_DONE = 'c';
    static final byte COPY_FAIL = 'f';
    static final byte PASSWORD = 'p';
    static final byte FUNCTION_CALL = 'F';
}
