package dev.parallax.engine.plan;

/** What INSERT ... ON CONFLICT does with a proposed row whose key is already present. */
public enum ConflictAction {
    /** DO NOTHING: the proposed row is skipped. */
    NOTHING,
    /** DO UPDATE SET ...: the existing row is replaced by a version computed from it and the proposed row. */
    UPDATE
}
