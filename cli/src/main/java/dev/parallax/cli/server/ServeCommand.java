package dev.parallax.cli.server;

import dev.parallax.Database;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Map;

/** {@code parallax serve}: one in-memory database (optionally with TPC-H loaded) served over the PostgreSQL protocol until killed. */
public final class ServeCommand {
    /** Exit status when the command line asks for something unsafe or impossible (psql-like tools use 2 for usage errors). */
    public static final int EXIT_REFUSED = 2;

    private ServeCommand() {
    }

    /**
     * Serves until the process is stopped; returns the exit status: 1 when startup failed, 2 when
     * the options were refused (non-loopback without authentication, bad password file).
     */
    public static int run(String host, int port, Path passwordFile, boolean insecureNoAuth, int maxMessageSize,
            BigDecimal tpchScaleFactor, String version, PrintStream out, PrintStream err) {
        Map<String, String> passwords = Map.of();
        if (passwordFile != null) {
            try {
                passwords = PasswordFile.read(passwordFile);
            } catch (IOException | IllegalArgumentException e) {
                err.print("parallax serve: error: cannot use password file: " + e.getMessage() + "\n");
                err.flush();
                return EXIT_REFUSED;
            }
        }
        ServerOptions options;
        try {
            options = new ServerOptions(host, port, passwords, insecureNoAuth, maxMessageSize);
        } catch (IllegalArgumentException e) {
            err.print("parallax serve: error: " + e.getMessage() + "\n");
            err.flush();
            return EXIT_REFUSED;
        }
        if (passwords.isEmpty() && !insecureNoAuth && !PgServer.isLoopback(host)) {
            err.print("parallax serve: error: refusing to listen on " + host + " without authentication: anyone who"
                    + " can reach it could read and change all data.\nGive --password-file FILE (user:password lines,"
                    + " SCRAM-SHA-256), or --insecure-no-auth if that is really what you want.\n");
            err.flush();
            return EXIT_REFUSED;
        }
        Database database = Database.inMemory();
        try {
            if (tpchScaleFactor != null) {
                try (Session session = database.openSession()) {
                    session.execute("CALL dbgen(sf => " + tpchScaleFactor.toPlainString() + ")").close();
                } catch (ParallaxException e) {
                    err.print("parallax serve: error: " + e.getMessage() + "\n");
                    err.flush();
                    return 1;
                }
            }
            if (System.getProperty("io.netty.leakDetection.level") == null && System.getProperty("io.netty.leakDetectionLevel") == null) {
                // Netty tracks one buffer in 128 for leaks by default, with a stack trace each: a few per
                // cent of a prepared point select's time. The tests keep tracking on.
                ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
            }
            PgServer server = PgServer.start(database, options, version);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.close();
                database.close();
            }, "parallax-serve-shutdown"));
            out.print("parallax " + version + " serving PostgreSQL protocol 3.0 on " + host + ":" + server.port()
                    + (passwords.isEmpty() ? " (trust authentication)" : " (SCRAM-SHA-256, " + passwords.size()
                    + (passwords.size() == 1 ? " user)" : " users)")) + "\n");
            out.flush();
            server.awaitClose();
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } catch (RuntimeException e) {
            err.print("parallax serve: error: could not listen on " + host + ":" + port + ": " + e.getMessage() + "\n");
            err.flush();
            database.close();
            return 1;
        }
    }
}
