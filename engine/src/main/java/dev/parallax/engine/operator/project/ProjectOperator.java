package dev.parallax.engine.operator.project;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/**
 * Computes one column per expression. The output batch is made of the evaluators' result
 * vectors and keeps the input's positions and selection, so nothing is copied.
 */
public final class ProjectOperator implements Operator {
    private final Operator input;
    private final VectorExpression[] expressions;
    private final ColumnVector[] results;
    private final Batch output;

    public ProjectOperator(Operator input, VectorExpression[] expressions) {
        this.input = input;
        this.expressions = expressions;
        this.results = new ColumnVector[expressions.length];
        this.output = new Batch(results);
    }

    @Override
    public Batch next() {
        Batch batch = input.next();
        if (batch == null) {
            return null;
        }
        for (int index = 0; index < expressions.length; index++) {
            results[index] = expressions[index].evaluate(batch);
        }
        output.setRowCount(batch.rowCount());
        if (batch.selection() != null) {
            output.setSelection(batch.selection(), batch.selectedCount());
        }
        return output;
    }

    @Override
    public void close() {
        input.close();
    }
}
