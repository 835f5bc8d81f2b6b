package dev.parallax.cli.server;

import dev.parallax.Database;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The PostgreSQL wire-protocol server: serves one {@link Database} to many clients over protocol
 * 3.0 on Netty. Each connection gets its own session and a thread that runs its statements,
 * so Netty's event loop only moves bytes and a slow query or a slow reader never holds up another
 * connection; all sessions share the database's worker pool.
 */
public final class PgServer implements AutoCloseable {
    /** Pending output past which a connection stops producing rows until the client reads (back-pressure). */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);

    private final Database database;
    private final ServerOptions options;
    private final String serverVersion;
    private final Map<String, ScramCredentials> credentials;
    private final Map<Integer, PgConnection> connections = new ConcurrentHashMap<>();
    private final AtomicInteger processIds = new AtomicInteger(1000);
    private final SecureRandom random = new SecureRandom();
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final Channel serverChannel;

    private PgServer(Database database, ServerOptions options, String serverVersion) throws InterruptedException {
        this.database = database;
        this.options = options;
        this.serverVersion = serverVersion;
        Map<String, ScramCredentials> verifiers = new HashMap<>();
        options.passwords().forEach((user, password) -> verifiers.put(user, ScramCredentials.forPassword(password)));
        this.credentials = Map.copyOf(verifiers);
        this.bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.workerGroup = new MultiThreadIoEventLoopGroup(Math.max(1, Runtime.getRuntime().availableProcessors()),
                NioIoHandler.newFactory());
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(bossGroup, workerGroup)
                    .channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast("frames", new PgFrameDecoder(options.maxMessageSize()));
                            channel.pipeline().addLast("connection", new PgConnection(PgServer.this));
                        }
                    });
            this.serverChannel = bootstrap.bind(new InetSocketAddress(options.host(), options.port())).sync().channel();
        } catch (RuntimeException | InterruptedException failure) {
            bossGroup.shutdownGracefully();
            workerGroup.shutdownGracefully();
            throw failure;
        }
    }

    /**
     * Starts serving {@code database} as {@code options} say. Refuses (IllegalArgumentException) to
     * listen on a non-loopback address without passwords unless {@code insecureNoAuth}.
     *
     * @param serverVersion the Parallax version, shown in server_version as {@code 15.0 (Parallax <version>)}
     */
    public static PgServer start(Database database, ServerOptions options, String serverVersion) throws InterruptedException {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(options, "options");
        if (options.passwords().isEmpty() && !options.insecureNoAuth() && !isLoopback(options.host())) {
            throw new IllegalArgumentException("refusing to listen on " + options.host()
                    + " without authentication: give --password-file, or --insecure-no-auth to let anyone connect");
        }
        return new PgServer(database, options, serverVersion);
    }

    /** Whether {@code host} names only loopback addresses. */
    static boolean isLoopback(String host) {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The port the server listens on (the chosen one when started with port 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        serverChannel.closeFuture().sync();
    }

    /** Number of connections open now. */
    public int connectionCount() {
        return connections.size();
    }

    Database database() {
        return database;
    }

    ServerOptions options() {
        return options;
    }

    String serverVersion() {
        return serverVersion;
    }

    /** The SCRAM verifier for {@code user} when passwords are configured; empty map means trust. */
    boolean requiresPassword() {
        return !credentials.isEmpty();
    }

    ScramCredentials credentials(String user) {
        ScramCredentials found = credentials.get(user);
        return found != null ? found : ScramCredentials.impossible();
    }

    /** Registers a connection that finished startup; returns its process id (BackendKeyData). */
    int register(PgConnection connection) {
        int processId = processIds.incrementAndGet();
        connections.put(processId, connection);
        return processId;
    }

    int newSecretKey() {
        return random.nextInt();
    }

    void unregister(int processId, PgConnection connection) {
        connections.remove(processId, connection);
    }

    /** CancelRequest: cancels the running statement of that backend if the secret key matches (else nothing, as PostgreSQL). */
    void cancel(int processId, int secretKey) {
        PgConnection connection = connections.get(processId);
        if (connection != null && connection.secretKey() == secretKey) {
            connection.cancelStatement();
        }
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        for (PgConnection connection : connections.values()) {
            connection.closeFromServer();
        }
        bossGroup.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
