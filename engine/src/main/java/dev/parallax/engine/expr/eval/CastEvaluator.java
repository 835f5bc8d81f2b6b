package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * CAST with PostgreSQL's rules. The conversion is chosen once at compile time; each runs one loop.
 * {@code explicit} casts cut over-long CHAR/VARCHAR/BIT values silently (as {@code CAST} does);
 * assignment casts (INSERT, UPDATE) raise 22001 instead, like PostgreSQL's assignment coercion.
 */
final class CastEvaluator extends Evaluator {
    enum Conversion {
        /** LONG-held numbers and booleans to LONG-held numbers and booleans (rescale, range check). */
        NUMBER_TO_NUMBER,
        NUMBER_TO_DOUBLE,
        DOUBLE_TO_NUMBER,
        DOUBLE_TO_DOUBLE,
        DATE_TO_TIMESTAMP,
        TIMESTAMP_TO_DATE,
        /** A local time (timestamp, or date at midnight) to the instant it names in the session's zone. */
        LOCAL_TO_TIMESTAMPTZ,
        /** An instant to the local time it reads as in the session's zone (a timestamp, or its date). */
        TIMESTAMPTZ_TO_LOCAL,
        TO_TEXT,
        TEXT_TO_TEXT,
        BITS_TO_BITS,
        ARRAY_TO_ARRAY,
        FROM_TEXT,
        /** An untyped NULL (its vector holds no text; the XX000 ClassCastException of sqrt(null)): every row is NULL. */
        FROM_NULL
    }

    private static final byte[] TRUE_TEXT = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE_TEXT = "false".getBytes(StandardCharsets.US_ASCII);

    private final Evaluator operand;
    private final Conversion conversion;
    private final boolean explicit;
    private final DataType source;
    private final DataType target;
    private final ColumnVector output;
    /** The session's TimeZone: what casts to and from timestamp with time zone read and print local times in. */
    private final SessionTimeZone zone;
    private final StringBuilder text = new StringBuilder();
    /** {@link #text} as bytes when it is all ASCII (see {@link #asciiText()}). */
    private byte[] ascii = new byte[32];
    private int[] scratch = new int[0];
    /**
     * Whether the target is timestamp(p) / timestamptz(p) with p below 6 and the conversion does not
     * round by itself (text input rounds as it parses): the converted values are then rounded to p digits.
     */
    private final boolean roundsTimestamps;

    CastEvaluator(Evaluator operand, DataType target, boolean explicit, SessionTimeZone zone) {
        super(target);
        this.zone = zone;
        this.operand = operand;
        this.source = operand.type();
        this.target = target;
        this.explicit = explicit;
        this.conversion = conversionOf(source, target);
        this.roundsTimestamps = target.roundsTimestamps() && conversion != Conversion.FROM_TEXT && conversion != Conversion.FROM_NULL;
        this.output = ColumnVector.create(target, Evaluator.INITIAL_CAPACITY);
    }

    static Conversion conversionOf(DataType source, DataType target) {
        TypeKind from = source.kind();
        TypeKind to = target.kind();
        if (to.isText()) {
            return from.isText() ? Conversion.TEXT_TO_TEXT : Conversion.TO_TEXT;
        }
        if (from == TypeKind.NULL) {
            return Conversion.FROM_NULL;
        }
        if (from.isText()) {
            return Conversion.FROM_TEXT;
        }
        boolean fromNumber = from.isNumeric() || from == TypeKind.BOOLEAN;
        boolean toNumber = to.isNumeric() || to == TypeKind.BOOLEAN;
        if (fromNumber && toNumber && !(from == TypeKind.BOOLEAN && to.vectorKind() != dev.parallax.engine.type.VectorKind.LONG)) {
            boolean fromDouble = source.vectorKind() == dev.parallax.engine.type.VectorKind.DOUBLE;
            boolean toDouble = target.vectorKind() == dev.parallax.engine.type.VectorKind.DOUBLE;
            if (fromDouble && to == TypeKind.BOOLEAN) {
                throw cannotCast(source, target);
            }
            return fromDouble ? (toDouble ? Conversion.DOUBLE_TO_DOUBLE : Conversion.DOUBLE_TO_NUMBER)
                    : (toDouble ? Conversion.NUMBER_TO_DOUBLE : Conversion.NUMBER_TO_NUMBER);
        }
        if (from == TypeKind.DATE && to == TypeKind.TIMESTAMP) {
            return Conversion.DATE_TO_TIMESTAMP;
        }
        if (from == TypeKind.TIMESTAMP && to == TypeKind.DATE) {
            return Conversion.TIMESTAMP_TO_DATE;
        }
        if ((from == TypeKind.TIMESTAMP || from == TypeKind.DATE) && to == TypeKind.TIMESTAMPTZ) {
            return Conversion.LOCAL_TO_TIMESTAMPTZ;
        }
        if (from == TypeKind.TIMESTAMPTZ && (to == TypeKind.TIMESTAMP || to == TypeKind.DATE)) {
            return Conversion.TIMESTAMPTZ_TO_LOCAL;
        }
        if (from.isBitString() && to.isBitString()) {
            return Conversion.BITS_TO_BITS;
        }
        if (from == to && from.isFixedWidth()) {
            return Conversion.NUMBER_TO_NUMBER;
        }
        if (from == TypeKind.ARRAY && to == TypeKind.ARRAY) {
            conversionOf(source.element(), target.element());
            return Conversion.ARRAY_TO_ARRAY;
        }
        throw cannotCast(source, target);
    }

