package dev.parallax.cli.server;

import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PostgresType;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Writes column values into DataRow messages: a length word then the value in text format
 * (PostgreSQL's output functions, via {@link ValueText}) or binary format (PostgreSQL's send
 * functions). One instance per connection: it reuses its text buffer, so a row costs no allocation.
 */
final class ValueEncoder {
    /** 2000-01-01, PostgreSQL's epoch for binary dates and timestamps, in days and microseconds since 1970-01-01. */
    static final long POSTGRES_EPOCH_DAYS = 10_957;
    static final long POSTGRES_EPOCH_MICROS = POSTGRES_EPOCH_DAYS * 86_400_000_000L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final short NUMERIC_POSITIVE = 0x0000;
    private static final short NUMERIC_NEGATIVE = 0x4000;

    private final StringBuilder text = new StringBuilder(64);
    private final short[] numericDigits = new short[12];
    private ColumnVector arrayElement;
    private final Settings settings;
    /**
     * The session's TimeZone, which text timestamps with time zone print in: looked up at a statement's first
     * such value (null until then), so that results without them cost no setting lookup.
     */
    private SessionTimeZone zone;

    ValueEncoder(Settings settings) {
        this.settings = settings;
    }

    /** Called before each batch of a statement's rows: a SET TIME ZONE since the last one shows in what follows. */
    void startStatement() {
        zone = null;
    }

    private SessionTimeZone zone() {
        if (zone == null) {
            zone = SessionTimeZone.ofSetting(settings.show("TimeZone"));
        }
        return zone;
    }

    /** Writes the value at {@code position} (length word included; -1 for NULL). */
    void write(ByteBuf out, ColumnVector vector, int position, boolean binary) {
        if (vector.isNull(position)) {
            out.writeInt(-1);
            return;
        }
        if (binary) {
            writeBinary(out, vector, position);
        } else {
            writeText(out, vector, position);
        }
    }

    private void writeText(ByteBuf out, ColumnVector vector, int position) {
        switch (vector.type().kind()) {
            case CHAR, VARCHAR, TEXT -> {
                // Already UTF-8 in the batch: copy the bytes.
                BytesVector bytes = (BytesVector) vector;
                out.writeInt(bytes.length(position));
                out.writeBytes(bytes.data(), bytes.offset(position), bytes.length(position));
            }
            default -> {
                text.setLength(0);
                ValueText.append(text, vector, position, SessionTimeZone.appliesTo(vector.type()) ? zone() : SessionTimeZone.UTC);
                int lengthIndex = out.writerIndex();
                out.writeInt(0);
                int written = ByteBufUtil.writeUtf8(out, text);
                out.setInt(lengthIndex, written);
            }
        }
    }

    private void writeBinary(ByteBuf out, ColumnVector vector, int position) {
        switch (vector.type().kind()) {
            case BOOLEAN -> {
                out.writeInt(1);
                out.writeByte(((LongVector) vector).get(position) != 0 ? 1 : 0);
            }
            case SMALLINT -> {
                out.writeInt(2);
                out.writeShort((int) ((LongVector) vector).get(position));
            }
            case INTEGER -> {
                out.writeInt(4);
                out.writeInt((int) ((LongVector) vector).get(position));
            }
            case BIGINT -> {
                out.writeInt(8);
                out.writeLong(((LongVector) vector).get(position));
            }
            case REAL -> {
                out.writeInt(4);
                out.writeFloat((float) ((DoubleVector) vector).get(position));
            }
            case DOUBLE -> {
                out.writeInt(8);
                out.writeDouble(((DoubleVector) vector).get(position));
            }
            case DATE -> {
                out.writeInt(4);
                out.writeInt((int) (((LongVector) vector).get(position) - POSTGRES_EPOCH_DAYS));
            }
            case TIMESTAMP, TIMESTAMPTZ -> {
                // timestamptz_send: the UTC instant, as a timestamp's microseconds since 2000-01-01.
                out.writeInt(8);
                out.writeLong(((LongVector) vector).get(position) - POSTGRES_EPOCH_MICROS);
            }
            case INTERVAL_YEAR_MONTH -> {
                out.writeInt(16);
                out.writeLong(0);
                out.writeInt(0);
                out.writeInt((int) ((LongVector) vector).get(position));
            }
            case INTERVAL_DAY_TIME -> {
                long micros = ((LongVector) vector).get(position);
                out.writeInt(16);
                out.writeLong(micros % MICROS_PER_DAY);
                out.writeInt((int) (micros / MICROS_PER_DAY));
                out.writeInt(0);
            }
            case DECIMAL -> writeNumeric(out, ((LongVector) vector).get(position), vector.type().scale());
            case CHAR, VARCHAR, TEXT, BIT, VARBIT, UUID -> {
                // Text's binary form is its UTF-8 bytes; bit strings are stored in varbit_send's layout already, uuids as uuid_send's 16 bytes.
                BytesVector bytes = (BytesVector) vector;
                out.writeInt(bytes.length(position));
                out.writeBytes(bytes.data(), bytes.offset(position), bytes.length(position));
            }
            case ARRAY -> writeArray(out, (BytesVector) vector, position);
            case NULL -> out.writeInt(-1);
        }
    }

