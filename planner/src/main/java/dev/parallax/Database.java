package dev.parallax;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.planner.EngineServices;
import dev.parallax.planner.SqlSession;
import dev.parallax.planner.StandardEngineServices;
import dev.parallax.planner.progress.ProgressView;
import dev.parallax.planner.progress.VacuumProgressRegistry;
import dev.parallax.planner.progress.VacuumProgressView;
import dev.parallax.planner.progress.RunningStatementRegistry;
import dev.parallax.planner.progress.PgCatalogViews;
import dev.parallax.planner.progress.UserTablesView;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory Parallax database: catalog, off-heap memory budget and worker pool. Thread-safe;
 * open one {@link Session} per thread. Closing it frees all tables.
 * <pre>{@code
 * try (Database db = Database.inMemory(); Session session = db.openSession()) {
 *     session.execute("CALL dbgen(sf => 0.01)");
 *     List<List<Object>> rows = session.execute("select count(*) from lineitem").fetchAll();
 * }
 * }</pre>
 */
public final class Database implements AutoCloseable {
    private static final Map<String, Database> NAMED = new ConcurrentHashMap<>();

    private final String name;
    private final DatabaseOptions options;
    private final Catalog catalog = new Catalog();
    private final MemoryManager memory;
    private final PageAllocator pageAllocator;
    private volatile EngineServices engineServices;
    private final WorkerPool workers;
    private final RunningStatementRegistry runningStatements = new RunningStatementRegistry();
    private final VacuumProgressRegistry vacuumProgress = new VacuumProgressRegistry();
    private final AtomicInteger sessionIds = new AtomicInteger();
    private final Autovacuum autovacuum;
    private volatile boolean closed;

    private Database(String name, DatabaseOptions options) {
        this.name = name;
        this.options = Objects.requireNonNull(options, "options");
        this.memory = new MemoryManager(options.memoryLimitBytes());
        this.pageAllocator = PageAllocator.forDatabase(memory, options.pageSizeBytes());
        this.workers = new WorkerPool(options.workerThreads(), options.maxParallelWorkers());
        catalog.addTable(Table.systemView(ProgressView.VIEW_NAME, ProgressView.COLUMNS,
                ProgressView.storage(runningStatements)));
        catalog.addTable(Table.systemView(UserTablesView.VIEW_NAME, UserTablesView.COLUMNS,
                UserTablesView.storage(catalog)));
        catalog.addTable(Table.systemView(VacuumProgressView.VIEW_NAME, VacuumProgressView.COLUMNS,
                VacuumProgressView.storage(vacuumProgress, catalog)));
        PgCatalogViews.register(catalog);
        catalog.addTable(dev.parallax.planner.PreparedStatementsView.table());
        this.autovacuum = new Autovacuum(this, Autovacuum.Configuration.defaults());
        autovacuum.start();
    }

    /** A new private in-memory database with default options. */
    public static Database inMemory() {
        return inMemory(DatabaseOptions.defaults());
    }

    public static Database inMemory(DatabaseOptions options) {
        return new Database("", options);
    }

    /**
     * The in-memory database called {@code name}, shared by everyone in this JVM who asks for it
     * (JDBC URL {@code jdbc:parallax:mem:name}); created on first use, gone when closed.
     */
    public static Database named(String name) {
        return NAMED.compute(name, (key, existing) ->
                existing != null && !existing.closed ? existing : new Database(key, DatabaseOptions.defaults()));
    }

    public Session openSession() {
        if (closed) {
            throw new IllegalStateException("database is closed");
        }
        return new SqlSession(this);
    }

    /** The statements running in all sessions now, with their progress (also the view {@code pg_stat_progress}). */
    public List<RunningStatement> runningStatements() {
        return runningStatements.snapshot();
    }

    /** The registry sessions report their running statements to. */
    public RunningStatementRegistry runningStatementRegistry() {
        return runningStatements;
    }

    /** The tables being vacuumed now (the view {@code pg_stat_progress_vacuum}). */
    public VacuumProgressRegistry vacuumProgressRegistry() {
        return vacuumProgress;
    }

    /** A new session number, unique within this database (the {@code session} column of pg_stat_progress). */
    public int nextSessionId() {
        return sessionIds.incrementAndGet();
    }

    public String name() {
        return name;
    }

    public DatabaseOptions options() {
        return options;
    }

    public Catalog catalog() {
        return catalog;
    }

    public MemoryManager memory() {
        return memory;
    }

    /** Pages of this database's tables, carved from slabs charged to {@link #memory()}. */
    public PageAllocator pageAllocator() {
        return pageAllocator;
    }

    /** The query planner, executor, storage and loaders the sessions of this database share (created on first use). */
    public EngineServices engineServices() {
        EngineServices services = engineServices;
        if (services == null) {
            synchronized (this) {
                services = engineServices;
                if (services == null) {
                    services = new StandardEngineServices(this);
                    engineServices = services;
                }
            }
        }
        return services;
    }

    public WorkerPool workers() {
        return workers;
    }

    /** The autovacuum daemon of this database (settings, and rounds on demand). */
    public Autovacuum autovacuum() {
        return autovacuum;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        autovacuum.close();
        if (!name.isEmpty()) {
            NAMED.remove(name, this);
        }
        for (var table : catalog.tables()) {
            if (!table.isSystemView()) {
                catalog.dropTable(table.name());
            }
        }
        workers.close();
        pageAllocator.close();
    }
}
