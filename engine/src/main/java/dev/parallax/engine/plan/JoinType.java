package dev.parallax.engine.plan;

/**
 * The kind of a join, stated for the engine's two inputs: the <em>probe</em> (outer) input, whose
 * rows stream through, and the <em>build</em> (inner) input, which is materialized first. A row
 * of one side matches a row of the other when every equi-key pair is equal (a NULL key never
 * matches, as in PostgreSQL) and the residual condition, if any, is TRUE.
 */
public enum JoinType {
    /** Pairs of matching rows. */
    INNER,
    /** Pairs of matching rows, plus each probe row without a match with NULLs for the build columns. */
    LEFT,
    /** Pairs of matching rows, plus each build row without a match with NULLs for the probe columns. */
    RIGHT,
    /** LEFT and RIGHT together. */
    FULL,
    /** Each probe row that has at least one match, once (EXISTS, IN); output is probe columns only. */
    SEMI,
    /** Each probe row without any match, NULL-key rows included (NOT EXISTS); output is probe columns only. */
    ANTI;

    /** Whether output rows pair a probe row with a build row (false for SEMI and ANTI). */
    public boolean emitsPairs() {
        return this != SEMI && this != ANTI;
    }

    /** Whether probe rows without a match are emitted (with NULL build columns, or alone for ANTI). */
    public boolean preservesProbe() {
        return this == LEFT || this == FULL;
    }

    /** Whether build rows without a match are emitted, after the whole probe input was read. */
    public boolean preservesBuild() {
        return this == RIGHT || this == FULL;
    }
}
