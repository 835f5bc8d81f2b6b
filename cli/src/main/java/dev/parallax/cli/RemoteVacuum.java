package dev.parallax.cli;

import org.postgresql.util.PSQLWarning;
import org.postgresql.util.ServerErrorMessage;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code parallax vacuum --host ...}: vacuumdb against a running server, over the PostgreSQL wire
 * protocol (the PostgreSQL JDBC driver). As vacuumdb does: the tables (every plain table and
 * partition from {@code pg_class}, or those named with -t) are ordered largest first
 * ({@code relpages}), {@code jobs} connections are opened, and each runs {@code VACUUM [(options)]
 * table} for the next table as soon as it is free. The first failure stops the hand-out; the run
 * then fails with vacuumdb's message.
 */
final class RemoteVacuum {
    /** Where to connect: vacuumdb's -h, -p, -U, -d; the password from PGPASSWORD or a prompt. */
    record Target(String host, int port, String user, String database) {
        String url() {
            return "jdbc:postgresql://" + host + ":" + port + "/" + database;
        }
    }

    /** What each table gets: vacuumdb's --analyze, --analyze-only, --full, --verbose. */
    record Options(boolean analyze, boolean analyzeOnly, boolean full, boolean verbose) {
    }

    private final Target target;
    private final Options options;
    private final PrintStream out;
    private final PrintStream err;

    RemoteVacuum(Target target, Options options, PrintStream out, PrintStream err) {
        this.target = target;
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /**
     * Vacuums {@code tables} (every table when empty) with {@code jobs} connections. {@code password}
     * is asked for only when the server wants one and none was given (null: do not ask). Returns the
     * exit status.
     */
    int run(int jobs, List<TableSpecification> tables, String password, Supplier<String> askPassword) {
        String effectivePassword = password;
        Connection first;
        try {
            first = connect(effectivePassword);
        } catch (SQLException failure) {
            // 08004: the server asked for a password and none was given.
            if (effectivePassword != null || askPassword == null || !"08004".equals(failure.getSQLState())) {
                return connectionFailed(failure);
            }
            effectivePassword = askPassword.get();
            if (effectivePassword == null) {
                return connectionFailed(failure);
            }
            try {
                first = connect(effectivePassword);
            } catch (SQLException again) {
                return connectionFailed(again);
            }
        }
        List<Connection> connections = new ArrayList<>();
        connections.add(first);
        try {
            List<TableSpecification> order = largestFirst(first, tables);
            out.print("parallax: vacuuming database \"" + target.database() + "\"\n");
            out.flush();
            int wanted = Math.max(1, Math.min(jobs, order.size()));
            for (int job = 1; job < wanted; job++) {
                connections.add(connect(effectivePassword));
            }
            return vacuumAll(connections, order);
        } catch (SQLException failure) {
            return connectionFailed(failure);
        } finally {
            for (Connection connection : connections) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // Closing: nothing left to do with this connection.
                }
            }
        }
    }

    private Connection connect(String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", target.user());
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("ApplicationName", "parallax vacuum");
        return DriverManager.getConnection(target.url(), properties);
    }

    /**
     * The tables to vacuum, largest first as vacuumdb orders them ({@code relpages} descending): the
     * named ones, or every plain table and partition (a partitioned table holds no rows itself;
     * its partitions are listed and handed out one by one). Named tables the catalog does not know
     * keep their place at the end: VACUUM reports them.
     */
    private List<TableSpecification> largestFirst(Connection connection, List<TableSpecification> named) throws SQLException {
        Map<String, Long> pages = new HashMap<>();
        List<TableSpecification> all = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "select relname, relkind, relpages from pg_class where relnamespace = 2200 order by relpages desc, relname")) {
            while (rows.next()) {
                String name = rows.getString(1);
                pages.put(name, rows.getLong(3));
                if ("r".equals(rows.getString(2))) {
                    all.add(new TableSpecification(null, name, ""));
                }
            }
        }
        if (named.isEmpty()) {
            return all;
        }
        List<TableSpecification> order = new ArrayList<>(named);
        order.sort((left, right) -> Long.compare(pages.getOrDefault(right.name(), -1L), pages.getOrDefault(left.name(), -1L)));
        return order;
    }

    /** One thread per connection, each taking the next table from one shared counter. */
    private int vacuumAll(List<Connection> connections, List<TableSpecification> order) {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> jobs = new ArrayList<>();
        for (int job = 1; job < connections.size(); job++) {
            Connection connection = connections.get(job);
            jobs.add(Thread.ofPlatform().name("vacuum-job-" + job).start(() -> vacuumTables(connection, order, next, failure)));
        }
        vacuumTables(connections.getFirst(), order, next, failure);
        for (Thread job : jobs) {
            try {
                job.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                failure.compareAndSet(null, "interrupted");
            }
        }
        if (failure.get() != null) {
            err.print("parallax: error: " + failure.get() + "\n");
            err.flush();
            return Main.EXIT_FAILURE;
        }
        return Main.EXIT_SUCCESS;
    }

    private void vacuumTables(Connection connection, List<TableSpecification> order, AtomicInteger next,
                              AtomicReference<String> failure) {
        while (failure.get() == null) {
            int claimed = next.getAndIncrement();
            if (claimed >= order.size()) {
                return;
            }
            TableSpecification table = order.get(claimed);
            try (Statement statement = connection.createStatement()) {
                statement.execute(VacuumStatementText.of(1, options.analyze(), options.analyzeOnly(), options.full(),
                        options.verbose(), List.of(table)));
                if (options.verbose()) {
                    printMessages(statement.getWarnings());
                }
            } catch (SQLException error) {
                failure.compareAndSet(null, (options.analyzeOnly() ? "analyzing" : "vacuuming") + " of table \"" + table.qualifiedName()
                        + "\" in database \"" + target.database() + "\" failed: " + error.getMessage());
            }
        }
    }

    /** VERBOSE's INFO messages, which the driver hands over as warnings, printed as psql prints them. */
    private void printMessages(SQLWarning warning) {
        StringBuilder text = new StringBuilder();
        for (SQLWarning message = warning; message != null; message = message.getNextWarning()) {
            ServerErrorMessage fields = message instanceof PSQLWarning notice ? notice.getServerErrorMessage() : null;
            text.append(fields == null ? "INFO" : fields.getSeverity()).append(":  ")
                    .append(fields == null ? message.getMessage() : fields.getMessage()).append('\n');
            if (fields != null && fields.getDetail() != null) {
                text.append("DETAIL:  ").append(fields.getDetail()).append('\n');
            }
        }
        synchronized (err) {
            err.print(text);
            err.flush();
        }
    }

    private int connectionFailed(SQLException failure) {
        err.print("parallax: error: connection to server at \"" + target.host() + "\", port " + target.port() + " failed: "
                + failure.getMessage() + "\n");
        err.flush();
        return Main.EXIT_FAILURE;
    }
}
