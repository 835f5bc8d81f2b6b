package dev.parallax.planner.statement;

/**
 * EXPLAIN options with PostgreSQL's defaults: costs on, everything else off, except that SUMMARY
 * (the Planning Time / Execution Time lines) is on under ANALYZE unless turned off.
 */
public record ExplainOptions(boolean analyze, boolean verbose, boolean costs, boolean timing, boolean summary) {
    public static final ExplainOptions DEFAULT = new ExplainOptions(false, false, true, true, false);

    /** Whether Planning Time / Execution Time lines are printed. */
    public boolean printSummary() {
        return summary;
    }
}
