package dev.parallax.cli.server;

import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One client connection. A thread of its own, the statement thread, runs startup,
 * authentication and every statement that may block or take long ({@link QueryProtocol}),
 * blocking freely — on the next message, or on a full socket buffer (back-pressure) — without
 * holding up any other connection. Messages that answer at once ({@link QueryProtocol#isImmediate}:
 * Bind, Describe, Sync, Execute of a prepared point lookup...) are answered on Netty's event loop
 * itself when it may, so a prepared point select costs one read and one write on one thread, as in
 * PostgreSQL's backend, instead of waking the statement thread and then the event loop again.
 *
 * <p><b>Invariant: one owner at a time.</b> The connection's protocol state — the
 * {@link QueryProtocol} with its statements and portals, the {@link Session} and the
 * {@link BackendWriter}'s pending output — is used by exactly one thread at a time, its owner:
 * the event loop while {@link #eventLoopOwns}, else the statement thread. Messages arrive in order
 * on the event loop only, and
 * <ul>
 *   <li>the event loop runs a message itself only while it owns the state; any other message (and
 *       the end of input, a framing error, a shutdown) it hands to the statement thread through
 *       the {@link #inbox}, giving up ownership first, so a message is never answered before one
 *       that came earlier;</li>
 *   <li>ownership goes back to the event loop only by {@link #takeBack(long)}, a task the statement
 *       thread submits to the event loop when it is idle (no queued message, back in the query
 *       loop) after taking {@code n} messages, which the event loop accepts only if it handed over
 *       exactly {@code n} — that is, nothing is queued or being handled;</li>
 *   <li>the statement thread writes to the channel through tasks Netty queues on the event loop, in
 *       order, and its hand-back task is queued after them: by the time the event loop owns the
 *       state again, everything the statement thread wrote has reached the channel, and what the
 *       event loop writes next comes after it.</li>
 * </ul>
 * Each hand-over is a happens-before edge (the inbox's put/take, the event loop's task queue), so
 * the state needs no locks or volatiles of its own.
 */
final class PgConnection extends ChannelInboundHandlerAdapter implements Runnable {
    /** Queued messages past which the socket is no longer read until the statement thread catches up. */
    private static final int INBOX_HIGH = 64;
    private static final int INBOX_LOW = 16;
    /** Marks the end of the input: the client closed the connection. */
    private static final Object DISCONNECTED = new Object();

    private final PgServer server;
    /** Messages handed to the statement thread, in arrival order. */
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** Event loop only: entries put into {@link #inbox} so far. */
    private long handedOver;
    /** Event loop only: the event loop owns the protocol state (see the class comment). */
    private boolean eventLoopOwns;
    /** Statement thread only: entries taken from {@link #inbox} so far. */
    private long taken;
    /**
     * The query phase, set by the statement thread before it first hands the state back; read by
     * the event loop only while it owns the state (the hand-back task publishes it).
     */
    private QueryProtocol protocol;
    private final Object writability = new Object();
    private volatile Channel channel;
    private volatile boolean disconnected;
    private volatile Session session;
    private volatile int secretKey;
    private int processId;
    private BackendWriter writer;

    PgConnection(PgServer server) {
        this.server = server;
    }

    // ---- event loop side ----

    @Override
    public void channelActive(ChannelHandlerContext context) {
        channel = context.channel();
        writer = new BackendWriter(channel);
        // A platform thread, as PostgreSQL gives each connection a process of its own: a statement
        // runs on it, and a CPU-bound serial one never yields; on virtual threads, whose carriers are
        // as many as the cores, as many slow queries as cores kept every other connection from
        // running even "select 42" (PgJdbcTest, JVM with one available processor).
        Thread.ofPlatform().daemon(true).name("parallax-connection-" + channel.remoteAddress()).start(this);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (eventLoopOwns) {
            if (message instanceof FrontendMessage frontend && channel.isWritable() && protocol.isImmediate(frontend)) {
                runHere(frontend);
                return;
            }
            eventLoopOwns = false;
        }
        handOver(message);
    }

    /** Runs an immediate message on the event loop, which owns the state. */
    private void runHere(FrontendMessage message) {
        try {
            protocol.handleImmediate(message);
        } catch (ConnectionClosedException closed) {
            // The client is gone: channelInactive tells the statement thread.
        } catch (ProtocolException violation) {
            // A malformed message: the statement thread answers FATAL and closes, as for any other.
            eventLoopOwns = false;
            handOver(violation);
        } catch (RuntimeException unexpected) {
            eventLoopOwns = false;
            handOver(new ProtocolException(SqlState.INTERNAL_ERROR, String.valueOf(unexpected.getMessage())));
        }
    }

    /** Gives the statement thread its next entry; the event loop no longer owns the state. */
    private void handOver(Object entry) {
        handedOver++;
        inbox.add(entry);
        if (inbox.size() > INBOX_HIGH && channel.config().isAutoRead()) {
            channel.config().setAutoRead(false);
            // The statement thread may have drained the inbox meanwhile, before it could see reading
            // stopped (it resumes reading only then): look again, or nobody would resume it.
            if (inbox.size() < INBOX_LOW) {
                channel.config().setAutoRead(true);
            }
        }
    }

    /**
     * On the event loop: the statement thread, idle after taking {@code takenByThread} entries,
     * offers the state back; taken only if nothing was handed over since (else the thread goes on
     * with what was, and offers again when idle).
     */
    private void takeBack(long takenByThread) {
        if (handedOver == takenByThread) {
            eventLoopOwns = true;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        // Decoder failures (bad lengths) end the input: stop reading, let the statement thread answer FATAL.
        context.channel().config().setAutoRead(false);
        Throwable failure = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        eventLoopOwns = false;
        handOver(failure);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        disconnected = true;
        eventLoopOwns = false;
        handOver(DISCONNECTED);
        Session current = session;
        if (current != null) {
            // A client that hangs up mid-query: stop the query now rather than at its next row.
            current.cancel();
        }
        wakeWriter();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) {
        wakeWriter();
        context.fireChannelWritabilityChanged();
    }

    private void wakeWriter() {
        synchronized (writability) {
            writability.notifyAll();
        }
    }

    // ---- statement thread side ----

    @Override
    public void run() {
        try {
            if (startup()) {
                protocol = new QueryProtocol(this, session, writer);
                protocol.run();
            }
        } catch (ConnectionClosedException closed) {
            // The client went away; nothing more to say to it.
        } catch (ProtocolException violation) {
            fatal(ErrorFields.fatal(violation.state(), violation.getMessage()));
        } catch (RuntimeException | Error unexpected) {
            fatal(ErrorFields.fatal(SqlState.INTERNAL_ERROR, String.valueOf(unexpected.getMessage())));
        } finally {
            Session current = session;
            if (current != null) {
                current.close();
            }
            if (processId != 0) {
                server.unregister(processId, this);
            }
            writer.discard();
            channel.close();
            for (Object message = inbox.poll(); message != null; message = inbox.poll()) {
                io.netty.util.ReferenceCountUtil.release(message);
            }
        }
    }

    /** The next message from the client; throws when it disconnected or its bytes could not be framed. */
    Object next() {
        Object message;
        try {
            message = inbox.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectionClosedException();
        }
        return received(message);
    }

    private Object received(Object message) {
        taken++;
        if (inbox.size() < INBOX_LOW && !channel.config().isAutoRead() && !disconnected) {
            channel.config().setAutoRead(true);
        }
        if (message == DISCONNECTED) {
            throw new ConnectionClosedException();
        }
        if (message instanceof ProtocolException violation) {
            throw violation;
        }
        if (message instanceof Throwable failure) {
            throw new ProtocolException(String.valueOf(failure.getMessage()));
        }
        return message;
    }

    /** The next typed message, in the middle of a statement (COPY) or of startup (authentication). */
    FrontendMessage nextMessage() {
        return typed(next());
    }

    /**
     * The next typed message of the query phase, between messages: when none is queued, the
     * statement thread offers the protocol state back to the event loop ({@link #takeBack}) before
     * it waits, and owns it again once it gets a message.
     */
    FrontendMessage awaitMessage() {
        Object message = inbox.poll();
        if (message == null) {
            long takenNow = taken;
            try {
                channel.eventLoop().execute(() -> takeBack(takenNow));
            } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
                // The event loop is shutting down: the connection is closing, it keeps its state here.
            }
            try {
                message = inbox.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectionClosedException();
            }
        }
        return typed(received(message));
    }

    private static FrontendMessage typed(Object message) {
        if (message instanceof FrontendMessage frontend) {
            return frontend;
        }
        throw new ProtocolException("invalid frontend message type 0");
    }

    /**
     * Waits while the client is not reading (the channel's outbound buffer is past its high water
     * mark), after handing over what is pending: rows are pulled from the query only as fast as the
     * client takes them.
     */
    void awaitWritable() {
        writer.flush();
        if (channel.eventLoop().inEventLoop()) {
            // An immediate message on the event loop: the channel was writable when it started, and
            // waiting here would stop the very loop that drains the buffer.
            return;
        }
        synchronized (writability) {
            while (!channel.isWritable() && !disconnected) {
                try {
                    writability.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ConnectionClosedException();
                }
            }
        }
        if (disconnected) {
            throw new ConnectionClosedException();
        }
    }

    /** False while the client is not reading fast enough (or is gone): time to {@link #awaitWritable()}. */
    boolean isWritable() {
        return channel.isWritable() && !disconnected;
    }

    boolean isDisconnected() {
        return disconnected;
    }

    int secretKey() {
        return secretKey;
    }

    int processId() {
        return processId;
    }

    /** CancelRequest from another connection: cancels this connection's running statement, if any. */
    void cancelStatement() {
        Session current = session;
        if (current != null) {
            current.cancel();
        }
    }

    /** The server shuts down: FATAL 57P01 to the client, then the connection closes. */
    void closeFromServer() {
        Session current = session;
        if (current != null) {
            current.cancel();
        }
        ProtocolException shutdown = new ProtocolException(SqlState.ADMIN_SHUTDOWN, "terminating connection due to administrator command");
        try {
            // Through the event loop, which alone hands entries over (see the class comment).
            channel.eventLoop().execute(() -> {
                eventLoopOwns = false;
                handOver(shutdown);
            });
        } catch (java.util.concurrent.RejectedExecutionException shuttingDown) {
            // No event loop left to own the state: the statement thread has it.
            inbox.add(shutdown);
        }
    }

    /** Writes a FATAL error and closes the connection once it is sent. */
    private void fatal(ErrorFields error) {
        if (disconnected) {
            return;
        }
        writer.errorResponse(error);
        writer.flush();
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    // ---- startup and authentication ----

    /** Runs the startup phase; true when the client is in and ready for queries. */
    private boolean startup() {
        while (true) {
            Object message = next();
            if (!(message instanceof StartupPacket packet)) {
                throw new ProtocolException("invalid startup packet layout: expected terminator as last byte");
            }
            if (packet.isEncryptionRequest()) {
                // No TLS or GSS encryption here: 'N' tells the client to go on in plain text.
                channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'N'}));
                continue;
            }
            if (packet.code() == StartupPacket.CANCEL_REQUEST) {
                MessageReader reader = new MessageReader(packet.body());
                int targetProcess = reader.readInt32();
                int targetKey = reader.readInt32();
                server.cancel(targetProcess, targetKey);
                return false;
            }
            return begin(packet);
        }
    }

    private boolean begin(StartupPacket packet) {
        int major = packet.code() >>> 16;
        int minor = packet.code() & 0xFFFF;
        if (major != 3) {
            throw new ProtocolException(SqlState.FEATURE_NOT_SUPPORTED, String.format(Locale.ROOT,
                    "unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", major, minor));
        }
        Map<String, String> parameters = readStartupParameters(packet.body());
        String user = parameters.get("user");
        if (user == null || user.isEmpty()) {
            throw new ProtocolException(SqlState.INVALID_AUTHORIZATION_SPECIFICATION,
                    "no PostgreSQL user name specified in startup packet");
        }
        if (minor > 0 || parameters.keySet().stream().anyMatch(name -> name.startsWith("_pq_."))) {
            negotiateProtocolVersion(parameters);
        }
        if (server.requiresPassword() && !authenticate(user)) {
            fatal(new ErrorFields(ErrorFields.FATAL, SqlState.INVALID_PASSWORD.code(),
                    "password authentication failed for user \"" + user + "\"", null, null, 0, null));
            return false;
        }
        writer.authenticationOk();
        Session opened = server.database().openSession();
        session = opened;
        String applicationName = parameters.getOrDefault("application_name", "");
        for (Map.Entry<String, String> parameter : parameters.entrySet()) {
            applyStartupSetting(opened, parameter.getKey(), parameter.getValue());
        }
        String timeZone = opened.settings().show("TimeZone");
        // What current_user/session_user and version() answer in this session.
        String serverVersion = "15.0 (Parallax " + server.serverVersion() + ")";
        opened.settings().set("session_authorization", user);
        opened.settings().set("server_version", serverVersion);
        writer.parameterStatus("application_name", applicationName);
        writer.parameterStatus("client_encoding", "UTF8");
        writer.parameterStatus("DateStyle", "ISO, MDY");
        writer.parameterStatus("default_transaction_read_only", "off");
        writer.parameterStatus("in_hot_standby", "off");
        writer.parameterStatus("integer_datetimes", "on");
        writer.parameterStatus("IntervalStyle", "postgres");
        writer.parameterStatus("is_superuser", "on");
        writer.parameterStatus("server_encoding", "UTF8");
        writer.parameterStatus("server_version", serverVersion);
        writer.parameterStatus("session_authorization", user);
        writer.parameterStatus("standard_conforming_strings", "on");
        writer.parameterStatus("TimeZone", timeZone);
        processId = server.register(this);
        secretKey = server.newSecretKey();
        writer.backendKeyData(processId, secretKey);
        writer.readyForQuery('I');
        writer.flush();
        return true;
    }

    private static Map<String, String> readStartupParameters(byte[] body) {
        MessageReader reader = new MessageReader(body);
        Map<String, String> parameters = new LinkedHashMap<>();
        while (true) {
            String name = reader.readCString();
            if (name.isEmpty()) {
                break;
            }
            parameters.put(name, reader.readCString());
        }
        if (reader.remaining() != 0) {
            throw new ProtocolException("invalid startup packet layout: expected terminator as last byte");
        }
        return parameters;
    }

    /** NegotiateProtocolVersion: we speak 3.0 and none of the {@code _pq_.} protocol options. */
    private void negotiateProtocolVersion(Map<String, String> parameters) {
        var options = parameters.keySet().stream().filter(name -> name.startsWith("_pq_.")).toList();
        int at = writer.begin((byte) 'v');
        writer.buffer().writeInt(StartupPacket.PROTOCOL_3_0);
        writer.buffer().writeInt(options.size());
        for (String option : options) {
            io.netty.buffer.ByteBufUtil.writeUtf8(writer.buffer(), option);
            writer.buffer().writeByte(0);
        }
        writer.end(at);
    }

    /**
     * Startup options that are settings of ours (application_name, extra_float_digits, search_path,
     * statement_timeout...) are applied; client_encoding must be UTF8 (we convert nothing);
     * DateStyle is accepted as ISO is what we print; TimeZone becomes the session's.
     */
    private static void applyStartupSetting(Session session, String name, String value) {
        switch (name) {
            case "user", "database", "replication", "options", "DateStyle" -> {
                // Connection identity, or fixed in this server (ISO dates). TimeZone (pgJDBC sends the
                // JVM's zone) becomes the session's below, as PostgreSQL applies it.
            }
            case "client_encoding" -> {
                String encoding = value.replace("'", "").toUpperCase(Locale.ROOT);
                if (!encoding.equals("UTF8") && !encoding.equals("UTF-8") && !encoding.equals("UNICODE")) {
                    throw new ProtocolException(SqlState.FEATURE_NOT_SUPPORTED,
                            "client_encoding \"" + value + "\" is not supported: this server speaks UTF8 only");
                }
            }
            default -> {
                if (name.startsWith("_pq_.")) {
                    return;
                }
                try {
                    session.settings().set(name, value);
                } catch (ParallaxException unknownOrInvalid) {
                    // PostgreSQL would refuse the connection for an unknown setting; clients send
                    // settings we do not have (e.g. geqo) and expect to connect, so we skip them.
                }
            }
        }
    }

    private boolean authenticate(String user) {
        ScramExchange exchange = new ScramExchange(server.credentials(user));
        writer.authenticationSasl("SCRAM-SHA-256");
        writer.flush();
        MessageReader initial = passwordMessage();
        String mechanism = initial.readCString();
        if (!mechanism.equals("SCRAM-SHA-256")) {
            throw new ProtocolException(SqlState.PROTOCOL_VIOLATION,
                    "client selected an invalid SASL authentication mechanism");
        }
        int length = initial.readInt32();
        byte[] clientFirst = initial.readBytes(length);
        writer.authenticationSaslContinue(exchange.serverFirst(clientFirst));
        writer.flush();
        MessageReader response = passwordMessage();
        byte[] serverFinal = exchange.serverFinal(response.readBytes(response.remaining()));
        if (serverFinal == null) {
            return false;
        }
        writer.authenticationSaslFinal(serverFinal);
        return true;
    }

    private MessageReader passwordMessage() {
        FrontendMessage message = nextMessage();
        if (message.type() != FrontendMessage.PASSWORD) {
            throw new ProtocolException(String.format(Locale.ROOT,
                    "expected SASL response, got message type %d", message.type()));
        }
        return new MessageReader(message.body());
    }

    /** The client went away while we waited for it or wrote to it. */
    static final class ConnectionClosedException extends RuntimeException {
        ConnectionClosedException() {
            super("connection closed", null, false, false);
        }
    }
}
