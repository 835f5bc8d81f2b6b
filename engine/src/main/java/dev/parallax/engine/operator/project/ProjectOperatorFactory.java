package dev.parallax.engine.operator.project;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.plan.ProjectNode;

/** Instantiates a {@link ProjectNode} with expressions compiled for this participant. */
public final class ProjectOperatorFactory {
    private ProjectOperatorFactory() {
    }

    public static Operator create(ProjectNode node, OperatorBuilder builder) {
        Operator input = builder.build(node.input());
        try {
            VectorExpression[] expressions = new VectorExpression[node.expressions().size()];
            for (int index = 0; index < expressions.length; index++) {
                expressions[index] = ExpressionCompiler.compile(node.expressions().get(index), builder.context());
            }
            return new ProjectOperator(input, expressions);
        } catch (RuntimeException failure) {
            input.close();
            throw failure;
        }
    }
}