    /**
     * PostgreSQL's boolean to text cast spells the words out ({@code true::text} is {@code true});
     * only the type's output function, which prints a boolean column, writes {@code t} and {@code f}.
     */
    private void booleanToText(LongVector vector, BytesVector out, int[] selection, int count) {
        // Fitted on first use: an assignment of true to varchar(4) is fine, of false not (22001).
        byte[] yes = null;
        byte[] no = null;
        boolean pad = target.kind() == TypeKind.CHAR;
        long[] values = vector.values();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            byte[] word;
            if (values[position] != 0) {
                word = yes == null ? (yes = ValueText.fitCharacters(TRUE_TEXT, target, pad, explicit)) : yes;
            } else {
                word = no == null ? (no = ValueText.fitCharacters(FALSE_TEXT, target, pad, explicit)) : no;
            }
            out.set(position, word, 0, word.length);
        }
    }

    private static ParallaxException cannotCast(DataType source, DataType target) {
        return ParallaxException.of(SqlState.CANNOT_COERCE, "cannot cast type %s to %s", source.sqlName(), target.sqlName());
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector vector = operand.evaluate(input, selection, count);
        ColumnVector result = prepare(output, input);
        boolean[] nulls = nullsOf(vector);
        if (nulls != null) {
            scratch = scratch(scratch, input);
            count = nonNullPositions(selection, count, nulls, null, result, scratch);
            selection = scratch;
        }
        switch (conversion) {
            case NUMBER_TO_NUMBER -> numberToNumber((LongVector) vector, (LongVector) result, selection, count);
            case NUMBER_TO_DOUBLE -> {
                long[] values = ((LongVector) vector).values();
                double[] out = ((DoubleVector) result).values();
                double divisor = DecimalMath.powerOfTen(ComparisonEvaluator.scaleOf(source));
                boolean real = target.kind() == TypeKind.REAL;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    double value = values[position] / divisor;
                    out[position] = real ? (float) value : value;
                }
            }
            case DOUBLE_TO_NUMBER -> doubleToNumber((DoubleVector) vector, (LongVector) result, selection, count);
            case DOUBLE_TO_DOUBLE -> {
                double[] values = ((DoubleVector) vector).values();
                double[] out = ((DoubleVector) result).values();
                boolean real = target.kind() == TypeKind.REAL;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    double value = values[position];
                    if (real && !Double.isInfinite(value) && Math.abs(value) > Float.MAX_VALUE) {
                        throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
                    }
                    out[position] = real ? (float) value : value;
                }
            }
            case DATE_TO_TIMESTAMP -> {
                long[] values = ((LongVector) vector).values();
                long[] out = ((LongVector) result).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = values[position] * DateTimes.MICROS_PER_DAY;
                }
            }
            case TIMESTAMP_TO_DATE -> {
                long[] values = ((LongVector) vector).values();
                long[] out = ((LongVector) result).values();
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = Math.floorDiv(values[position], DateTimes.MICROS_PER_DAY);
                }
            }
            case LOCAL_TO_TIMESTAMPTZ -> {
                long[] values = ((LongVector) vector).values();
                long[] out = ((LongVector) result).values();
                long unit = source.kind() == TypeKind.DATE ? DateTimes.MICROS_PER_DAY : 1;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out[position] = zone.toUtc(values[position] * unit);
                }
            }
            case TIMESTAMPTZ_TO_LOCAL -> {
                long[] values = ((LongVector) vector).values();
                long[] out = ((LongVector) result).values();
                boolean toDate = target.kind() == TypeKind.DATE;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    long local = zone.toLocal(values[position]);
                    out[position] = toDate ? Math.floorDiv(local, DateTimes.MICROS_PER_DAY) : local;
                }
            }
            case TO_TEXT -> {
                BytesVector out = (BytesVector) result;
                if (source.kind() == TypeKind.BOOLEAN) {
                    booleanToText((LongVector) vector, out, selection, count);
                    break;
                }
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    text.setLength(0);
                    ValueText.append(text, vector, position, zone);
                    if (target.length() == DataType.UNBOUNDED && asciiText()) {
                        // Numbers, dates and booleans print as ASCII: copied into the vector without a String per row.
                        out.set(position, ascii, 0, text.length());
                        continue;
                    }
                    byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
                    out.set(position, ValueText.fitCharacters(utf8, target, target.kind() == TypeKind.CHAR, explicit));
                }
            }
            case TEXT_TO_TEXT -> {
                BytesVector in = (BytesVector) vector;
                BytesVector out = (BytesVector) result;
                boolean stripBlanks = source.kind() == TypeKind.CHAR && target.kind() != TypeKind.CHAR;
                boolean fit = target.length() != DataType.UNBOUNDED;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    int length = in.length(position);
                    int offset = in.offset(position);
                    if (stripBlanks) {
                        // bpchar to text drops the padding, as PostgreSQL's rtrim in bpchar -> text does.
                        while (length > 0 && in.data()[offset + length - 1] == ' ') {
                            length--;
                        }
                    }
                    if (fit && (target.kind() != TypeKind.CHAR ? length <= target.length() : length == target.length() && isAscii(in.data(), offset, length))) {
                        // Fits as it is (at most n bytes are at most n characters; n ASCII bytes are exactly n):
                        // no copy per row (Q12's l_shipmode::varchar(10) was a third of its CPU).
                        out.set(position, in.data(), offset, length);
                    } else if (fit) {
                        byte[] value = java.util.Arrays.copyOfRange(in.data(), offset, offset + length);
                        out.set(position, ValueText.fitCharacters(value, target, target.kind() == TypeKind.CHAR, explicit));
                    } else {
                        out.set(position, in.data(), offset, length);
                    }
                }
            }
            case BITS_TO_BITS -> {
                BytesVector in = (BytesVector) vector;
                BytesVector out = (BytesVector) result;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    out.set(position, ValueText.fitBits(in.getBytes(position), target, explicit));
                }
            }
            case ARRAY_TO_ARRAY -> arrayToArray((BytesVector) vector, (BytesVector) result, selection, count);
            case FROM_NULL -> {
                boolean[] resultNulls = result.nulls();
                for (int index = 0; index < count; index++) {
                    resultNulls[selection == null ? index : selection[index]] = true;
                }
                if (count > 0) {
                    result.markMayHaveNulls();
                }
            }
            case FROM_TEXT -> {
                BytesVector in = (BytesVector) vector;
                for (int index = 0; index < count; index++) {
                    int position = selection == null ? index : selection[index];
                    String value = in.getString(position);
                    if (source.kind() == TypeKind.CHAR) {
                        value = value.stripTrailing();
                    }
                    Object parsed = explicit && target.kind() == TypeKind.BIT
                            ? ValueText.fitBits(ValueText.parseBits(value), target, true)
                            : ValueText.parse(target, value, zone);
                    store(result, position, parsed);
                }
            }
        }
        if (roundsTimestamps) {
            long[] out = ((LongVector) result).values();
            int precision = target.precision();
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                out[position] = DateTimes.roundToPrecision(out[position], precision);
            }
        }
        return result;
    }

    /**
     * Element by element through the elements' text forms (arrays are small and this path is not
     * hot); the lower bound is kept, except that an int2vector / oidvector starts at 0.
     */
    private void arrayToArray(BytesVector in, BytesVector out, int[] selection, int count) {
        ArrayValue.Builder builder = new ArrayValue.Builder(target);
        DataType sourceElement = source.element();
        DataType targetElement = target.element();
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            byte[] data = in.data();
            int offset = in.offset(position);
            int elements = ArrayValue.count(data, offset);
            for (int element = 0; element < elements; element++) {
                if (ArrayValue.isNull(data, offset, element)) {
                    builder.addNull();
                    continue;
                }
                text.setLength(0);
                ArrayValue.appendElement(text, sourceElement, data, offset, element, zone);
                builder.add(ValueText.parse(targetElement, text.toString(), zone));
            }
            out.set(position, builder.build(target.isVector() ? 0 : ArrayValue.lowerBound(data, offset)));
        }
    }

    static void store(ColumnVector vector, int position, Object value) {
        switch (vector) {
            case LongVector longs -> longs.set(position, (Long) value);
            case DoubleVector doubles -> doubles.set(position, (Double) value);
            case BytesVector bytes -> bytes.set(position, (byte[]) value);
        }
    }

    private void numberToNumber(LongVector vector, LongVector result, int[] selection, int count) {
        long[] values = vector.values();
        long[] out = result.values();
        TypeKind to = target.kind();
        if (to == TypeKind.BOOLEAN || source.kind() == TypeKind.BOOLEAN) {
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                out[position] = to == TypeKind.BOOLEAN ? (values[position] != 0 ? 1 : 0) : values[position];
            }
            return;
        }
        int fromScale = ComparisonEvaluator.scaleOf(source);
        int toScale = ComparisonEvaluator.scaleOf(target);
        long minimum = IntegerRanges.minimum(to);
        long maximum = IntegerRanges.maximum(to);
        boolean decimal = to == TypeKind.DECIMAL;
        try {
            for (int index = 0; index < count; index++) {
                int position = selection == null ? index : selection[index];
                long value = DecimalMath.rescale(values[position], fromScale, toScale);
                if (decimal) {
                    DecimalMath.checkPrecision(value, target.precision(), toScale);
                } else if (value < minimum || value > maximum) {
                    throw new ArithmeticException();
                }
                out[position] = value;
            }
        } catch (ArithmeticException overflow) {
            throw decimal ? DecimalMath.overflow() : new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    IntegerRanges.outOfRangeMessage(to));
        } catch (ParallaxException overflow) {
            if (!decimal && overflow.state() == SqlState.NUMERIC_VALUE_OUT_OF_RANGE) {
                throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, IntegerRanges.outOfRangeMessage(to));
            }
            throw overflow;
        }
    }

    private void doubleToNumber(DoubleVector vector, LongVector result, int[] selection, int count) {
        double[] values = vector.values();
        long[] out = result.values();
        TypeKind to = target.kind();
        boolean fromReal = source.kind() == TypeKind.REAL;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            double value = values[position];
            if (to == TypeKind.DECIMAL) {
                if (Double.isNaN(value)) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                            "cannot convert NaN to numeric: Parallax numerics hold no NaN");
                }
                if (Double.isInfinite(value)) {
                    throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "cannot convert infinity to numeric");
                }
                // PostgreSQL converts through the float's text form with DBL_DIG (FLT_DIG) significant digits.
                BigDecimal decimal = new BigDecimal(value).round(new MathContext(fromReal ? 6 : 15, RoundingMode.HALF_EVEN));
                long scaled = DecimalMath.toScaledLong(decimal, target.scale());
                out[position] = DecimalMath.checkPrecision(scaled, target.precision(), target.scale());
            } else {
                // float to integer rounds half to even (rint), then checks the range.
                double rounded = Math.rint(value);
                if (Double.isNaN(rounded) || rounded < IntegerRanges.minimum(to) || rounded >= -(double) IntegerRanges.minimum(to)) {
                    throw new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, IntegerRanges.outOfRangeMessage(to));
                }
                out[position] = (long) rounded;
            }
        }
    }

    private static boolean isAscii(byte[] data, int offset, int length) {
        for (int index = offset; index < offset + length; index++) {
            if (data[index] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Copies {@link #text} into {@link #ascii} when every character is ASCII (its UTF-8 is then the same bytes); false otherwise. */
    private boolean asciiText() {
        int length = text.length();
        if (ascii.length < length) {
            ascii = new byte[Math.max(length, ascii.length * 2)];
        }
        for (int index = 0; index < length; index++) {
            char character = text.charAt(index);
            if (character >= 0x80) {
                return false;
            }
            ascii[index] = (byte) character;
        }
        return true;
    }
}
