package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;

/** Instantiates an {@link AggregateNode} with a fresh hash aggregation for this participant, spilling past {@code work_mem × hash_mem_multiplier}. */
public final class AggregateOperatorFactory {
    private AggregateOperatorFactory() {
    }

    public static Operator create(AggregateNode node, OperatorBuilder builder) {
        int[] keyColumns = node.groupKeys();
        List<DataType> inputTypes = node.input().outputTypes();
        List<DataType> keyTypes = new ArrayList<>();
        for (int key : keyColumns) {
            keyTypes.add(inputTypes.get(key));
        }
        HashAggregation aggregation = new HashAggregation(node.mode(), keyColumns, keyTypes, node.calls(), node.firstStateColumn());
        TemporaryDirectory spillDirectory = null;
        if (keyColumns.length > 0) {
            HashSpillOptions options = HashSpillOptions.fromSettings(builder.context().settings());
            spillDirectory = new TemporaryDirectory(options.tempDirectory(), "hash");
            aggregation.enableSpill(options, spillDirectory, inputTypes, 0);
        }
        Batch output = Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY);
        AggregateOperator operator = new AggregateOperator(builder.context(), builder.build(node.input()), aggregation, output, spillDirectory);
        if (node.groupingSets() != null && node.groupingSets().emptySetOrdinal() >= 0 && node.mode() != dev.parallax.engine.plan.AggregateMode.PARTIAL) {
            operator.emitForEmptyInput(new EmptyGroupingSetRow(node.mode(), node.calls(), keyColumns.length,
                    node.groupingSets().emptySetOrdinal()));
        }
        NodeStatistics statistics = builder.statistics(node);
        if (statistics != null && keyColumns.length > 0) {
            operator.reportTo(statistics.participant(builder.participant()));
        }
        return operator;
    }
}
