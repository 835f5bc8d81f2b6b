package dev.parallax.engine.operator.append;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.PlanNode;

import java.util.ArrayList;
import java.util.List;

/** Instantiates an {@link AppendNode}: every input's operator up front, closed again if one fails to build. */
public final class AppendOperatorFactory {
    private AppendOperatorFactory() {
    }

    public static Operator create(AppendNode node, OperatorBuilder builder) {
        List<Operator> inputs = new ArrayList<>(node.inputs().size());
        try {
            for (PlanNode input : node.inputs()) {
                inputs.add(builder.build(input));
            }
        } catch (RuntimeException failure) {
            for (Operator built : inputs) {
                try {
                    built.close();
                } catch (RuntimeException closing) {
                    failure.addSuppressed(closing);
                }
            }
            throw failure;
        }
        return new AppendOperator(inputs);
    }
}
