package dev.parallax.engine.operator.limit;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.plan.LimitNode;

/**
 * Instantiates a {@link LimitNode}, evaluating OFFSET and LIMIT once per execution as PostgreSQL
 * does (a NULL LIMIT means no limit, a NULL OFFSET means 0; negative values are errors).
 */
public final class LimitOperatorFactory {
    private LimitOperatorFactory() {
    }

    public static Operator create(LimitNode node, OperatorBuilder builder) {
        long offset = 0;
        long limit = -1;
        Long offsetValue = count(node.offset(), builder);
        if (offsetValue != null) {
            if (offsetValue < 0) {
                throw new ParallaxException(SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET must not be negative");
            }
            offset = offsetValue;
        }
        Long limitValue = count(node.limit(), builder);
        if (limitValue != null) {
            if (limitValue < 0) {
                throw new ParallaxException(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT must not be negative");
            }
            limit = limitValue;
        }
        return new LimitOperator(builder.build(node.input()), offset, limit);
    }

    private static Long count(Expr expression, OperatorBuilder builder) {
        if (expression == null) {
            return null;
        }
        Object value = ConstantValues.evaluate(expression, builder.context());
        return value == null ? null : ((Number) value).longValue();
    }
}
