package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.statement.StatementNormalizer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans shared by statements that differ only in constants, for texts sent without parameters
 * (the simple query protocol, {@code Session.execute(sql)}): {@code select * from t where id = 42}
 * runs the plan of {@code select * from t where id = $1} with 42 bound, and a point lookup by
 * unique key or a single-row INSERT [ON CONFLICT] takes the executor-free path that prepared
 * statements take ({@link PointLookupPlan}, {@link PointUpsertPlan}).
 * Without this every such text was planned by Calcite anew (pgbench -M simple: ~111 tps against
 * PostgreSQL's ~6,655, 2026-11-22).
 *
 * <p>Only plans whose shape cannot depend on the constants' values are shared: point lookups by
 * unique key (whose partition is chosen per execution), INSERT ... VALUES (with ON CONFLICT), and
 * UPDATE / DELETE by unique key. Everything else (scans, joins, aggregates, whose costs and
 * pruning depend on the values) is planned from its own text as before. A shape is accepted once,
 * the first time it is seen, if its result columns equal those of the text's own plan; then each
 * execution checks that its constants convert to the inferred parameter types as the constants
 * themselves would (an integer constant only into a numeric parameter and within its range; a
 * string constant into any type, through that type's text input as PostgreSQL coerces an
 * untyped literal), and otherwise falls back to the text's own plan. Used by the session's thread only.
 */
final class AutoParameterization {
    private static final int CAPACITY = 256;

    private final SqlSession session;
    private final Catalog catalog;
    private final Map<String, Decision> decisions = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Decision> eldest) {
            return size() > CAPACITY;
        }
    };
    private long catalogVersion;

    AutoParameterization(SqlSession session, Catalog catalog) {
        this.session = session;
        this.catalog = catalog;
        this.catalogVersion = catalog.version();
    }

    /**
     * What was decided for one shape: the shared plan (and its point-lookup or point-upsert path,
     * each used by this session's thread only), or {@link #REJECTED} when the shape is not shared.
     */
    private record Decision(PlanCache.CachedPlan plan, PointLookupPlan pointLookup, PointUpsertPlan pointUpsert,
                            List<DataType> parameterTypes) {
        static final Decision REJECTED = new Decision(null, null, null, List.of());
    }

    /**
     * Runs {@code sql} (a query without parameters) through the shared plan of its shape, or
     * returns null when the caller must plan and run the text itself: no constants to take out,
     * a shape whose plan is not shared, constants the plan cannot take, or the first time a shape
     * is seen (its decision is made now, planning the text too, which the caller then finds cached).
     */
    Result tryExecute(String sql) {
        StatementNormalizer.Normalized normalized = StatementNormalizer.normalize(sql);
        if (normalized == null) {
            return null;
        }
        if (catalog.version() != catalogVersion) {
            decisions.clear();
            catalogVersion = catalog.version();
        }
        String shape = normalized.shape();
        Decision decision = decisions.get(shape);
        if (decision == null) {
            decisions.put(shape, decide(sql, normalized));
            return null;
        }
        if (decision == Decision.REJECTED) {
            return null;
        }
        Object[] values = arguments(decision.parameterTypes(), normalized.constants());
        if (values == null) {
            return null;
        }
        PlanCache.CachedPlan plan = session.planFor(shape);
        if (plan != decision.plan()) {
            // Planned again (catalog or settings changed): decide again from the text's own plan.
            decisions.put(shape, decide(sql, normalized));
            return null;
        }
        if (decision.pointLookup() != null && decision.pointLookup().isValid()) {
            session.noteStatement(sql);
            return decision.pointLookup().execute(values);
        }
        if (decision.pointUpsert() != null && decision.pointUpsert().isValid()) {
            session.noteStatement(sql);
            Result result = decision.pointUpsert().execute(values, session);
            if (result.rowCount() > 0) {
                session.transactionBlock().dataChanged();
            }
            return result;
        }
        return session.start(plan.statement(), ParameterBinder.bind(decision.parameterTypes(), values));
    }

    int size() {
        return decisions.size();
    }

    void clear() {
        decisions.clear();
    }

    private Decision decide(String sql, StatementNormalizer.Normalized normalized) {
        // The text's own plan: its failure is the statement's, and the caller runs it this time.
        List<ResultColumn> columns = session.planFor(sql).statement().columns();
        PlanCache.CachedPlan shared;
        try {
            shared = session.planFor(normalized.shape());
        } catch (RuntimeException notPlannable) {
            // E.g. a parameter whose type nothing determines: the shape is not shared.
            return Decision.REJECTED;
        }
        PlannedStatement statement = shared.statement();
        List<DataType> types = statement.parameterTypes();
        if (types.size() != normalized.constants().size() || !statement.columns().equals(columns)) {
            return Decision.REJECTED;
        }
        for (DataType type : types) {
            if (type.kind() == dev.parallax.engine.type.TypeKind.NULL) {
                return Decision.REJECTED;
            }
        }
        PointLookupPlan pointLookup = PointLookupPlan.of(catalog, shared.catalogVersion(), statement);
        if (pointLookup == null && !isValueIndependentModification(statement.root())) {
            return Decision.REJECTED;
        }
        PointUpsertPlan pointUpsert = pointLookup == null ? PointUpsertPlan.of(session, shared.catalogVersion(), statement) : null;
        return new Decision(shared, pointLookup, pointUpsert, types);
    }

    /** INSERT ... VALUES (ON CONFLICT included) and UPDATE / DELETE through a unique-key lookup, without RETURNING. */
    private static boolean isValueIndependentModification(PlanNode root) {
        if (root instanceof InsertNode insert) {
            return readsNoTable(insert.input());
        }
        if (!(root instanceof ModifyTableNode modify) || !modify.returning().isEmpty()) {
            return false;
        }
        if (modify.operation() == ModifyOperation.INSERT) {
            return readsNoTable(modify.input());
        }
        return modify.lookup() != null;
    }

    private static boolean readsNoTable(PlanNode node) {
        if (!(node instanceof ValuesNode) && !(node instanceof ProjectNode)) {
            return false;
        }
        for (PlanNode input : node.inputs()) {
            if (!readsNoTable(input)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The constants as parameter values, or null when one would not mean what the constant means
     * (an integer constant for a non-numeric parameter, or out of the parameter's integer range,
     * where PostgreSQL would have compared it as a wider type).
     */
    private static Object[] arguments(List<DataType> types, List<StatementNormalizer.Constant> constants) {
        Object[] values = new Object[constants.size()];
        for (int index = 0; index < values.length; index++) {
            StatementNormalizer.Constant constant = constants.get(index);
            if (constant.isInteger()) {
                long value = (Long) constant.value();
                boolean fits = switch (types.get(index).kind()) {
                    case SMALLINT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
                    case INTEGER -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
                    case BIGINT, DECIMAL, REAL, DOUBLE -> true;
                    default -> false;
                };
                if (!fits) {
                    return null;
                }
            }
            values[index] = constant.value();
        }
        return values;
    }
}
