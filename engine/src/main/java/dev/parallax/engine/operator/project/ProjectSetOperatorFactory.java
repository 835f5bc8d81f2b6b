package dev.parallax.engine.operator.project;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.plan.ProjectSetNode;
import dev.parallax.engine.plan.SetReturningFunction;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/** Instantiates a {@link ProjectSetNode} with its functions' arguments compiled for this participant. */
public final class ProjectSetOperatorFactory {
    private ProjectSetOperatorFactory() {
    }

    public static Operator create(ProjectSetNode node, OperatorBuilder builder) {
        Operator input = builder.build(node.input());
        try {
            List<SetReturningFunction> functions = node.functions();
            VectorExpression[][] arguments = new VectorExpression[functions.size()][];
            boolean[] series = new boolean[functions.size()];
            SessionTimeZone[] monthZones = new SessionTimeZone[functions.size()];
            for (int index = 0; index < functions.size(); index++) {
                List<Expr> expressions = switch (functions.get(index)) {
                    case SetReturningFunction.Series function -> List.of(function.start(), function.stop(), function.step());
                    case SetReturningFunction.Unnest function -> List.of(function.array());
                };
                series[index] = functions.get(index) instanceof SetReturningFunction.Series;
                if (functions.get(index) instanceof SetReturningFunction.Series function && function.stepsByMonths()) {
                    monthZones[index] = SessionTimeZone.ofMonthSteps(function.start().type(), builder.context().settings());
                }
                arguments[index] = new VectorExpression[expressions.size()];
                for (int argument = 0; argument < expressions.size(); argument++) {
                    arguments[index][argument] = ExpressionCompiler.compile(expressions.get(argument), builder.context());
                }
            }
            return new ProjectSetOperator(builder.context(), input, arguments, series, monthZones,
                    Batch.create(node.outputTypes(), Batch.DEFAULT_CAPACITY));
        } catch (RuntimeException failure) {
            input.close();
            throw failure;
        }
    }
}
