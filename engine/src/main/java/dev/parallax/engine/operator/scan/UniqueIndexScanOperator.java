package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

/** Returns the one row (or none) a {@link UniqueIndexLookup} finds for the resolved key values. */
public final class UniqueIndexScanOperator implements Operator {
    private final UniqueIndexLookup lookup;
    private final Object[] keyValues;
    private boolean done;

    public UniqueIndexScanOperator(UniqueIndexLookup lookup, Object[] keyValues) {
        this.lookup = lookup;
        this.keyValues = keyValues.clone();
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        return lookup.lookup(keyValues);
    }

    @Override
    public void close() {
        done = true;
    }
}
