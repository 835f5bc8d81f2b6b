package dev.parallax;

import dev.parallax.engine.catalog.StorageParameters;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vacuum.MaintenanceResult;
import dev.parallax.engine.vacuum.MaintenanceTask;
import dev.parallax.engine.vacuum.ParallelMaintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The autovacuum daemon of one database: every {@code autovacuum_naptime} it looks at each user
 * table and vacuums those whose dead rows exceed
 * {@code autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor * live rows} (PostgreSQL's
 * rule), up to {@code autovacuum_max_workers} tables at a time on the database's workers (within
 * their budget). Its rounds show in {@code pg_stat_progress} (session 0) and its vacuums in
 * {@code pg_stat_user_tables} as autovacuums. Rounds run on one shared daemon thread; a round
 * can also be run on the caller's thread with {@link #runRound()} (tests drive it this way).
 */
public final class Autovacuum implements AutoCloseable {
    /** Session number autovacuum rounds show under in pg_stat_progress. */
    public static final int SESSION_ID = 0;

    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "parallax-autovacuum");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * The daemon's settings, PostgreSQL's defaults in {@link #defaults()}.
     *
     * @param maximumWorkers autovacuum_max_workers: tables vacuumed at the same time
     */
    public record Configuration(boolean enabled, long vacuumThreshold, double vacuumScaleFactor, Duration naptime,
                                int maximumWorkers) {
        public Configuration {
            Objects.requireNonNull(naptime, "naptime");
            if (vacuumThreshold < 0 || vacuumScaleFactor < 0 || naptime.isNegative() || naptime.isZero() || maximumWorkers < 1) {
                throw new IllegalArgumentException("invalid autovacuum configuration");
            }
        }

        public static Configuration defaults() {
            return new Configuration(true, 50, 0.2, Duration.ofMinutes(1), 3);
        }
    }

    private final Database database;
    private volatile Configuration configuration;
    private ScheduledFuture<?> scheduled;
    private boolean closed;

    Autovacuum(Database database, Configuration configuration) {
        this.database = Objects.requireNonNull(database, "database");
        this.configuration = Objects.requireNonNull(configuration, "configuration");
    }

    public Configuration configuration() {
        return configuration;
    }

    /** Changes the settings; a new naptime applies from the next round. */
    public synchronized void configure(Configuration newConfiguration) {
        Configuration old = configuration;
        configuration = Objects.requireNonNull(newConfiguration, "configuration");
        if (scheduled != null && !old.naptime().equals(newConfiguration.naptime())) {
            scheduled.cancel(false);
            scheduled = null;
            start();
        }
    }

    /**
     * ALTER SYSTEM SET {@code name} = {@code value} for one of the daemon's settings ({@link #ownsSetting}),
     * or back to its default when {@code value} is null (ALTER SYSTEM RESET). The value is checked as SET
     * checks it (PostgreSQL's 22023 messages) and applies from the daemon's next look at the tables: an
     * in-memory database has no configuration file for pg_reload_conf() to read again.
     */
    public synchronized void alterSetting(String name, String value) {
        Settings parsed = new Settings();
        if (value != null) {
            parsed.set(name, value);
        }
        Configuration old = configuration;
        configure(switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "autovacuum" -> new Configuration(parsed.getBoolean("autovacuum"), old.vacuumThreshold(),
                    old.vacuumScaleFactor(), old.naptime(), old.maximumWorkers());
            case "autovacuum_vacuum_threshold" -> new Configuration(old.enabled(), parsed.getLong("autovacuum_vacuum_threshold"),
                    old.vacuumScaleFactor(), old.naptime(), old.maximumWorkers());
            case "autovacuum_vacuum_scale_factor" -> new Configuration(old.enabled(), old.vacuumThreshold(),
                    parsed.getDouble("autovacuum_vacuum_scale_factor"), old.naptime(), old.maximumWorkers());
            case "autovacuum_naptime" -> new Configuration(old.enabled(), old.vacuumThreshold(), old.vacuumScaleFactor(),
                    Duration.ofSeconds(parsed.getLong("autovacuum_naptime")), old.maximumWorkers());
            case "autovacuum_max_workers" -> new Configuration(old.enabled(), old.vacuumThreshold(), old.vacuumScaleFactor(),
                    old.naptime(), parsed.getInt("autovacuum_max_workers"));
            default -> throw new IllegalArgumentException("not an autovacuum setting: " + name);
        });
    }

    /** Schedules the rounds every naptime (the first one naptime from now). Idempotent. */
    synchronized void start() {
        if (closed || scheduled != null) {
            return;
        }
        long naptimeMillis = configuration.naptime().toMillis();
        scheduled = SCHEDULER.scheduleWithFixedDelay(this::runRoundQuietly, naptimeMillis, naptimeMillis, TimeUnit.MILLISECONDS);
    }

    /** True for the settings that belong to the daemon (database-wide), which SET and RESET cannot change in a session. */
    public static boolean ownsSetting(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "autovacuum", "autovacuum_vacuum_threshold", "autovacuum_vacuum_scale_factor", "autovacuum_naptime",
                 "autovacuum_max_workers" -> true;
            default -> false;
        };
    }

    /** The value of one of the daemon's settings ({@link #ownsSetting}) as SHOW prints it. */
    public String showSetting(String name) {
        Configuration settings = configuration;
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "autovacuum" -> settings.enabled() ? "on" : "off";
            case "autovacuum_vacuum_threshold" -> Long.toString(settings.vacuumThreshold());
            case "autovacuum_vacuum_scale_factor" -> java.math.BigDecimal.valueOf(settings.vacuumScaleFactor()).stripTrailingZeros().toPlainString();
            case "autovacuum_naptime" -> naptimeText(settings.naptime());
            case "autovacuum_max_workers" -> Integer.toString(settings.maximumWorkers());
            default -> throw new IllegalArgumentException("not an autovacuum setting: " + name);
        };
    }

    /** PostgreSQL's spelling of a time setting: the largest unit that divides it (1min, 30s, 2h). */
    private static String naptimeText(Duration naptime) {
        long seconds = naptime.toSeconds();
        if (seconds % 86400 == 0) {
            return seconds / 86400 + "d";
        }
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + "min";
        }
        return seconds + "s";
    }

    /**
     * True when {@code table} has more dead rows than its threshold allows: the database's settings,
     * or the table's own where its storage parameters set them (as PostgreSQL's reloptions do);
     * {@code autovacuum_enabled = false} keeps the daemon away from the table.
     */
    public boolean needsVacuum(Table table) {
        if (table.isSystemView() || !(table.storage() instanceof PagedTableStorage storage)) {
            return false;
        }
        Configuration settings = configuration;
        StorageParameters parameters = table.storageParameters();
        if (!parameters.autovacuumEnabled().orElse(true)) {
            return false;
        }
        long threshold = parameters.vacuumThreshold().orElse(settings.vacuumThreshold());
        double scaleFactor = parameters.vacuumScaleFactor().orElse(settings.vacuumScaleFactor());
        return storage.deadRowCount() > threshold + scaleFactor * storage.rowCount();
    }

    /**
     * One round: vacuums every table past its threshold (nothing when autovacuum is off) and
     * returns what was done, in table-name order.
     */
    public List<MaintenanceResult> runRound() {
        Configuration settings = configuration;
        if (!settings.enabled()) {
            return List.of();
        }
        List<MaintenanceTask> tasks = new ArrayList<>();
        for (Table table : database.catalog().tables()) {
            if (needsVacuum(table)) {
                tasks.add(new MaintenanceTask(table, true, false, null));
            }
        }
        if (tasks.isEmpty()) {
            return List.of();
        }
        Instant now = Instant.now();
        long startMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
        Settings sessionSettings = new Settings();
        ExecutionContext context = new ExecutionContext(database.memory(), database.workers(), sessionSettings, null,
                startMicros, false);
        database.runningStatementRegistry().add(context, SESSION_ID, "autovacuum");
        try {
            return ParallelMaintenance.run(tasks, settings.maximumWorkers(), database.workers(),
                    sessionSettings.getInt("max_parallel_workers"), true,
                    database.vacuumProgressRegistry().forSession(SESSION_ID,
                            (table, done, total) -> context.progress().update("autovacuum " + table, done, total, "pages")),
                    () -> context.isCancelled() || isClosed());
        } finally {
            database.vacuumProgressRegistry().sessionFinished(SESSION_ID);
            database.runningStatementRegistry().remove(context);
        }
    }

    private void runRoundQuietly() {
        try {
            runRound();
        } catch (RuntimeException failure) {
            // A failed round (e.g. out of memory) is retried at the next naptime, as PostgreSQL's launcher does.
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /** Stops scheduling rounds; a round in progress stops at its next page. */
    @Override
    public synchronized void close() {
        closed = true;
        if (scheduled != null) {
            scheduled.cancel(false);
            scheduled = null;
        }
    }
}
