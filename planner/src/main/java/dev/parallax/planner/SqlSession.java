package dev.parallax.planner;

import dev.parallax.engine.catalog.RelationSizeSnapshot;
import dev.parallax.engine.catalog.RelationSizes;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.SessionViews;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.planner.progress.PgCatalogViews;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.sequence.SequenceSession;
import dev.parallax.engine.exec.StatementProgress;

import java.util.Optional;

import dev.parallax.CopyChannel;
import dev.parallax.Database;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.settings.Settings;
import dev.parallax.planner.result.ClientMessagesResult;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.result.TextRowsResult;
import dev.parallax.planner.statement.CreateTableAsStatement;
import dev.parallax.planner.statement.DeallocateStatement;
import dev.parallax.planner.statement.EmptyStatement;
import dev.parallax.planner.statement.ExecuteStatement;
import dev.parallax.planner.statement.PrepareStatement;
import dev.parallax.planner.statement.ExplainStatement;
import dev.parallax.planner.statement.QueryStatement;
import dev.parallax.planner.statement.ShowStatement;
import dev.parallax.planner.statement.Statement;
import dev.parallax.planner.statement.StatementParser;
import dev.parallax.planner.statement.CopyToStatement;
import dev.parallax.planner.statement.ResetStatement;
import dev.parallax.planner.statement.PrivilegeStatement;
import dev.parallax.planner.statement.SetConfigStatement;
import dev.parallax.planner.statement.SetStatement;
import dev.parallax.planner.statement.TransactionStatement;
import dev.parallax.planner.statement.AlterSystemStatement;
import dev.parallax.planner.statement.VacuumStatement;
import dev.parallax.TransactionStatus;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.PlanNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A session: parses a statement, runs utility statements itself, has queries planned (through a
 * per-session plan cache) and executed, and streams their results. One thread uses a session at a
 * time; {@link #cancel()} may come from any thread. A failed statement leaves no partial effect on
 * the session, which goes on.
 */
public final class SqlSession implements Session {
    private static final Object[] NO_PARAMETERS = new Object[0];

    private final Database database;
    private final EngineServices services;
    private final Settings settings = new Settings();
    private final PlanCache planCache;
    /** What pg_table_size and the other size functions read when a statement runs. */
    private final RelationSizes relationSizes;
    /** Shared plans for texts that differ only in constants (see {@link AutoParameterization}). */
    private final AutoParameterization autoParameterization;
    private final UtilityCommands utilityCommands;
    private final RunningStatements running;
    private final TransactionBlock transaction = new TransactionBlock();
    /** SQL PREPARE's statements, in the namespace PostgreSQL gives them (see {@link NamedStatements}). */
    private final NamedStatements namedStatements = new NamedStatements();
    /** pg_prepared_statements reads this session's {@link #namedStatements}; other system views their own storage. */
    private final SessionViews sessionViews;
    /** The text of the statement being started, for pg_stat_progress. */
    private volatile String statementText = "";
    private final List<Result> openResults = new ArrayList<>();
    private boolean closed;
    /** Set while {@link #execute(String, CopyChannel)} runs. */
    private CopyChannel copyChannel;
    /** This session's currval / lastval, and where sequence names resolve. */
    private final SequenceSession sequences;
    /** The catalog as this session sees it: its temporary tables in front of the database's. */
    private final SessionCatalog catalog;
    private final TemporaryTables temporaryTables;

    public SqlSession(Database database) {
        this(database, database.engineServices());
    }

    /** A session driving {@code services} (tests pass fakes; the database uses {@link StandardEngineServices}). */
    public SqlSession(Database database, EngineServices services) {
        this.database = Objects.requireNonNull(database, "database");
        int sessionId = database.nextSessionId();
        this.catalog = new SessionCatalog(database.catalog(), sessionId);
        this.temporaryTables = new TemporaryTables(catalog);
        this.services = Objects.requireNonNull(services, "services").forSession(catalog);
        this.planCache = new PlanCache(catalog);
        this.relationSizes = () -> RelationSizeSnapshot.of(catalog, PgCatalogViews.DATABASE_NAME, PgCatalogViews.DATABASE_OID);
        this.autoParameterization = new AutoParameterization(this, catalog);
        this.utilityCommands = new UtilityCommands(this, this.services);
        TableStorage preparedStatements = PreparedStatementsView.storage(namedStatements);
        this.sessionViews = view -> {
            if (view.name().equals(PreparedStatementsView.VIEW_NAME)) {
                return preparedStatements;
            }
            // Once the session has a temporary schema, the catalog views list it and its tables.
            TableStorage own = catalog.temporaryNamespaceOid() == 0 ? null : PgCatalogViews.sessionStorage(view, catalog);
            return own != null ? own : view.storage();
        };
        this.running = new RunningStatements(database.runningStatementRegistry(), sessionId);
        this.sequences = new SequenceSession(new SequenceSession.Resolver() {
            @Override
            public Sequence sequence(String name) {
                // nextval('public.s'), as pg_dump writes it: the name is read as regclass reads it;
                // a relation that is no sequence is named as PostgreSQL names it, a missing one as written.
                String unqualified = dev.parallax.planner.query.convert.WrittenRelationName.unqualified(name);
                Sequence sequence = catalog.findSequence(unqualified);
                return sequence != null ? sequence : catalog.sequence(catalog.relationExists(unqualified) ? unqualified : name);
            }

            @Override
            public Sequence sequence(long oid) {
                return catalog.sequence(oid);
            }
        });
    }

    /** The catalog as this session sees it: its temporary tables, then the database's relations. */
    @Override
    public SessionCatalog catalog() {
        return catalog;
    }

    /** The session's temporary tables' ON COMMIT actions. */
    TemporaryTables temporaryTables() {
        return temporaryTables;
    }

    /**
     * A statement starts: outside a transaction block, the previous statement's transaction (or
     * the block COMMIT / ROLLBACK ended) is over, and the temporary tables' ON COMMIT actions run.
     * While a result of the session is still open (its rows not all read), they wait for a later
     * statement: emptying a table would wait for that result's scan, which this thread holds.
     */
    void statementStarts() {
        if (!transaction.inBlock() && openResults.isEmpty()) {
            temporaryTables.transactionEnded();
        }
    }

    /** The session's sequence state (currval, lastval), which every statement's context carries. */
    SequenceSession sequences() {
        return sequences;
    }

    @Override
    public Result execute(String sql) {
        return execute(sql, NO_PARAMETERS);
    }

    /**
     * Runs one statement with parameter values for its {@code $n} / {@code ?} placeholders, as
     * {@code prepare(sql).execute(parameters)} would, but through the session's plan cache: a
     * repeated SQL text is not planned again while the catalog and the sizes of the tables it
     * scans stay the same. Without parameters, a point lookup or single-row modification that
     * differs from an earlier one only in its constants shares that one's plan ({@link AutoParameterization}).
     */
    public Result execute(String sql, Object... parameters) {
        checkOpen();
        Objects.requireNonNull(sql, "sql");
        Object[] values = parameters == null ? NO_PARAMETERS : parameters;
        statementText = sql;
        statementStarts();
        try {
            Statement statement = StatementParser.parse(sql);
            refuseInFailedBlock(statement);
            return transaction.watch(ClientMessagesResult.filter(run(statement, values), settings));
        } catch (RuntimeException failure) {
            transaction.statementFailed();
            throw failure;
        }
    }

    private Result run(Statement statement, Object[] values) {
        return switch (statement) {
            case EmptyStatement empty -> {
                ParameterBinder.bind(List.of(), values);
                yield new CommandResult("");
            }
            case QueryStatement query -> {
                Result shared = null;
                try {
                    shared = values.length == 0 ? autoParameterization.tryExecute(query.sql()) : null;
                } catch (ParallaxException failure) {
                    // A table replaced by ALTER TABLE since the shared plan was made: plan the text itself.
                    if (failure.state() != SqlState.SERIALIZATION_FAILURE) {
                        throw failure;
                    }
                }
                if (shared != null) {
                    yield shared;
                }
                yield startQuery(query.sql(), values);
            }
            case ExplainStatement explain -> explain(explain, values);
            case PrepareStatement prepare -> {
                ParameterBinder.bind(List.of(), values);
                yield prepareNamed(prepare);
            }
            case ExecuteStatement execute -> {
                ParameterBinder.bind(List.of(), values);
                NamedStatements.NamedStatement named = namedStatements.get(execute.name());
                Object[] arguments = executeArguments(named, execute);
                try {
                    yield named.query().run(arguments);
                } catch (ParallaxException failure) {
                    throw withoutPosition(failure);
                }
            }
            case DeallocateStatement deallocate -> {
                ParameterBinder.bind(List.of(), values);
                if (deallocate.all()) {
                    namedStatements.clear();
                    yield new CommandResult("DEALLOCATE ALL");
                }
                namedStatements.remove(deallocate.name());
                yield new CommandResult("DEALLOCATE");
            }
            default -> {
                ParameterBinder.bind(List.of(), values);
                if (statement instanceof VacuumStatement vacuum && vacuum.vacuum()) {
                    transaction.checkOutsideBlock("VACUUM");
                }
                if (statement instanceof AlterSystemStatement) {
                    transaction.checkOutsideBlock("ALTER SYSTEM");
                }
                Result result = utilityCommands.run(statement);
                if (changesData(statement)) {
                    transaction.dataChanged();
                }
                yield result;
            }
        };
    }

    /**
     * In a failed block, refuses every statement but COMMIT / ROLLBACK with 25P02, after checking
     * its syntax: PostgreSQL parses a statement before it looks at the block's state, so a syntax
     * error is reported as such (42601), while anything found by analysis (a missing table) is not.
     */
    private void refuseInFailedBlock(Statement statement) {
        if (transaction.status() != TransactionStatus.FAILED || endsTransactionBlock(statement)) {
            return;
        }
        switch (statement) {
            case QueryStatement query -> services.checkSyntax(query.sql());
            case ExplainStatement explain -> checkSyntax(explain.query(), explain.queryOffset());
            case CreateTableAsStatement create -> checkSyntax(create.query(), create.queryOffset());
            default -> {
            }
        }
        transaction.checkNotFailed();
    }

    /** Checks the syntax of a query that starts at {@code offset} in its statement (positions of errors count from the statement's start). */
    private void checkSyntax(String query, int offset) {
        try {
            services.checkSyntax(query);
        } catch (ParallaxException failure) {
            throw failure.position() > 0 ? failure.withPosition(failure.position() + offset) : failure;
        }
    }

    /** COMMIT and ROLLBACK: the only statements a failed block accepts. */
    private static boolean endsTransactionBlock(Statement statement) {
        return statement instanceof TransactionStatement transaction && !transaction.begins();
    }

    /** Whether a utility statement changes what ROLLBACK would have to restore (settings are restored separately). */
    private static boolean changesData(Statement statement) {
        return !(statement instanceof SetStatement || statement instanceof SetConfigStatement || statement instanceof PrivilegeStatement
                || statement instanceof ShowStatement || statement instanceof ResetStatement
                || statement instanceof TransactionStatement || statement instanceof EmptyStatement
                || statement instanceof CopyToStatement || statement instanceof VacuumStatement
                || statement instanceof AlterSystemStatement);
    }

    @Override
    public Result execute(String sql, CopyChannel copy) {
        CopyChannel previous = copyChannel;
        copyChannel = copy;
        try {
            return execute(sql);
        } finally {
            copyChannel = previous;
        }
    }

    /** The client end of COPY FROM STDIN / TO STDOUT for the statement running now, or null. */
    CopyChannel copyChannel() {
        return copyChannel;
    }

    @Override
    public PreparedQuery prepare(String sql) {
        checkOpen();
        Objects.requireNonNull(sql, "sql");
        statementStarts();
        Statement statement;
        try {
            statement = StatementParser.parse(sql);
            // PostgreSQL refuses Parse in a failed block too, except for COMMIT / ROLLBACK.
            refuseInFailedBlock(statement);
        } catch (RuntimeException failure) {
            transaction.statementFailed();
            throw failure;
        }
        return switch (statement) {
            case QueryStatement query -> new SqlPreparedQuery(this, sql, planFor(query.sql()));
            case ExplainStatement explain -> new SqlPreparedQuery(this, sql, List.of(new ResultColumn("QUERY PLAN", DataType.TEXT)));
            // Describing EXECUTE describes the prepared statement's result, as PostgreSQL does.
            case ExecuteStatement execute -> new SqlPreparedQuery(this, sql,
                    namedStatements.find(execute.name()) == null ? List.of() : namedStatements.find(execute.name()).query().columns());
            case ShowStatement show when show.all() -> new SqlPreparedQuery(this, sql, List.of(
                    new ResultColumn("name", DataType.TEXT), new ResultColumn("setting", DataType.TEXT),
                    new ResultColumn("description", DataType.TEXT)));
            case ShowStatement show -> new SqlPreparedQuery(this, sql,
                    List.of(new ResultColumn(UtilityCommands.settingName(show.name()), DataType.TEXT)));
            case SetConfigStatement setConfig -> new SqlPreparedQuery(this, sql, List.of(new ResultColumn("set_config", DataType.TEXT)));
            default -> new SqlPreparedQuery(this, sql, List.of());
        };
    }

    @Override
    public PreparedQuery prepareNamed(String name, String sql) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a named prepared statement needs a name");
        }
        // A protocol-level Parse fails on the name before planning.
        namedStatements.checkFree(name);
        SqlPreparedQuery query = (SqlPreparedQuery) prepare(sql);
        try {
            namedStatements.add(new NamedStatements.NamedStatement(name, sql, query.parameterTypes(), false, query));
        } catch (RuntimeException failure) {
            query.close();
            throw failure;
        }
        return query;
    }

    @Override
    public PreparedQuery preparedStatement(String name) {
        NamedStatements.NamedStatement statement = namedStatements.find(name);
        return statement == null ? null : statement.query();
    }

    @Override
    public void closePreparedStatement(String name) {
        if (namedStatements.find(name) != null) {
            namedStatements.remove(name);
        }
    }

    @Override
    public Optional<StatementProgress.Snapshot> progress() {
        return running.progress();
    }

    @Override
    public void cancel() {
        running.cancelAll();
    }

    @Override
    public TransactionStatus transactionStatus() {
        return transaction.status();
    }

    @Override
    public void failTransactionBlock() {
        transaction.statementFailed();
    }

    /** The session's transaction block (BEGIN ... COMMIT). */
    TransactionBlock transactionBlock() {
        return transaction;
    }

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public Database database() {
        return database;
    }

    /** Closes the results still open (stopping their queries) and ends the session. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Result result : List.copyOf(openResults)) {
            result.close();
        }
        openResults.clear();
        namedStatements.clear();
        planCache.clear();
        autoParameterization.clear();
        temporaryTables.close();
    }

    // ---- planning and execution, shared with prepared statements and utility commands ----

    /** The plan for {@code sql}, from the cache when still valid. */
    PlanCache.CachedPlan planFor(String sql) {
        var changed = settings.changed();
        PlanCache.CachedPlan cached = planCache.find(sql, changed);
        if (cached != null) {
            return cached;
        }
        // Read the version first: DDL racing with planning then makes the entry stale, never wrongly fresh.
        long version = catalog.version();
        PlannedStatement planned = services.plan(sql, settings);
        PlanCache.CachedPlan plan = PlanCache.CachedPlan.of(planned, version);
        planCache.put(sql, changed, plan);
        return plan;
    }

    /**
     * Plans (or finds the plan of) {@code sql} and starts it. When a table it reads or writes was
     * replaced between the plan and the start (ALTER TABLE's rewrite closes the old storage: 40001),
     * plans again and starts once more, as PostgreSQL's statement would have waited for the ALTER's
     * lock and then planned; such a failure came before any row was read or written.
     */
    private Result startQuery(String sql, Object[] values) {
        while (true) {
            PlanCache.CachedPlan plan = planFor(sql);
            Result result;
            try {
                result = start(plan.statement(), bindForExecute(plan.statement().parameterTypes(), values));
            } catch (ParallaxException failure) {
                if (failure.state() == SqlState.SERIALIZATION_FAILURE && plan.catalogVersion() != catalog.version()) {
                    continue;
                }
                throw failure;
            }
            // Parallel workers open their scans after the start: their 40001 shows on the first fetch.
            return plan.statement().returnsRows()
                    ? new RestartableResult(result, () -> plan.catalogVersion() != catalog.version(), () -> startQuery(sql, values))
                    : result;
        }
    }

    /** Runs a planned statement: a row-returning one streams, DML runs to completion for its count. */
    Result start(PlannedStatement statement, Object[] parameters) {
        ExecutionContext context = newContext(parameters, false);
        Operator operator;
        try {
            operator = services.open(statement.root(), context);
        } catch (RuntimeException failure) {
            running.finish(context);
            throw OperatorResult.asParallaxException(failure);
        }
        if (transaction.inBlock() && statement.returnsRows() && modifiesData(statement.root())) {
            // INSERT/UPDATE/DELETE ... RETURNING: its rows count only once read, so count it as changing.
            transaction.dataChanged();
        }
        if (statement.returnsRows()) {
            Result[] self = new Result[1];
            OperatorResult result = new OperatorResult(statement.columns(), operator, context, statement.commandName(), () -> {
                running.finish(context);
                openResults.remove(self[0]);
            });
            self[0] = result;
            openResults.add(result);
            return result;
        }
        try {
            long count = drainCount(operator, context);
            if (count > 0) {
                transaction.dataChanged();
            }
            return new CommandResult(commandTag(statement.commandName(), count), count, List.of());
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            try {
                operator.close();
            } finally {
                running.finish(context);
            }
        }
    }

    /**
     * A fresh execution context for one statement: a settings snapshot, the bound parameters, the
     * statement's start time (statement_timestamp()) and its transaction's (now()); registered for
     * cancel() and statement_timeout until {@link RunningStatements#finish} is called.
     */
    /** Records the text of a statement about to run through a prepared plan (for pg_stat_progress). */
    void noteStatement(String sql) {
        statementText = sql;
    }

    ExecutionContext newContext(Object[] parameters, boolean collectStatistics) {
        Instant now = Instant.now();
        long startMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
        Settings snapshot = settings.snapshot();
        ExecutionContext context = new ExecutionContext(database.memory(), database.workers(), snapshot, parameters,
                startMicros, collectStatistics, relationSizes);
        context.setTransactionStartMicros(transactionStartMicros(startMicros));
        context.setSequences(sequences);
        context.setSessionViews(sessionViews);
        running.start(context, snapshot.getLong("statement_timeout"), statementText);
        return context;
    }

    /**
     * now() of a statement that started at {@code statementStartMicros}: in a transaction block, the
     * block's start (BEGIN's); otherwise the statement is its own transaction.
     */
    long transactionStartMicros(long statementStartMicros) {
        return transaction.startMicros(statementStartMicros);
    }

    RunningStatements running() {
        return running;
    }

    private Result explain(ExplainStatement explain, Object[] parameters) {
        long planningStart = System.nanoTime();
        PlannedStatement plan;
        Object[] bound = null;
        try {
            if (StatementParser.parse(explain.query()) instanceof ExecuteStatement execute) {
                // EXPLAIN EXECUTE: the prepared statement's plan, which the arguments prune as they would when it runs.
                ParameterBinder.bind(List.of(), parameters);
                NamedStatements.NamedStatement named = namedStatements.get(execute.name());
                Object[] arguments = executeArguments(named, execute);
                try {
                    plan = named.query().validPlan();
                } catch (ParallaxException failure) {
                    throw withoutPosition(failure);
                }
                named.query().countExecution();
                bound = ParameterBinder.bind(plan.parameterTypes(), java.util.Arrays.copyOf(arguments, plan.parameterTypes().size()));
            } else {
                plan = planFor(explain.query()).statement();
            }
        } catch (ParallaxException failure) {
            throw failure.position() > 0 ? failure.withPosition(failure.position() + explain.queryOffset()) : failure;
        }
        long planningNanos = System.nanoTime() - planningStart;
        List<String> lines = new ArrayList<>();
        if (!explain.options().analyze()) {
            if (bound == null) {
                lines.addAll(services.explain(plan.root(), explain.options()));
            } else {
                ExecutionContext context = newContext(bound, false);
                try {
                    lines.addAll(services.explainWithParameters(plan.root(), explain.options(), context));
                } finally {
                    running.finish(context);
                }
            }
            if (explain.options().printSummary()) {
                lines.add("Planning Time: " + milliseconds(planningNanos) + " ms");
            }
            return TextRowsResult.lines("QUERY PLAN", lines, "EXPLAIN");
        }
        if (bound == null) {
            bound = bindForExecute(plan.parameterTypes(), parameters);
        }
        ExecutionContext context = newContext(bound, true);
        long executionStart = System.nanoTime();
        try {
            lines.addAll(services.explainAnalyze(plan.root(), explain.options(), context));
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            running.finish(context);
        }
        long executionNanos = System.nanoTime() - executionStart;
        if (explain.options().printSummary()) {
            lines.add("Planning Time: " + milliseconds(planningNanos) + " ms");
            lines.add("Execution Time: " + milliseconds(executionNanos) + " ms");
        }
        return TextRowsResult.lines("QUERY PLAN", lines, "EXPLAIN");
    }

    /**
     * PREPARE: plans the statement now and keeps it under its name until DEALLOCATE or the end of
     * the session. EXECUTE coerces its arguments to the declared parameter types, and the plan
     * binds them as the types it inferred (the embedded API's inference); only when the planner
     * cannot type a parameter ({@code select $1}) is the statement planned with each parameter
     * cast to its declared type. As in PostgreSQL, a taken name (42P05) is reported only once the
     * statement planned.
     */
    private Result prepareNamed(PrepareStatement prepare) {
        List<DataType> declared = prepare.parameterTypes();
        String query = prepare.query();
        PlanCache.CachedPlan plan = null;
        ParallaxException inferenceFailure = null;
        try {
            plan = planFor(query);
        } catch (ParallaxException failure) {
            if (declared.isEmpty()) {
                throw withOffset(failure, prepare.queryOffset());
            }
            inferenceFailure = failure;
        }
        if (plan == null) {
            query = prepare.queryWithCasts();
            try {
                plan = planFor(query);
            } catch (ParallaxException failure) {
                throw withOffset(inferenceFailure != null ? inferenceFailure : failure, prepare.queryOffset());
            }
        }
        List<DataType> inferred = plan.statement().parameterTypes();
        List<DataType> types = new ArrayList<>(declared);
        for (int index = declared.size(); index < inferred.size(); index++) {
            types.add(inferred.get(index));
        }
        namedStatements.add(new NamedStatements.NamedStatement(prepare.name(), statementText, types, true,
                new SqlPreparedQuery(this, query, plan)));
        return new CommandResult("PREPARE");
    }

    /**
     * A failure of replanning a prepared statement (its table dropped): its position points into the
     * PREPARE's query, not into the EXECUTE that reports it, so it is left out.
     */
    private static ParallaxException withoutPosition(ParallaxException failure) {
        return failure.position() > 0 ? failure.withPosition(0) : failure;
    }

    private static ParallaxException withOffset(ParallaxException failure, int offset) {
        return failure.position() > 0 ? failure.withPosition(failure.position() + offset) : failure;
    }

    /**
     * EXECUTE's arguments for {@code named}: one per parameter (42601 with PostgreSQL's detail
     * otherwise), evaluated and coerced to the parameter types, as many as its plan binds.
     */
    private Object[] executeArguments(NamedStatements.NamedStatement named, ExecuteStatement execute) {
        List<DataType> types = named.parameterTypes();
        if (execute.arguments().size() != types.size()) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "wrong number of parameters for prepared statement \"%s\"", named.name())
                    .withDetail(String.format(Locale.ROOT, "Expected %d parameters but got %d.", types.size(), execute.arguments().size()));
        }
        Object[] values = ExecuteArguments.evaluate(this, execute.arguments(), types);
        return java.util.Arrays.copyOf(values, named.query().parameterTypes().size());
    }

    /**
     * Binds parameters given to {@link #execute(String, Object...)}: when none were given but the
     * statement has placeholders, PostgreSQL's "there is no parameter $1" (42P02).
     */
    private static Object[] bindForExecute(List<DataType> types, Object[] values) {
        if (values.length == 0 && !types.isEmpty()) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $1");
        }
        return ParameterBinder.bind(types, values);
    }

    private static boolean modifiesData(PlanNode node) {
        if (node instanceof ModifyTableNode) {
            return true;
        }
        for (PlanNode input : node.inputs()) {
            if (modifiesData(input)) {
                return true;
            }
        }
        return false;
    }

    /** Runs DML to completion; its plan yields the affected-row count in a BIGINT column. */
    private static long drainCount(Operator operator, ExecutionContext context) {
        long count = 0;
        Batch batch;
        while (true) {
            context.checkCancelled();
            batch = operator.next();
            if (batch == null) {
                return count;
            }
            if (batch.columnCount() == 0 || !(batch.column(0) instanceof LongVector counts)) {
                count += batch.selectedCount();
                continue;
            }
            long[] values = counts.values();
            for (int index = 0; index < batch.selectedCount(); index++) {
                count += values[batch.position(index)];
            }
        }
    }

    /** PostgreSQL's tag: {@code INSERT 0 n} (the 0 is the historical OID), otherwise {@code NAME n}. */
    private static String commandTag(String commandName, long count) {
        String name = commandName.toUpperCase(Locale.ROOT);
        return name.equals("INSERT") ? "INSERT 0 " + count : name + " " + count;
    }

    static String milliseconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0);
    }

    private void checkOpen() {
        if (closed) {
            throw new ParallaxException(SqlState.CONNECTION_FAILURE, "the session is closed");
        }
    }
}
