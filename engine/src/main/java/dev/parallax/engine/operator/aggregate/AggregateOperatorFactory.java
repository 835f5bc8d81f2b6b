package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;

/** Instantiates an {@link AggregateNode} with a fresh hash aggregation for this participant. */
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
        HashAggregation aggregation = new HashAggregation(node.mode(), keyColumns, keyTypes, node.calls());
        Batch output = Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY);
        return new AggregateOperator(builder.context(), builder.build(node.input()), aggregation, output);
    }
}
