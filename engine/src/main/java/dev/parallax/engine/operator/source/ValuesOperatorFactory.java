package dev.parallax.engine.operator.source;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Instantiates a {@link ValuesNode}: evaluates every row once per execution (parameters and
 * volatile functions such as random() get their value for this execution) into batches.
 */
public final class ValuesOperatorFactory {
    private ValuesOperatorFactory() {
    }

    public static Operator create(ValuesNode node, OperatorBuilder builder) {
        List<List<Expr>> rows = node.rows();
        int batchCount = (rows.size() + Batch.DEFAULT_CAPACITY - 1) / Batch.DEFAULT_CAPACITY;
        Batch[] batches = new Batch[batchCount];
        for (int batchIndex = 0; batchIndex < batchCount; batchIndex++) {
            int first = batchIndex * Batch.DEFAULT_CAPACITY;
            int count = Math.min(Batch.DEFAULT_CAPACITY, rows.size() - first);
            Batch batch = Batch.create(node.outputTypes(), count);
            for (int row = 0; row < count; row++) {
                List<Expr> values = rows.get(first + row);
                for (int column = 0; column < values.size(); column++) {
                    ConstantValues.store(batch.column(column), row, ConstantValues.evaluate(values.get(column), builder.context()));
                }
            }
            batch.setRowCount(count);
            batches[batchIndex] = batch;
        }
        return new ValuesOperator(batches);
    }
}
