package dev.parallax.engine.explain;

/** The options of an EXPLAIN statement, as PostgreSQL names them (COSTS and TIMING default to on). */
public record ExplainOptions(boolean analyze, boolean verbose, boolean costs, boolean timing) {
    public static final ExplainOptions DEFAULT = new ExplainOptions(false, false, true, true);
}
