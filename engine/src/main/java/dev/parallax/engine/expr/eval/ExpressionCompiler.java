package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Expr;

/** Turns plan expressions into vectorized evaluators. (Body being written by the expressions work.) */
public final class ExpressionCompiler {
    private ExpressionCompiler() {
    }

    /** A fresh evaluator of {@code expression} for one operator instance running in {@code context}. */
    public static VectorExpression compile(Expr expression, ExecutionContext context) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "expression evaluation is not wired yet: " + expression);
    }

    /**
     * A fresh predicate evaluator: it writes into {@code selectionOut} the live positions of the
     * input where {@code condition} is TRUE and returns how many.
     */
    public static Predicate compilePredicate(Expr condition, ExecutionContext context) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "predicate evaluation is not wired yet: " + condition);
    }
}
