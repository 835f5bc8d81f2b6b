package dev.parallax.engine.explain;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

/**
 * Wraps an operator under EXPLAIN ANALYZE: times each call (inputs included, as PostgreSQL
 * does), counts live rows, and records one loop when closed. One clock read pair per batch.
 */
public final class InstrumentedOperator implements Operator {
    private final Operator operator;
    private final ParticipantStatistics statistics;
    private long rows;
    private long totalNanos;
    private long firstNanos = -1;
    private boolean closed;

    public InstrumentedOperator(Operator operator, ParticipantStatistics statistics) {
        this.operator = operator;
        this.statistics = statistics;
    }

    @Override
    public Batch next() {
        long start = System.nanoTime();
        Batch batch = operator.next();
        totalNanos += System.nanoTime() - start;
        if (firstNanos < 0) {
            firstNanos = totalNanos;
        }
        if (batch != null) {
            rows += batch.selectedCount();
        }
        return batch;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            operator.close();
        } finally {
            if (firstNanos >= 0) {
                statistics.recordLoop(rows, firstNanos, totalNanos);
            }
        }
    }
}
