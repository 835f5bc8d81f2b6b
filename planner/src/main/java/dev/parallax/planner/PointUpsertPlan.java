package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.operator.dml.PointUpsert;
import dev.parallax.engine.expr.eval.StatementValues;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;

import java.time.Instant;
import java.util.List;

/**
 * The fast path of a prepared single-row INSERT [ON CONFLICT] without RETURNING (the seed's
 * {@code insert into t values ($1, md5(random()::text), now()) on conflict (id) do update set ...}):
 * the plan cache's plan holds a {@link PointUpsert} built once, so an execution binds the
 * parameters, sets now() and runs it: no Calcite, no operator tree, no execution context, and a
 * result made once per row count. Valid while the catalog version is the one it was planned at
 * (the caller falls back to the general path, which plans again, otherwise). Used by the session's thread only.
 */
final class PointUpsertPlan {
    private final Catalog catalog;
    private final long catalogVersion;
    private final List<DataType> parameterTypes;
    private final PointUpsert upsert;
    /** The results of 0 and 1 rows changed ({@code INSERT 0 0}, {@code INSERT 0 1}): immutable, shared by executions. */
    private final Result noRow = new CommandResult("INSERT 0 0", 0, List.of());
    private final Result oneRow = new CommandResult("INSERT 0 1", 1, List.of());

    private PointUpsertPlan(Catalog catalog, long catalogVersion, List<DataType> parameterTypes, PointUpsert upsert) {
        this.catalog = catalog;
        this.catalogVersion = catalogVersion;
        this.parameterTypes = parameterTypes;
        this.upsert = upsert;
    }

    /** The fast path for {@code statement} (planned at {@code catalogVersion}), or null when it is not a single-row insert. */
    static PointUpsertPlan of(SqlSession session, long catalogVersion, PlannedStatement statement) {
        if (statement.returnsRows()) {
            return null;
        }
        // Compilation reads the session's settings, nothing per execution: parameters and now() come with each execution.
        ExecutionContext compiling = new ExecutionContext(session.database().memory(), session.database().workers(),
                session.settings().snapshot(), null, 0, false);
        compiling.setSequences(session.sequences());
        PointUpsert upsert = PointUpsert.of(statement.root(), compiling);
        return upsert == null ? null : new PointUpsertPlan(session.catalog(), catalogVersion, statement.parameterTypes(), upsert);
    }

    /** Whether the plan still describes the catalog (no DDL since it was made). */
    boolean isValid() {
        return catalog.version() == catalogVersion;
    }

    /** Runs the insert with {@code parameters} (the application's values, not yet bound) in {@code session}'s transaction (its now()); the rows changed are its row count. */
    Result execute(Object[] parameters, SqlSession session) {
        Object[] supplied = parameters == null ? new Object[0] : parameters;
        if (supplied.length != parameterTypes.size()) {
            ParameterBinder.bind(parameterTypes, supplied); // PostgreSQL's 08P01 for the wrong count
        }
        StatementValues values = upsert.values();
        values.setCount(supplied.length);
        for (int index = 0; index < supplied.length; index++) {
            DataType type = parameterTypes.get(index);
            Object value = supplied[index];
            if (ParameterBinder.isIntegerKind(type.kind()) && (value instanceof Integer || value instanceof Long || value instanceof Short)) {
                // The usual integer key goes in unboxed; the binder only checks its range.
                long number = ((Number) value).longValue();
                ParameterBinder.checkIntegerRange(type, number);
                values.setLong(index, number);
            } else {
                values.set(index, ParameterBinder.convert(type, value));
            }
        }
        Instant now = Instant.now();
        long startMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
        values.setStartMicros(startMicros, session.transactionStartMicros(startMicros));
        long changed;
        try {
            changed = upsert.execute();
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        }
        return changed == 0 ? noRow : oneRow;
    }
}
