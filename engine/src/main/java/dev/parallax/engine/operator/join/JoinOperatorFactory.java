package dev.parallax.engine.operator.join;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;

import java.util.List;

/** Instantiates a {@link HashJoinNode} or {@link NestedLoopJoinNode} as a {@link JoinOperator} for one participant. */
public final class JoinOperatorFactory {
    private static final int[] NO_KEYS = new int[0];

    private JoinOperatorFactory() {
    }

    public static Operator create(HashJoinNode node, OperatorBuilder builder) {
        checkKeyTypes(node);
        return create(node, node.probe(), node.build(), node.joinType(), node.probeKeys(), node.buildKeys(),
                node.residual(), node.outputColumns(), node.parallelBuild(), builder);
    }

    public static Operator create(NestedLoopJoinNode node, OperatorBuilder builder) {
        return create(node, node.outer(), node.inner(), node.joinType(), NO_KEYS, NO_KEYS, node.condition(),
                node.outputColumns(), false, builder);
    }

    private static Operator create(PlanNode node, PlanNode probe, PlanNode build, dev.parallax.engine.plan.JoinType joinType,
                                   int[] probeKeys, int[] buildKeys, Expr residual, int[] outputColumns,
                                   boolean cooperative, OperatorBuilder builder) {
        List<DataType> probeTypes = probe.outputTypes();
        List<DataType> buildTypes = build.outputTypes();
        Operator probeInput = builder.build(probe);
        Operator buildInput = null;
        try {
            buildInput = builder.build(build);
            Predicate predicate = null;
            boolean[] residualColumns = null;
            if (residual != null) {
                predicate = ExpressionCompiler.compilePredicate(residual, builder.context());
                residualColumns = new boolean[probeTypes.size() + buildTypes.size()];
                markColumns(residual, residualColumns);
            }
            JoinOperator join = new JoinOperator(builder.context(), probeInput, buildInput, joinType, probeKeys, buildKeys, predicate,
                    residualColumns, outputColumns, probeTypes, buildTypes, builder.sharedJoinBuild(node), cooperative);
            if (probeKeys.length > 0) {
                HashSpillOptions options = HashSpillOptions.fromSettings(builder.context().settings());
                join.enableSpill(options, new TemporaryDirectory(options.tempDirectory(), "hash"), true, 0);
                NodeStatistics statistics = builder.statistics(node);
                if (statistics != null) {
                    join.reportTo(statistics.participant(builder.participant()));
                }
            }
            return join;
        } catch (RuntimeException | Error failure) {
            probeInput.close();
            if (buildInput != null) {
                buildInput.close();
            }
            throw failure;
        }
    }

    private static void checkKeyTypes(HashJoinNode node) {
        int[] probeKeys = node.probeKeys();
        int[] buildKeys = node.buildKeys();
        for (int key = 0; key < probeKeys.length; key++) {
            DataType probeType = node.probe().outputTypes().get(probeKeys[key]);
            DataType buildType = node.build().outputTypes().get(buildKeys[key]);
            if (probeType.vectorKind() != buildType.vectorKind()) {
                throw new IllegalArgumentException("hash join key " + key + " compares " + probeType + " with " + buildType);
            }
        }
    }

    private static void markColumns(Expr expression, boolean[] columns) {
        switch (expression) {
            case ColumnRef column -> columns[column.index()] = true;
            case Call call -> call.arguments().forEach(argument -> markColumns(argument, columns));
            case Cast cast -> markColumns(cast.input(), columns);
            case Case caseExpression -> {
                caseExpression.conditions().forEach(condition -> markColumns(condition, columns));
                caseExpression.results().forEach(result -> markColumns(result, columns));
                markColumns(caseExpression.otherwise(), columns);
            }
            case InList inList -> {
                markColumns(inList.value(), columns);
                inList.values().forEach(value -> markColumns(value, columns));
            }
            case Literal literal -> {
            }
            case Parameter parameter -> {
            }
        }
    }
}
