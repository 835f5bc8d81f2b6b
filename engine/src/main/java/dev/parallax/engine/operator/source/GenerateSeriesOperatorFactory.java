package dev.parallax.engine.operator.source;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.plan.GenerateSeriesNode;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/** Instantiates a {@link GenerateSeriesNode}: NULL bounds give no rows, a zero step is PostgreSQL's error. */
public final class GenerateSeriesOperatorFactory {
    private GenerateSeriesOperatorFactory() {
    }

    public static Operator create(GenerateSeriesNode node, OperatorBuilder builder) {
        Object start = ConstantValues.evaluate(node.start(), builder.context());
        Object stop = ConstantValues.evaluate(node.stop(), builder.context());
        Object step = node.step() == null ? Long.valueOf(1) : ConstantValues.evaluate(node.step(), builder.context());
        Batch batch = Batch.create(List.of(node.type()), Batch.DEFAULT_CAPACITY);
        if (start == null || stop == null || step == null) {
            return new GenerateSeriesOperator(builder.context(), 0, 0, 1, null, true, batch);
        }
        long stepValue = ((Number) step).longValue();
        if (stepValue == 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        }
        boolean monthStep = node.step() != null && node.step().type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        return new GenerateSeriesOperator(builder.context(), ((Number) start).longValue(), ((Number) stop).longValue(),
                stepValue, monthStep ? SessionTimeZone.ofMonthSteps(node.type(), builder.context().settings()) : null, false, batch);
    }
}
