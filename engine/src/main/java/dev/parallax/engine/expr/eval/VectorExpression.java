package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/**
 * A compiled scalar expression. One instance per operator instance (it owns reusable output
 * buffers), used by one thread.
 */
public interface VectorExpression {
    /**
     * Evaluates the expression for the live rows of {@code input} (honouring its selection) and
     * returns a vector indexed like the input's positions: values are defined only at live
     * positions. The vector belongs to this evaluator and is overwritten by the next call.
     */
    ColumnVector evaluate(Batch input);
}
