package dev.parallax.engine.operator.sort;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.sort.Sorter;

/** Instantiates a {@link SortNode}: a {@link Sorter} with the statement's work_mem, bounded by the node's limit (top-N). */
public final class SortOperatorFactory {
    private SortOperatorFactory() {
    }

    public static Operator create(SortNode node, OperatorBuilder builder) {
        Sorter sorter = new Sorter(node.outputTypes(), node.keys(), node.limit(), SortOptions.fromSettings(builder.context().settings()));
        sorter.expectInputRows((long) node.input().estimate().rows());
        NodeStatistics statistics = builder.statistics(node);
        Operator input;
        try {
            input = builder.build(node.input());
        } catch (RuntimeException failure) {
            sorter.close();
            throw failure;
        }
        return new SortOperator(builder.context(), input, sorter, statistics == null ? null : statistics.participant(builder.participant()));
    }
}
