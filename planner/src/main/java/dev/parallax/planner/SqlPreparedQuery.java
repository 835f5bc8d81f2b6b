package dev.parallax.planner;

import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.result.ClientMessagesResult;

import java.util.List;
import java.util.Objects;

/**
 * A statement prepared by a {@link SqlSession}. A query keeps its plan and runs it with new
 * parameter values without going back to Calcite (a point lookup by unique key without the
 * executor either, {@link PointLookupPlan}); it is planned again only when the catalog
 * changed or a scanned table changed size, and then must keep its result columns. A utility
 * statement (CREATE TABLE, SET, ...) has no parameters and simply runs again.
 */
final class SqlPreparedQuery implements PreparedQuery {
    private final SqlSession session;
    private final String sql;
    private final List<ResultColumn> columns;
    private final List<DataType> parameterTypes;
    private final boolean utility;
    private PlanCache.CachedPlan plan;
    /** The executor-free path when the plan is a point lookup by unique key (see {@link PointLookupPlan}), else null. */
    private PointLookupPlan pointLookup;
    /** The executor-free path when the plan is a single-row INSERT [ON CONFLICT] (see {@link PointUpsertPlan}), else null. */
    private PointUpsertPlan pointUpsert;
    private boolean closed;
    /** Executions so far (EXPLAIN EXECUTE included), for pg_prepared_statements. */
    private long executions;

    /** A prepared query with its plan. */
    SqlPreparedQuery(SqlSession session, String sql, PlanCache.CachedPlan plan) {
        this.session = session;
        this.sql = sql;
        this.plan = Objects.requireNonNull(plan, "plan");
        this.pointLookup = PointLookupPlan.of(session.catalog(), plan.catalogVersion(), plan.statement());
        this.pointUpsert = PointUpsertPlan.of(session, plan.catalogVersion(), plan.statement());
        this.columns = plan.statement().columns();
        this.parameterTypes = plan.statement().parameterTypes();
        this.utility = false;
    }

    /** A prepared utility statement, run from its text each time. */
    SqlPreparedQuery(SqlSession session, String sql, List<ResultColumn> columns) {
        this.session = session;
        this.sql = sql;
        this.plan = null;
        this.columns = List.copyOf(columns);
        this.parameterTypes = List.of();
        this.utility = true;
    }

    @Override
    public String sql() {
        return sql;
    }

    @Override
    public List<DataType> parameterTypes() {
        return parameterTypes;
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public Result execute(Object... parameters) {
        if (closed) {
            throw ParallaxException.of(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"\" does not exist");
        }
        if (utility) {
            ParameterBinder.bind(List.of(), parameters);
            return session.execute(sql);
        }
        session.statementStarts();
        TransactionBlock transaction = session.transactionBlock();
        transaction.checkNotFailed();
        try {
            return transaction.watch(ClientMessagesResult.filter(run(parameters), session.settings()));
        } catch (RuntimeException failure) {
            transaction.statementFailed();
            throw failure;
        }
    }

    /**
     * Runs with {@code parameters} inside a statement the session is already running (SQL EXECUTE),
     * which watches the transaction block itself.
     */
    Result run(Object[] parameters) {
        executions++;
        if (utility) {
            ParameterBinder.bind(List.of(), parameters);
            return session.execute(sql);
        }
        if (pointLookup != null && pointLookup.isValid()) {
            session.noteStatement(sql);
            try {
                return pointLookup.execute(parameters);
            } catch (RuntimeException failure) {
                // A rewrite (ALTER TABLE, CREATE UNIQUE INDEX, DROP INDEX) closed the index or the table
                // the plan read after the check: nothing was returned; plan again below.
                if (pointLookup.isValid()) {
                    throw failure;
                }
            }
        }
        if (pointUpsert != null && pointUpsert.isValid()) {
            session.noteStatement(sql);
            Result result;
            try {
                result = pointUpsert.execute(parameters, session);
            } catch (RuntimeException failure) {
                // A rewrite (ALTER TABLE, CREATE UNIQUE INDEX, DROP INDEX) replaced the table after the check
                // (40001 from its closed storage, or its closed index): nothing was written; plan again
                // below, as PostgreSQL's statement would have waited for the lock.
                if (pointUpsert.isValid()) {
                    throw failure;
                }
                result = null;
            }
            if (result != null) {
                if (result.rowCount() > 0) {
                    session.transactionBlock().dataChanged();
                }
                return result;
            }
        }
        Object[] bound = ParameterBinder.bind(parameterTypes, parameters);
        PlannedStatement statement = validPlan();
        session.noteStatement(sql);
        try {
            return session.start(statement, bound);
        } catch (ParallaxException failure) {
            // ALTER TABLE replaced a table of the plan after the check (40001, nothing read or written): plan again once.
            if (failure.state() != SqlState.SERIALIZATION_FAILURE || plan.isValid(session.catalog())) {
                throw failure;
            }
        }
        return session.start(validPlan(), bound);
    }

    /**
     * The plan to run now: the one made at prepare time, or after DDL (or a scanned table's growth)
     * made it stale a new one, which must keep the result columns and parameter types (0A000
     * "cached plan must not change result type", as PostgreSQL says); a dropped table fails here with 42P01.
     */
    PlannedStatement validPlan() {
        if (utility) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "EXPLAIN of a prepared utility statement is not supported");
        }
        if (!plan.isValid(session.catalog())) {
            PlanCache.CachedPlan replanned = session.planFor(sql);
            if (!replanned.statement().columns().equals(columns)
                    || !replanned.statement().parameterTypes().equals(parameterTypes)) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cached plan must not change result type");
            }
            plan = replanned;
            pointLookup = PointLookupPlan.of(session.catalog(), replanned.catalogVersion(), replanned.statement());
            pointUpsert = PointUpsertPlan.of(session, replanned.catalogVersion(), replanned.statement());
        }
        return plan.statement();
    }

    /** Counts an execution that did not go through {@link #run} (EXPLAIN EXECUTE). */
    void countExecution() {
        executions++;
    }

    /**
     * Executions so far. Each runs the plan made once at prepare time (or made again after DDL)
     * with the parameters bound at execution start: what PostgreSQL calls a generic plan.
     */
    long executions() {
        return executions;
    }

    @Override
    public boolean isPointLookup() {
        return !closed && pointLookup != null && pointLookup.isValid();
    }

    @Override
    public void close() {
        closed = true;
        plan = null;
        pointLookup = null;
        pointUpsert = null;
    }
}
