package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.ByteBuilder;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimeTemplate;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.NumberTemplate;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * PostgreSQL's {@code to_char(value, template)} of a date or timestamp ({@link DateTimeTemplate})
 * or of a number ({@link NumberTemplate}). A constant template is parsed once; one that varies is
 * parsed again when it differs from the previous row's. Each value is written into a reused buffer,
 * then copied to the output. Strict: NULL in, NULL out.
 */
final class ToCharEvaluator extends Evaluator {
    private final Evaluator value;
    private final Evaluator template;
    private final TypeKind valueKind;
    private final int scale;
    private final BytesVector output = new BytesVector(DataType.TEXT, Evaluator.INITIAL_CAPACITY);
    private final ByteBuilder buffer = new ByteBuilder();
    private byte[] lastTemplateText;
    private DateTimeTemplate dateTimeTemplate;
    private NumberTemplate numberTemplate;
    private int[] scratch = new int[0];
    /** The session's TimeZone: a timestamp with time zone is formatted as its local time there. */
    private final SessionTimeZone zone;

    ToCharEvaluator(Evaluator value, Evaluator template, SessionTimeZone zone) {
        super(DataType.TEXT);
        this.zone = zone;
        this.value = value;
        this.template = template;
        this.valueKind = value.type().kind();
        this.scale = valueKind == TypeKind.DECIMAL ? value.type().scale() : 0;
        if (template instanceof ConstantEvaluator constant && !constant.isNull()) {
            parse(constant.bytesValue(), 0, constant.bytesValue().length);
        }
    }

    private boolean isTemporal() {
        return valueKind == TypeKind.DATE || valueKind == TypeKind.TIMESTAMP || valueKind == TypeKind.TIMESTAMPTZ;
    }

    private void parse(byte[] data, int offset, int length) {
        lastTemplateText = Arrays.copyOfRange(data, offset, offset + length);
        String text = new String(data, offset, length, StandardCharsets.UTF_8);
        if (isTemporal()) {
            dateTimeTemplate = DateTimeTemplate.parse(text);
        } else {
            numberTemplate = NumberTemplate.parse(text);
        }
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector values = value.evaluate(input, selection, count);
        BytesVector templates = (BytesVector) template.evaluate(input, selection, count);
        BytesVector result = prepare(output, input);
        boolean[] valueNulls = nullsOf(values);
        boolean[] templateNulls = nullsOf(templates);
        if (valueNulls != null || templateNulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, valueNulls, templateNulls, result, scratch);
            selection = scratch;
        }
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            int offset = templates.offset(position);
            int length = templates.length(position);
            if (lastTemplateText == null || !Arrays.equals(lastTemplateText, 0, lastTemplateText.length,
                    templates.data(), offset, offset + length)) {
                parse(templates.data(), offset, length);
            }
            buffer.clear();
            switch (values) {
                case LongVector longs -> {
                    long raw = longs.values()[position];
                    if (valueKind == TypeKind.DATE) {
                        dateTimeTemplate.format(raw * DateTimes.MICROS_PER_DAY, buffer);
                    } else if (valueKind == TypeKind.TIMESTAMP) {
                        dateTimeTemplate.format(raw, buffer);
                    } else if (valueKind == TypeKind.TIMESTAMPTZ) {
                        dateTimeTemplate.format(zone.toLocal(raw), buffer);
                    } else {
                        numberTemplate.format(raw, scale, buffer);
                    }
                }
                case DoubleVector doubles -> numberTemplate.format(doubles.values()[position], buffer);
                case BytesVector bytes -> throw new IllegalStateException("to_char of " + value.type());
            }
            result.set(position, buffer.bytes(), 0, buffer.length());
        }
        return result;
    }
}
