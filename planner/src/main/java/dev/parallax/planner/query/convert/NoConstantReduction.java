package dev.parallax.planner.query.convert;

import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;

import java.util.List;

/**
 * A RexExecutor that reduces nothing. Without one, Calcite's rules and RexSimplify fall back to
 * RexExecutorImpl, which compiles and runs generated code to fold constants (for instance cutting
 * {@code CAST('abcd' AS VARCHAR(3))} to {@code 'abc'} before an INSERT can raise 22001). Calcite
 * plans, Parallax executes: constants are folded by the planner's own ConstantFolder with the
 * engine's semantics.
 */
public final class NoConstantReduction implements RexExecutor {
    public static final NoConstantReduction INSTANCE = new NoConstantReduction();

    private NoConstantReduction() {
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constantExpressions, List<RexNode> reducedValues) {
        reducedValues.addAll(constantExpressions);
    }
}
