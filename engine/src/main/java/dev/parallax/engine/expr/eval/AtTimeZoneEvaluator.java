package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code value AT TIME ZONE zone} (PostgreSQL's timezone(zone, value)): a timestamp with time zone
 * becomes the local time it reads as in {@code zone} (a timestamp), a timestamp the instant that
 * local time names in {@code zone} (a timestamp with time zone). A constant zone is looked up once;
 * a zone per row is looked up per row (22023 time zone "x" not recognized for an unknown one).
 */
final class AtTimeZoneEvaluator extends Evaluator {
    private final Evaluator zoneName;
    private final Evaluator value;
    private final boolean toLocal;
    /** The constant zone's rules, or null when the zone is not constant. */
    private final SessionTimeZone constantZone;
    private final LongVector output;
    private int[] scratch = new int[0];

    AtTimeZoneEvaluator(Evaluator zoneName, Evaluator value, DataType resultType) {
        super(resultType);
        this.zoneName = zoneName;
        this.value = value;
        this.toLocal = value.type().kind() == TypeKind.TIMESTAMPTZ;
        this.constantZone = zoneName instanceof ConstantEvaluator constant && !constant.isNull()
                ? SessionTimeZone.named(new String(constant.bytesValue(), java.nio.charset.StandardCharsets.UTF_8)) : null;
        this.output = new LongVector(resultType, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector values = (LongVector) value.evaluate(input, selection, count);
        BytesVector names = constantZone == null ? (BytesVector) zoneName.evaluate(input, selection, count) : null;
        LongVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] nameNulls = names == null ? null : nullsOf(names);
        if (valueNulls != null || nameNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, nameNulls, result, scratch);
            selection = scratch;
        }
        long[] in = values.values();
        long[] out = result.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            SessionTimeZone zone = constantZone != null ? constantZone : SessionTimeZone.named(names.getString(position));
            out[position] = toLocal ? zone.toLocal(in[position]) : zone.toUtc(in[position]);
        }
        return result;
    }
}
