package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.GroupingSets;
import dev.parallax.engine.plan.GroupingSetsExpandNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;

/**
 * GROUP BY GROUPING SETS, ROLLUP and CUBE (an Aggregate with several group sets), and GROUPING(...):
 * a {@link GroupingSetsExpandNode} hands each input row to every set, one hash aggregation groups by
 * the keys and the set ordinal (so a parallel plan is the usual Partial/Finalize pair), and a
 * projection drops the ordinal and computes each GROUPING call from it.
 */
final class GroupingSetsTranslator {
    private GroupingSetsTranslator() {
    }

    /** GROUPING(...) is computed from the set a row belongs to, not aggregated. */
    static boolean isGroupingFunction(org.apache.calcite.rel.core.AggregateCall call) {
        return call.getAggregation().getKind() == SqlKind.GROUPING;
    }

    /** The sets of {@code aggregate}, each as positions among its group columns. */
    static GroupingSets groupingSets(Aggregate aggregate) {
        List<Integer> groupColumns = aggregate.getGroupSet().asList();
        List<int[]> sets = new ArrayList<>();
        for (ImmutableBitSet set : aggregate.getGroupSets()) {
            sets.add(set.asList().stream().mapToInt(groupColumns::indexOf).toArray());
        }
        return new GroupingSets(sets);
    }

    /** {@code input} expanded once per set; the aggregation then groups by the returned key columns. */
    static GroupingSetsExpandNode expand(PlanNode input, int[] keys, GroupingSets sets, RelTranslator translator) {
        GroupingSetsExpandNode expand = new GroupingSetsExpandNode(input, keys, sets, dev.parallax.engine.plan.PlanEstimate.UNKNOWN);
        return new GroupingSetsExpandNode(input, keys, sets,
                translator.cost().projectSet(input.estimate(), sets.sets().size(), 0, expand.outputTypes()));
    }

    /**
     * Calcite's output of {@code aggregate} over {@code aggregation}'s: the group columns, then per
     * call its result, a GROUPING call's being PostgreSQL's bit mask (the leftmost argument the
     * highest bit, set where the row's grouping set does not group by the argument). {@code sets}
     * is null for a plain GROUP BY (a single set holding every group column, ordinal absent).
     */
    static PlanNode project(Aggregate aggregate, AggregateNode aggregation, GroupingSets sets, RelTranslator translator) {
        List<Integer> groupColumns = aggregate.getGroupSet().asList();
        List<DataType> types = aggregation.outputTypes();
        List<Expr> expressions = new ArrayList<>();
        for (int key = 0; key < groupColumns.size(); key++) {
            expressions.add(new ColumnRef(key, types.get(key)));
        }
        int ordinalColumn = groupColumns.size();
        int nextResult = sets == null ? groupColumns.size() : groupColumns.size() + 1;
        List<ImmutableBitSet> groupSets = sets == null ? List.of(aggregate.getGroupSet()) : aggregate.getGroupSets();
        for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
            if (!isGroupingFunction(call)) {
                expressions.add(new ColumnRef(nextResult, types.get(nextResult)));
                nextResult++;
                continue;
            }
            if (call.getArgList().size() >= Integer.SIZE) {
                throw ParallaxException.of(SqlState.TOO_MANY_ARGUMENTS, "GROUPING must have fewer than 32 arguments");
            }
            DataType type = TypeMapping.toEngine(call.getType());
            List<Expr> conditions = new ArrayList<>();
            List<Expr> results = new ArrayList<>();
            for (int ordinal = 0; ordinal < groupSets.size(); ordinal++) {
                long mask = 0;
                for (int argument : call.getArgList()) {
                    mask = mask << 1 | (groupSets.get(ordinal).get(argument) ? 0 : 1);
                }
                conditions.add(new Call(Function.EQUAL, DataType.BOOLEAN, new ColumnRef(ordinalColumn, DataType.INTEGER),
                        Literal.ofLong(ordinal, DataType.INTEGER)));
                results.add(Literal.ofLong(mask, type));
            }
            expressions.add(results.size() == 1 ? results.getFirst() : new Case(conditions, results, Literal.nullOf(type), type));
        }
        List<DataType> outputTypes = expressions.stream().map(Expr::type).toList();
        return new ProjectNode(aggregation, expressions, translator.cost().project(aggregation.estimate(), expressions, outputTypes));
    }
}
