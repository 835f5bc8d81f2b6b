package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.operator.aggregate.AggregateStates;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.GroupingSets;
import dev.parallax.engine.plan.GroupingSetsExpandNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.schema.EngineTable;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/** Aggregate → AggregateNode(SINGLE); ParallelPlanner splits it into PARTIAL and FINAL. */
final class AggregateTranslator {
    private AggregateTranslator() {
    }

    static PlanNode translate(Aggregate aggregate, RelTranslator translator) {
        // Input column of each Calcite field index: the identity, except over a bare table scan,
        // which reads only the key and argument columns (count(*) reads none).
        int[] inputColumn;
        PlanNode input;
        List<RelFieldCollation> inputOrder = inputOrder(aggregate);
        if (aggregate.getInput() instanceof TableScan scan) {
            Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
            ImmutableBitSet.Builder used = ImmutableBitSet.builder().addAll(aggregate.getGroupSet());
            aggregate.getAggCallList().forEach(call -> {
                used.addAll(call.getArgList());
                if (call.filterArg >= 0) {
                    used.set(call.filterArg);
                }
            });
            inputOrder.forEach(collation -> used.set(collation.getFieldIndex()));
            int[] columns = used.build().toArray();
            inputColumn = new int[table.columns().size()];
            for (int index = 0; index < columns.length; index++) {
                inputColumn[columns[index]] = index;
            }
            input = TableScanTranslator.scanOf(table, columns, translator);
        } else {
            input = translator.translate(aggregate.getInput());
            inputColumn = IntStream.range(0, input.outputTypes().size()).toArray();
        }
        if (!inputOrder.isEmpty()) {
            List<SortKey> sortKeys = new ArrayList<>(inputOrder.size());
            for (RelFieldCollation collation : inputOrder) {
                sortKeys.add(SortTranslator.sortKey(collation, inputColumn[collation.getFieldIndex()]));
            }
            // array_agg collects in arrival order and stays serial (ParallelPlanner): sorted input is ordered arrays.
            input = new SortNode(input, sortKeys, -1, translator.cost().sort(input.estimate(), input.estimate().rows(), -1));
        }
        int[] keys = aggregate.getGroupSet().asList().stream().mapToInt(key -> inputColumn[key]).toArray();
        GroupingSets groupingSets = null;
        PlanNode expanded = input;
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            groupingSets = GroupingSetsTranslator.groupingSets(aggregate);
            GroupingSetsExpandNode expand = GroupingSetsTranslator.expand(input, keys, groupingSets, translator);
            expanded = expand;
            keys = expand.aggregationKeys();
        }
        boolean groupingFunctions = false;
        List<AggregateCall> calls = new ArrayList<>();
        for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
            if (GroupingSetsTranslator.isGroupingFunction(call)) {
                groupingFunctions = true;
                continue;
            }
            // By name first: Calcite gives bool_and and every the kind MIN, bool_or and some MAX.
            AggregateFunction function = switch (call.getAggregation().getName().toUpperCase(java.util.Locale.ROOT)) {
                case "BOOL_AND", "EVERY" -> AggregateFunction.BOOL_AND;
                case "BOOL_OR", "SOME" -> AggregateFunction.BOOL_OR;
                case "ARRAY_AGG" -> AggregateFunction.ARRAY_AGG;
                case "PG_COLLECT" -> AggregateFunction.COLLECT;
                case "STDDEV", "STDDEV_SAMP" -> AggregateFunction.STDDEV_SAMP;
                case "STDDEV_POP" -> AggregateFunction.STDDEV_POP;
                case "VARIANCE", "VAR_SAMP" -> AggregateFunction.VAR_SAMP;
                case "VAR_POP" -> AggregateFunction.VAR_POP;
                default -> switch (call.getAggregation().getKind()) {
                    case COUNT -> call.getArgList().isEmpty() ? AggregateFunction.COUNT_STAR : AggregateFunction.COUNT;
                    case SUM, SUM0 -> AggregateFunction.SUM;
                    case AVG -> AggregateFunction.AVG;
                    case MIN -> AggregateFunction.MIN;
                    case MAX -> AggregateFunction.MAX;
                    case SINGLE_VALUE -> AggregateFunction.SINGLE_VALUE;
                    case BIT_AND -> AggregateFunction.BIT_AND;
                    case BIT_OR -> AggregateFunction.BIT_OR;
                    case BIT_XOR -> AggregateFunction.BIT_XOR;
                    default -> throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "aggregate %s is not supported",
                            call.getAggregation().getName().toLowerCase(java.util.Locale.ROOT));
                };
            };
            if (call.isDistinct() && !call.getCollation().getFieldCollations().stream()
                    .allMatch(collation -> call.getArgList().contains(collation.getFieldIndex()))) {
                throw ParallaxException.of(SqlState.INVALID_COLUMN_REFERENCE,
                        "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
            }
            int argument = call.getArgList().isEmpty() ? -1 : inputColumn[call.getArgList().getFirst()];
            DataType argumentType = argument < 0 ? DataType.BIGINT : input.outputTypes().get(argument);
            if ((function == AggregateFunction.BIT_AND || function == AggregateFunction.BIT_OR || function == AggregateFunction.BIT_XOR)
                    && argumentType.vectorKind() != dev.parallax.engine.type.VectorKind.LONG) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "%s of %s is not supported yet",
                        function.name().toLowerCase(java.util.Locale.ROOT), argumentType.nameWithoutModifier());
            }
            DataType resultType = TypeMapping.toEngine(call.getType());
            String name = call.getName() != null ? call.getName() : function.name().toLowerCase(java.util.Locale.ROOT);
            int filter = call.filterArg < 0 ? -1 : inputColumn[call.filterArg];
            calls.add(new AggregateCall(function, argument, call.isDistinct(), argumentType, resultType,
                    AggregateStates.stateTypes(function, argumentType, resultType), name, filter));
        }
        List<DataType> types = new ArrayList<>();
        for (int key : keys) {
            types.add(expanded.outputTypes().get(key));
        }
        calls.forEach(call -> types.add(call.resultType()));
        double groups = groupingSets == null ? translator.cost().groups(input.estimate().rows(), keys.length)
                : translator.cost().groups(input.estimate().rows(), groupingSets);
        AggregateNode aggregation = new AggregateNode(expanded, AggregateMode.SINGLE, keys, calls,
                translator.cost().aggregate(expanded.estimate(), keys.length, calls.size(), groups, types), groupingSets);
        return groupingSets == null && !groupingFunctions ? aggregation
                : GroupingSetsTranslator.project(aggregate, aggregation, groupingSets, translator);
    }

    /**
     * The order {@code array_agg(x ORDER BY y)} (and string_agg, rewritten to it) needs its input
     * in, or none. The other aggregates do not depend on the order of their input, so one sort
     * serves a query whose ordered aggregates all share one ORDER BY; different ones are not
     * supported. Without an ORDER BY, {@code array_agg(DISTINCT x)} orders by x, as PostgreSQL's
     * sort-based DISTINCT does.
     */
    private static List<RelFieldCollation> inputOrder(Aggregate aggregate) {
        List<RelFieldCollation> order = List.of();
        List<RelFieldCollation> distinctOrder = List.of();
        for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
            if (!call.getAggregation().getName().equalsIgnoreCase("ARRAY_AGG")) {
                continue;
            }
            List<RelFieldCollation> collations = call.getCollation().getFieldCollations();
            if (collations.isEmpty()) {
                if (call.isDistinct() && distinctOrder.isEmpty() && call.getArgList().size() == 1) {
                    distinctOrder = List.of(new RelFieldCollation(call.getArgList().getFirst()));
                }
                continue;
            }
            if (!order.isEmpty() && !order.equals(collations)) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "aggregates with different ORDER BY clauses in one query are not supported");
            }
            order = collations;
        }
        return order.isEmpty() ? distinctOrder : order;
    }
}
