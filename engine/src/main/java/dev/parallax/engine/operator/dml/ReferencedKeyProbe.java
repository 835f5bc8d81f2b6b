package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.KeyPairing;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A referencing row's key of a foreign key, held as the referenced columns' types hold values: what
 * the referenced key's unique index is probed with, and what the referenced rows a statement takes
 * away are compared with ({@link KeyValues#equal}, {@link KeyPositions}).
 *
 * <p>When every column pair is {@link KeyPairing#SAME} the referencing row is read as it is. Else
 * {@link #load} converts the key into a one-row batch of the referenced types, as PostgreSQL casts
 * the referencing value to the referenced type before comparing: an integer to numeric of the
 * referenced scale, numeric to another scale, a number to real or double precision, character(n) to
 * text without its trailing blanks, a date to the timestamp of its midnight. A value the referenced
 * type cannot hold exactly (numeric 1.505 against numeric(10,2), a timestamp past midnight against a
 * date, a double no real equals) equals none of its keys: {@link #load} returns false.
 *
 * <p>Holds mutable scratch state: one per statement or check, used by one thread.
 */
final class ReferencedKeyProbe {
    private enum Step {
        /** The value as it is (the pair's types hold values alike). */
        COPY,
        /** A scaled long times {@code factor} (integers to numeric, numeric to a larger scale); overflow matches nothing. */
        SCALE_UP,
        /** A scaled long divided by {@code factor} when it divides it (numeric to a smaller scale). */
        SCALE_DOWN,
        /** An integer or numeric of scale {@code scale} to double precision, or to real when {@code real}. */
        NUMBER_TO_FLOAT,
        /** A double to the real equal to it. */
        DOUBLE_TO_REAL,
        /** Days to the microseconds of their midnight. */
        DATE_TO_TIMESTAMP,
        /** Microseconds at a midnight to its day. */
        TIMESTAMP_TO_DATE,
        /** character(n) to text: trailing blanks dropped. */
        STRIP_BLANKS
    }

    /** Largest magnitude a double holds every integer up to: a scaled long below it divides exactly into a correctly rounded double. */
    private static final long EXACT_DOUBLE_INTEGER = 1L << 53;

    private final ForeignKey key;
    private final int[] referencingColumns;
    private final boolean converts;
    private final Step[] steps;
    private final long[] factors;
    private final int[] scales;
    private final boolean[] toReal;
    /** The converted key, pair {@code i} (in the order written) in column {@code i}. */
    private final Batch converted;
    private final int[] convertedColumns;
    private final int[] convertedLookupColumns;
    private Batch keyRows;
    private int keyRow;

    ReferencedKeyProbe(ForeignKey key) {
        this.key = key;
        this.referencingColumns = key.referencingColumns();
        int[] referencedColumns = key.referencedColumns();
        int pairs = referencingColumns.length;
        steps = new Step[pairs];
        factors = new long[pairs];
        scales = new int[pairs];
        toReal = new boolean[pairs];
        boolean anyConverted = false;
        List<DataType> referencedTypes = new ArrayList<>();
        for (int pair = 0; pair < pairs; pair++) {
            DataType from = key.referencing().columnTypes().get(referencingColumns[pair]);
            DataType to = key.referenced().columnTypes().get(referencedColumns[pair]);
            referencedTypes.add(to);
            KeyPairing pairing = KeyPairing.of(from, to);
            if (pairing != KeyPairing.SAME && pairing != KeyPairing.CONVERTED) {
                throw new IllegalArgumentException("foreign key " + key.name() + " pairs " + from + " with " + to + ": " + pairing);
            }
            steps[pair] = pairing == KeyPairing.SAME ? Step.COPY : stepOf(pair, from, to);
            anyConverted |= steps[pair] != Step.COPY;
        }
        this.converts = anyConverted;
        this.converted = Batch.create(referencedTypes, 1);
        converted.setRowCount(1);
        this.convertedColumns = new int[pairs];
        for (int pair = 0; pair < pairs; pair++) {
            convertedColumns[pair] = pair;
        }
        int[] keyColumns = key.referencedKey().keyColumns();
        this.convertedLookupColumns = new int[keyColumns.length];
        for (int position = 0; position < keyColumns.length; position++) {
            for (int pair = 0; pair < pairs; pair++) {
                if (referencedColumns[pair] == keyColumns[position]) {
                    convertedLookupColumns[position] = pair;
                }
            }
        }
    }

    private Step stepOf(int pair, DataType from, DataType to) {
        TypeKind source = from.kind();
        TypeKind target = to.kind();
        int sourceScale = source == TypeKind.DECIMAL ? from.scale() : 0;
        if (target == TypeKind.DECIMAL) {
            if (to.scale() >= sourceScale) {
                factors[pair] = DecimalMath.powerOfTen(to.scale() - sourceScale);
                return Step.SCALE_UP;
            }
            factors[pair] = DecimalMath.powerOfTen(sourceScale - to.scale());
            return Step.SCALE_DOWN;
        }
        if (target == TypeKind.REAL || target == TypeKind.DOUBLE) {
            if (source == TypeKind.DOUBLE) {
                return Step.DOUBLE_TO_REAL;
            }
            scales[pair] = sourceScale;
            toReal[pair] = target == TypeKind.REAL;
            return Step.NUMBER_TO_FLOAT;
        }
        if (source == TypeKind.CHAR) {
            return Step.STRIP_BLANKS;
        }
        if (source == TypeKind.DATE) {
            return Step.DATE_TO_TIMESTAMP;
        }
        if (source == TypeKind.TIMESTAMP) {
            return Step.TIMESTAMP_TO_DATE;
        }
        throw new IllegalArgumentException("no conversion of " + from + " to " + to);
    }

    /** Whether some column pair converts (else {@link #load} reads the referencing rows as they are). */
    boolean converts() {
        return converts;
    }

    /**
     * Loads the key of {@code rows}' row {@code row}, a row of the referencing table whose key columns
     * are all non-NULL; returns false when the referenced type cannot hold a value of it, so that no
     * referenced key equals it (nothing is loaded then).
     */
    boolean load(Batch rows, int row) {
        if (!converts) {
            keyRows = rows;
            keyRow = row;
            return true;
        }
        for (int pair = 0; pair < steps.length; pair++) {
            // A bytes vector appends each value set: emptied first, the one row's bytes do not pile up.
            converted.column(pair).reset(1);
            if (!convert(pair, rows.column(referencingColumns[pair]), row, converted.column(pair))) {
                return false;
            }
        }
        keyRows = converted;
        keyRow = 0;
        return true;
    }

    private boolean convert(int pair, ColumnVector source, int row, ColumnVector target) {
        switch (steps[pair]) {
            case COPY -> target.copyFrom(source, row, 0);
            case SCALE_UP -> {
                long value = ((LongVector) source).get(row);
                long scaled = value * factors[pair];
                if (Math.multiplyHigh(value, factors[pair]) != (scaled >> 63)) {
                    return false;
                }
                ((LongVector) target).set(0, scaled);
            }
            case SCALE_DOWN -> {
                long value = ((LongVector) source).get(row);
                if (value % factors[pair] != 0) {
                    return false;
                }
                ((LongVector) target).set(0, value / factors[pair]);
            }
            case NUMBER_TO_FLOAT -> ((DoubleVector) target).set(0, toFloat(((LongVector) source).get(row), scales[pair], toReal[pair]));
            case DOUBLE_TO_REAL -> {
                double value = ((DoubleVector) source).get(row);
                float real = (float) value;
                if (real != value && !Double.isNaN(value)) {
                    return false;
                }
                ((DoubleVector) target).set(0, real);
            }
            case DATE_TO_TIMESTAMP -> {
                long days = ((LongVector) source).get(row);
                long micros = days * DateTimes.MICROS_PER_DAY;
                if (Math.multiplyHigh(days, DateTimes.MICROS_PER_DAY) != (micros >> 63)) {
                    return false;
                }
                ((LongVector) target).set(0, micros);
            }
            case TIMESTAMP_TO_DATE -> {
                long micros = ((LongVector) source).get(row);
                if (Math.floorMod(micros, DateTimes.MICROS_PER_DAY) != 0) {
                    return false;
                }
                ((LongVector) target).set(0, Math.floorDiv(micros, DateTimes.MICROS_PER_DAY));
            }
            case STRIP_BLANKS -> {
                BytesVector bytes = (BytesVector) source;
                byte[] data = bytes.data();
                int offset = bytes.offset(row);
                int length = bytes.length(row);
                while (length > 0 && data[offset + length - 1] == ' ') {
                    length--;
                }
                ((BytesVector) target).set(0, data, offset, length);
            }
        }
        return true;
    }

    /**
     * PostgreSQL's cast of an integer or numeric to float8 (or float4), correctly rounded: a scaled
     * long within 2^53 and a power of ten up to 10^22 are both exact doubles, so their quotient is
     * the correctly rounded value; beyond, and for real, BigDecimal rounds once (a double rounded
     * again to float could be off by one unit).
     */
    private static double toFloat(long scaled, int scale, boolean real) {
        if (real) {
            return BigDecimal.valueOf(scaled, scale).floatValue();
        }
        if (Math.abs(scaled) <= EXACT_DOUBLE_INTEGER) {
            return scale == 0 ? scaled : scaled / (double) DecimalMath.powerOfTen(scale);
        }
        return BigDecimal.valueOf(scaled, scale).doubleValue();
    }

    /** The batch holding the key {@link #load} loaded: the referencing rows as they are, or the converted row. */
    Batch keyRows() {
        return keyRows;
    }

    /** The loaded key's row in {@link #keyRows()}. */
    int keyRow() {
        return keyRow;
    }

    /** The loaded key's columns in {@link #keyRows()}, in the order the foreign key pairs them (not to be changed). */
    int[] keyColumns() {
        return converts ? convertedColumns : referencingColumns;
    }

    /** The row id of the referenced row whose key is the loaded one, or {@link dev.parallax.engine.index.RowIds#ABSENT}. */
    long find() {
        return key.referencedKey().index().get(keyRows, converts ? convertedLookupColumns : key.lookupColumns(), keyRow);
    }

    /** Whether the loaded key equals the key of {@code rows}' row {@code row} in {@code columns}, columns of the referenced types. */
    boolean matches(Batch rows, int row, int[] columns) {
        return KeyValues.equal(keyRows, keyRow, keyColumns(), rows, row, columns);
    }
}
