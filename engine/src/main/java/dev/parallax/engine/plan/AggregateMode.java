package dev.parallax.engine.plan;

/**
 * The phase an aggregate node runs, as PostgreSQL splits parallel aggregation.
 * Output of PARTIAL = group keys then each call's intermediate state columns
 * ({@link AggregateCall#stateTypes()}); FINAL reads exactly that layout.
 */
public enum AggregateMode {
    /** Aggregate raw rows and emit final values (serial plan). EXPLAIN: "Aggregate"/"HashAggregate". */
    SINGLE,
    /** Aggregate raw rows into intermediate states, once per worker. EXPLAIN: "Partial Aggregate". */
    PARTIAL,
    /** Combine intermediate states from the workers and emit final values. EXPLAIN: "Finalize Aggregate". */
    FINAL
}
