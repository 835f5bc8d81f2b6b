package dev.parallax.engine.explain;

import dev.parallax.engine.plan.PlanNode;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Texts the planner knows better than the engine, for EXPLAIN: a node's output column texts
 * (VERBOSE "Output:" and the names its parents refer to) and a filter's condition text. Every
 * entry is optional; without one the printer derives the text from the plan (table column names,
 * aggregate call names, expressions printed over their input's names).
 */
public final class ExplainLabels {
    public static final ExplainLabels NONE = new ExplainLabels();

    private final Map<PlanNode, List<String>> outputs = new IdentityHashMap<>();
    private final Map<PlanNode, String> conditions = new IdentityHashMap<>();

    /** Sets the output column texts of {@code node} (one per output column, e.g. {@code sum(l_quantity)}). */
    public ExplainLabels withOutput(PlanNode node, List<String> outputTexts) {
        outputs.put(Objects.requireNonNull(node, "node"), List.copyOf(outputTexts));
        return this;
    }

    /** Sets the condition text of a filter node, printed as {@code Filter: text}, e.g. {@code (x > 1)}. */
    public ExplainLabels withCondition(PlanNode node, String conditionText) {
        conditions.put(Objects.requireNonNull(node, "node"), Objects.requireNonNull(conditionText, "conditionText"));
        return this;
    }

    List<String> output(PlanNode node) {
        return this == NONE ? null : outputs.get(node);
    }

    String condition(PlanNode node) {
        return this == NONE ? null : conditions.get(node);
    }
}
