package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.operator.aggregate.AggregateStates;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.schema.EngineTable;
import dev.parallax.planner.query.schema.TypeMapping;
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
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "GROUPING SETS, ROLLUP and CUBE are not supported yet");
        }
        // Input column of each Calcite field index: the identity, except over a bare table scan,
        // which reads only the key and argument columns (count(*) reads none).
        int[] inputColumn;
        PlanNode input;
        if (aggregate.getInput() instanceof TableScan scan) {
            Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
            ImmutableBitSet.Builder used = ImmutableBitSet.builder().addAll(aggregate.getGroupSet());
            aggregate.getAggCallList().forEach(call -> {
                used.addAll(call.getArgList());
                if (call.filterArg >= 0) {
                    used.set(call.filterArg);
                }
            });
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
        int[] keys = aggregate.getGroupSet().asList().stream().mapToInt(key -> inputColumn[key]).toArray();
        List<AggregateCall> calls = new ArrayList<>();
        for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
            // By name first: Calcite gives bool_and and every the kind MIN, bool_or and some MAX.
            AggregateFunction function = switch (call.getAggregation().getName().toUpperCase(java.util.Locale.ROOT)) {
                case "BOOL_AND", "EVERY" -> AggregateFunction.BOOL_AND;
                case "BOOL_OR", "SOME" -> AggregateFunction.BOOL_OR;
                case "ARRAY_AGG" -> AggregateFunction.ARRAY_AGG;
                default -> switch (call.getAggregation().getKind()) {
                    case COUNT -> call.getArgList().isEmpty() ? AggregateFunction.COUNT_STAR : AggregateFunction.COUNT;
                    case SUM, SUM0 -> AggregateFunction.SUM;
                    case AVG -> AggregateFunction.AVG;
                    case MIN -> AggregateFunction.MIN;
                    case MAX -> AggregateFunction.MAX;
                    case SINGLE_VALUE -> AggregateFunction.SINGLE_VALUE;
                    default -> throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "aggregate %s is not supported",
                            call.getAggregation().getName().toLowerCase(java.util.Locale.ROOT));
                };
            };
            if (!call.getCollation().getFieldCollations().isEmpty()) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "ORDER BY in an aggregate's arguments is not supported yet: order its input instead");
            }
            int argument = call.getArgList().isEmpty() ? -1 : inputColumn[call.getArgList().getFirst()];
            DataType argumentType = argument < 0 ? DataType.BIGINT : input.outputTypes().get(argument);
            DataType resultType = TypeMapping.toEngine(call.getType());
            String name = call.getName() != null ? call.getName() : function.name().toLowerCase(java.util.Locale.ROOT);
            int filter = call.filterArg < 0 ? -1 : inputColumn[call.filterArg];
            calls.add(new AggregateCall(function, argument, call.isDistinct(), argumentType, resultType,
                    AggregateStates.stateTypes(function, argumentType, resultType), name, filter));
        }
        List<DataType> types = new ArrayList<>();
        for (int key : keys) {
            types.add(input.outputTypes().get(key));
        }
        calls.forEach(call -> types.add(call.resultType()));
        double groups = translator.cost().groups(input.estimate().rows(), keys.length);
        return new AggregateNode(input, AggregateMode.SINGLE, keys, calls,
                translator.cost().aggregate(input.estimate(), keys.length, calls.size(), groups, types));
    }
}
