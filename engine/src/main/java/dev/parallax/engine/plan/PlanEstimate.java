package dev.parallax.engine.plan;

/**
 * The planner's estimate for a node, printed by EXPLAIN as {@code (cost=startup..total rows=N width=W)}.
 * Costs are in PostgreSQL's units (seq_page_cost = 1). For a node under a Gather, rows are per
 * participant, as PostgreSQL prints them.
 */
public record PlanEstimate(double startupCost, double totalCost, double rows, int width) {
    public static final PlanEstimate UNKNOWN = new PlanEstimate(0, 0, 0, 0);
}
