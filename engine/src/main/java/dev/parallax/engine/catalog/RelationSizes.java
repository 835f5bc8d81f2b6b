package dev.parallax.engine.catalog;

/**
 * Where PostgreSQL's size functions ({@code pg_table_size}, {@code pg_relation_size},
 * {@code pg_indexes_size}, {@code pg_total_relation_size}, {@code pg_database_size}) read the bytes
 * relations hold while a statement runs: sizes change with every insert and VACUUM without a
 * catalog change, so they are read at execution, never folded into a plan.
 */
public interface RelationSizes {
    /** No catalog attached (an execution outside a session): every relation is unknown. */
    RelationSizes NONE = () -> RelationSizeSnapshot.EMPTY;

    /**
     * The sizes of every relation now. Called by the thread evaluating a size function, once per
     * batch it evaluates; the snapshot is then read for each row of the batch.
     */
    RelationSizeSnapshot read();
}