    /**
     * array_send: dimensions (0 or 1), a has-nulls flag, the element type's OID, size and lower
     * bound, then each element as a length word and its binary form (oids as 4 bytes).
     */
    private void writeArray(ByteBuf out, BytesVector vector, int position) {
        DataType type = vector.type();
        PostgresType elementPostgresType = PostgresType.of(type).element();
        byte[] data = vector.data();
        int offset = vector.offset(position);
        int count = ArrayValue.count(data, offset);
        boolean hasNull = false;
        for (int index = 0; index < count; index++) {
            hasNull |= ArrayValue.isNull(data, offset, index);
        }
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        int start = out.writerIndex();
        out.writeInt(count == 0 ? 0 : 1);
        out.writeInt(hasNull ? 1 : 0);
        out.writeInt(elementPostgresType.oid());
        if (count > 0) {
            out.writeInt(count);
            out.writeInt(ArrayValue.lowerBound(data, offset));
        }
        ColumnVector element = elementVector(type.element());
        for (int index = 0; index < count; index++) {
            if (ArrayValue.isNull(data, offset, index)) {
                out.writeInt(-1);
                continue;
            }
            if (elementPostgresType == PostgresType.OID) {
                out.writeInt(4);
                out.writeInt((int) ArrayValue.longAt(data, offset, index));
                continue;
            }
            switch (element) {
                case LongVector longs -> longs.set(0, ArrayValue.longAt(data, offset, index));
                case DoubleVector doubles -> doubles.set(0, ArrayValue.doubleAt(data, offset, index));
                case BytesVector bytes -> bytes.set(0, data, ArrayValue.bytesOffset(data, offset, index),
                        ArrayValue.bytesLength(data, offset, index));
            }
            writeBinary(out, element, 0);
        }
        out.setInt(lengthIndex, out.writerIndex() - start);
    }

    /** A one-value vector of {@code type} to write array elements through, kept for the next array of that type. */
    private ColumnVector elementVector(DataType type) {
        if (arrayElement == null || !arrayElement.type().equals(type)) {
            arrayElement = ColumnVector.create(type, 1);
        }
        arrayElement.reset(1);
        return arrayElement;
    }

    /**
     * numeric_send for a scaled long: base-10000 digits with the weight of the first, leading and
     * trailing zero digits dropped, display scale = the type's scale.
     */
    void writeNumeric(ByteBuf out, long scaled, int scale) {
        boolean negative = scaled < 0;
        // Precision is at most 18, so the magnitude always fits a long.
        long magnitude = Math.abs(scaled);
        long unit = powerOfTen(scale);
        long integerPart = magnitude / unit;
        long fraction = magnitude % unit;
        int fractionGroups = (scale + 3) / 4;
        int integerGroups = 0;
        for (long rest = integerPart; rest > 0; rest /= 10_000) {
            integerGroups++;
        }
        int count = integerGroups + fractionGroups;
        long rest = integerPart;
        for (int group = integerGroups - 1; group >= 0; group--) {
            numericDigits[group] = (short) (rest % 10_000);
            rest /= 10_000;
        }
        for (int group = 0; group < fractionGroups; group++) {
            int digitsAfter = scale - 4 * group;
            long remaining = fraction % powerOfTen(digitsAfter);
            long value = digitsAfter >= 4 ? remaining / powerOfTen(digitsAfter - 4) : remaining * powerOfTen(4 - digitsAfter);
            numericDigits[integerGroups + group] = (short) value;
        }
        int first = 0;
        while (first < count && numericDigits[first] == 0) {
            first++;
        }
        int last = count;
        while (last > first && numericDigits[last - 1] == 0) {
            last--;
        }
        int digits = last - first;
        out.writeInt(8 + 2 * digits);
        out.writeShort(digits);
        out.writeShort(digits == 0 ? 0 : integerGroups - 1 - first);
        out.writeShort(negative && digits > 0 ? NUMERIC_NEGATIVE : NUMERIC_POSITIVE);
        out.writeShort(scale);
        for (int index = first; index < last; index++) {
            out.writeShort(numericDigits[index]);
        }
    }

    private static long powerOfTen(int exponent) {
        long value = 1;
        for (int index = 0; index < exponent; index++) {
            value *= 10;
        }
        return value;
    }
}
