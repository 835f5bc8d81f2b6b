package dev.parallax.engine.operator.append;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Passes the batches of its inputs one input after another, closing each input as soon as it is
 * exhausted so that its memory (a sort's buffers, a Gather's workers) is released before the next
 * input runs, as PostgreSQL's Append shuts down finished subplans.
 */
public final class AppendOperator implements Operator {
    private final Operator[] inputs;
    private int current;

    public AppendOperator(List<Operator> inputs) {
        this.inputs = inputs.toArray(Operator[]::new);
    }

    @Override
    public Batch next() {
        while (current < inputs.length) {
            Batch batch = inputs[current].next();
            if (batch != null) {
                return batch;
            }
            inputs[current].close();
            inputs[current] = null;
            current++;
        }
        return null;
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (int index = current; index < inputs.length; index++) {
            try {
                if (inputs[index] != null) {
                    inputs[index].close();
                    inputs[index] = null;
                }
            } catch (RuntimeException exception) {
                if (failure == null) {
                    failure = exception;
                } else {
                    failure.addSuppressed(exception);
                }
            }
        }
        current = inputs.length;
        if (failure != null) {
            throw failure;
        }
    }
}
