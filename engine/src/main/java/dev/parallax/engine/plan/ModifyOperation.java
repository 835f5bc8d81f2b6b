package dev.parallax.engine.plan;

/** What a {@link ModifyTableNode} does to its table (PostgreSQL's CmdType of a ModifyTable). */
public enum ModifyOperation {
    /** Appends the input rows, optionally resolving conflicts ({@link OnConflict}). */
    INSERT,
    /** Replaces each matching row by a new version computed from it. */
    UPDATE,
    /** Kills each matching row. */
    DELETE
}
