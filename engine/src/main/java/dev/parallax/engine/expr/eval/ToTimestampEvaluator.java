package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimeTemplate;
import dev.parallax.engine.type.DateTimeTemplateInput;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.Utf8CharSequence;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * PostgreSQL's {@code to_timestamp(text, template)} and {@code to_date(text, template)}, read by
 * {@link DateTimeTemplateInput} (to_date keeps the day), and {@code to_timestamp(double)} of Unix
 * epoch seconds. PostgreSQL returns timestamp with time zone from to_timestamp, which Parallax does
 * not have: it returns the timestamp in UTC. A constant template is parsed once; one that varies is
 * parsed again when it differs from the previous row's. Strict: NULL in, NULL out.
 */
final class ToTimestampEvaluator extends Evaluator {
    /** Seconds from 1970-01-01 to 2000-01-01, PostgreSQL's epoch, where it rounds epoch seconds to microseconds. */
    private static final double POSTGRES_EPOCH_SECONDS = 946_684_800.0;
    private static final long POSTGRES_EPOCH_MICROS = 946_684_800_000_000L;

    private final Evaluator value;
    private final Evaluator template;
    private final boolean date;
    private final LongVector output;
    private final Utf8CharSequence text = new Utf8CharSequence();
    private final NonNullPositions nonNull = new NonNullPositions();
    private byte[] lastTemplateText;
    private DateTimeTemplateInput reader;

    /** {@code template} null: to_timestamp(double). */
    ToTimestampEvaluator(Evaluator value, Evaluator template, boolean date) {
        super(date ? DataType.DATE : DataType.TIMESTAMP);
        this.value = value;
        this.template = template;
        this.date = date;
        this.output = new LongVector(type(), Evaluator.INITIAL_CAPACITY);
        if (template instanceof ConstantEvaluator constant && !constant.isNull()) {
            parse(constant.bytesValue(), 0, constant.bytesValue().length);
        }
    }

    private void parse(byte[] data, int offset, int length) {
        lastTemplateText = Arrays.copyOfRange(data, offset, offset + length);
        reader = new DateTimeTemplateInput(DateTimeTemplate.parse(new String(data, offset, length, StandardCharsets.UTF_8)));
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector result = prepare(output, input);
        ColumnVector values = value.evaluate(input, selection, count);
        boolean[] valueNulls = nullsOf(values);
        if (valueNulls != null) {
            count = nonNull.narrow(valueNulls, input, selection, count, result);
            selection = nonNull.positions();
        }
        if (template == null) {
            if (count > 0) {
                fromEpoch((DoubleVector) values, selection, count, result.values());
            }
            return result;
        }
        ColumnVector templates = template.evaluate(input, selection, count);
        boolean[] templateNulls = nullsOf(templates);
        if (templateNulls != null) {
            count = nonNull.narrow(templateNulls, input, selection, count, result);
            selection = nonNull.positions();
        }
        if (count == 0) {
            return result;
        }
        BytesVector texts = (BytesVector) values;
        BytesVector patterns = (BytesVector) templates;
        long[] out = result.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = patterns.offset(position);
            int length = patterns.length(position);
            if (lastTemplateText == null || !Arrays.equals(lastTemplateText, 0, lastTemplateText.length,
                    patterns.data(), offset, offset + length)) {
                parse(patterns.data(), offset, length);
            }
            text.load(texts.data(), texts.offset(position), texts.length(position));
            long micros = reader.timestamp(text);
            out[position] = date ? Math.floorDiv(micros, DateTimes.MICROS_PER_DAY) : micros;
        }
        return result;
    }

    /** PostgreSQL's float8_timestamptz: rounded to the microsecond from its own epoch, within the timestamps it holds. */
    private static void fromEpoch(DoubleVector values, int[] selection, int count, long[] out) {
        double[] seconds = values.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            double value = seconds[position];
            if (Double.isNaN(value)) {
                throw new ParallaxException(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp cannot be NaN");
            }
            if (Double.isInfinite(value)) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "infinite timestamps are not supported");
            }
            double first = (double) DateTimes.FIRST_DAY * 86_400;
            double end = (double) (DateTimes.TIMESTAMP_END_MICROS / DateTimes.MICROS_PER_SECOND);
            if (value < first || value >= end) {
                throw outOfRange(value);
            }
            long micros = (long) Math.rint((value - POSTGRES_EPOCH_SECONDS) * DateTimes.MICROS_PER_SECOND) + POSTGRES_EPOCH_MICROS;
            if (micros < DateTimes.FIRST_DAY * DateTimes.MICROS_PER_DAY || micros >= DateTimes.TIMESTAMP_END_MICROS) {
                throw outOfRange(value);
            }
            out[position] = micros;
        }
    }

    private static ParallaxException outOfRange(double seconds) {
        return ParallaxException.of(SqlState.DATETIME_FIELD_OVERFLOW, "timestamp out of range: \"%s\"", DateTimes.formatG(seconds));
    }
}
