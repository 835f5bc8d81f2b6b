package dev.parallax.engine.operator.window;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.WindowRangeOffsets;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.TypeKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * Finds the bounds with offsets of a RANGE frame in one partition, as PostgreSQL's WindowAgg does
 * with the key type's in_range function: the frame starts at the first row whose key is at least
 * (ascending; at most, descending) the current row's key minus (PRECEDING) or plus (FOLLOWING) the
 * offset, and ends after the last row whose key is at most that bound. As the keys are sorted, each
 * bound only moves forward from row to row: one pass over the partition per bound. A NULL key's rows
 * are peers of each other only: their offset bounds are their NULL group's first and last rows, and
 * the other rows' bounds never reach into it.
 * <p>Keys are read as longs (integers, numeric's scaled long, a date's days, a timestamp's
 * microseconds) or doubles. For long keys an offset is turned once into a whole number of key units,
 * rounded toward the bound's side (a date's key is within 36 hours before another's when it is at most
 * one day before), so the comparison per row is one addition; the sum's overflow stands for a bound
 * beyond every key, as PostgreSQL's in_range takes it. Year-month intervals over dates and timestamps
 * add months per row (the day clamped to the month's end), and doubles follow in_range_float8_float8
 * (NaN after every number, infinities).
 */
final class RangeOffsetSearch {
    /** How keys are read and offsets added. */
    private enum Domain {
        /** Long keys with a whole offset in key units. */
        UNITS,
        /** Dates (days) plus months. */
        DATE_MONTHS,
        /** Timestamps (microseconds) plus months. */
        TIMESTAMP_MONTHS,
        /** Double keys with a double offset. */
        FLOATING
    }

    private final Domain startDomain;
    private final Domain endDomain;
    private final boolean nullsFirst;
    /** Per bound, whether its offset is subtracted from the current key and whether rows up to (rather than from) the bound are in range. */
    private final boolean startSubtracts;
    private final boolean startLess;
    private final boolean endSubtracts;
    private final boolean endLess;
    /** Per bound, under {@link Domain#UNITS} the signed offset in key units, rounded to the bound's side; else the signed months. */
    private final long startUnits;
    private final long endUnits;
    /** Per bound under {@link Domain#FLOATING}: the offset (non-negative). */
    private final double startOffset;
    private final double endOffset;
    /** The partition's rows with NULL keys and with keys, as {@link #locateNulls} last found them. */
    private int nullsFrom;
    private int nullsTo;
    private int keysFrom;
    private int keysTo;

    RangeOffsetSearch(WindowRangeOffsets offsets, boolean startPreceding, boolean endPreceding) {
        DataType keyType = offsets.keyType();
        this.nullsFirst = offsets.nullsFirst();
        // PostgreSQL's flags: a start bound is the first row at or after key -/+ offset, an end
        // bound the last row at or before it; descending keys flip both.
        boolean descending = offsets.descending();
        this.startSubtracts = startPreceding != descending;
        this.startLess = descending;
        this.endSubtracts = endPreceding != descending;
        this.endLess = !descending;
        this.startDomain = offsets.start() == null ? Domain.UNITS : domain(keyType, offsets.start());
        this.endDomain = offsets.end() == null ? Domain.UNITS : domain(keyType, offsets.end());
        this.startUnits = offsets.start() == null ? 0 : units(keyType, offsets.start(), startDomain, startSubtracts, startLess);
        this.endUnits = offsets.end() == null ? 0 : units(keyType, offsets.end(), endDomain, endSubtracts, endLess);
        this.startOffset = offsets.start() == null ? 0 : floating(offsets.start());
        this.endOffset = offsets.end() == null ? 0 : floating(offsets.end());
    }

    /** Whether the keys are read as doubles ({@link #starts(double[], boolean[], int, int, int[])}). */
    static boolean readsDoubles(WindowRangeOffsets offsets) {
        return offsets.keyType().kind() == TypeKind.REAL || offsets.keyType().kind() == TypeKind.DOUBLE;
    }

    private static Domain domain(DataType keyType, Literal offset) {
        return switch (keyType.kind()) {
            case REAL, DOUBLE -> Domain.FLOATING;
            case DATE -> offset.type().kind() == TypeKind.INTERVAL_YEAR_MONTH ? Domain.DATE_MONTHS : Domain.UNITS;
            case TIMESTAMP -> offset.type().kind() == TypeKind.INTERVAL_YEAR_MONTH ? Domain.TIMESTAMP_MONTHS : Domain.UNITS;
            default -> Domain.UNITS;
        };
    }

    /** The offset as a signed whole number of key units (or signed months), rounded to the bound's side. */
    private static long units(DataType keyType, Literal offset, Domain domain, boolean subtracts, boolean less) {
        if (domain == Domain.FLOATING) {
            return 0;
        }
        BigDecimal value = switch (offset.type().kind()) {
            case DECIMAL -> BigDecimal.valueOf((Long) offset.value(), offset.type().scale());
            default -> BigDecimal.valueOf((Long) offset.value());
        };
        if (value.signum() < 0) {
            throw invalidSize();
        }
        if (domain == Domain.DATE_MONTHS || domain == Domain.TIMESTAMP_MONTHS) {
            return subtracts ? -value.longValueExact() : value.longValueExact();
        }
        // key >= base + offset holds for a whole key exactly when key >= base + ceil(offset); key <= base + offset when key <= base + floor(offset).
        if (keyType.kind() == TypeKind.DATE) {
            // A day-time interval's microseconds over a date's days.
            long micros = subtracts ? -value.longValueExact() : value.longValueExact();
            return less ? Math.floorDiv(micros, DateTimes.MICROS_PER_DAY) : Math.ceilDiv(micros, DateTimes.MICROS_PER_DAY);
        }
        BigDecimal inKeyUnits = keyType.kind() == TypeKind.DECIMAL ? value.movePointRight(keyType.scale()) : value;
        BigDecimal signed = subtracts ? inKeyUnits.negate() : inKeyUnits;
        BigDecimal whole = signed.setScale(0, less ? RoundingMode.FLOOR : RoundingMode.CEILING);
        return whole.max(BigDecimal.valueOf(Long.MIN_VALUE)).min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue();
    }

    private static double floating(Literal offset) {
        double value = switch (offset.type().kind()) {
            case REAL, DOUBLE -> (Double) offset.value();
            case DECIMAL -> BigDecimal.valueOf((Long) offset.value(), offset.type().scale()).doubleValue();
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> 0;
            default -> (Long) offset.value();
        };
        if (Double.isNaN(value) || value < 0) {
            throw invalidSize();
        }
        return value;
    }

    private static ParallaxException invalidSize() {
        return ParallaxException.of(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "invalid preceding or following size in window function");
    }

    /**
     * Sets {@code firsts[row]} for the rows {@code from .. to-1} of a partition, whose keys are
     * {@code keys[from .. to-1]} ({@code nulls} marks NULL keys), to the first row of the frame's
     * offset start bound. The four searches are one loop each, spelled per key array so that the
     * comparison reads a primitive without a call per row.
     */
    void starts(long[] keys, boolean[] nulls, int from, int to, int[] firsts) {
        locateNulls(nulls, from, to);
        int head = keysFrom;
        for (int row = keysFrom; row < keysTo; row++) {
            long base = keys[row];
            while (head < keysTo && !inRange(keys[head], base, startDomain, startUnits, startLess)) {
                head++;
            }
            firsts[row] = head;
        }
        Arrays.fill(firsts, nullsFrom, nullsTo, nullsFrom);
    }

    /** Sets {@code ends[row]} (exclusive) for the rows of a partition as {@link #starts(long[], boolean[], int, int, int[])} the firsts. */
    void ends(long[] keys, boolean[] nulls, int from, int to, int[] ends) {
        locateNulls(nulls, from, to);
        int tail = keysFrom;
        for (int row = keysFrom; row < keysTo; row++) {
            long base = keys[row];
            while (tail < keysTo && inRange(keys[tail], base, endDomain, endUnits, endLess)) {
                tail++;
            }
            ends[row] = tail;
        }
        Arrays.fill(ends, nullsFrom, nullsTo, nullsTo);
    }

    /** {@link #starts(long[], boolean[], int, int, int[])} over double keys. */
    void starts(double[] keys, boolean[] nulls, int from, int to, int[] firsts) {
        locateNulls(nulls, from, to);
        int head = keysFrom;
        for (int row = keysFrom; row < keysTo; row++) {
            double base = keys[row];
            while (head < keysTo && !inRange(keys[head], base, startOffset, startSubtracts, startLess)) {
                head++;
            }
            firsts[row] = head;
        }
        Arrays.fill(firsts, nullsFrom, nullsTo, nullsFrom);
    }

    /** {@link #ends(long[], boolean[], int, int, int[])} over double keys. */
    void ends(double[] keys, boolean[] nulls, int from, int to, int[] ends) {
        locateNulls(nulls, from, to);
        int tail = keysFrom;
        for (int row = keysFrom; row < keysTo; row++) {
            double base = keys[row];
            while (tail < keysTo && inRange(keys[tail], base, endOffset, endSubtracts, endLess)) {
                tail++;
            }
            ends[row] = tail;
        }
        Arrays.fill(ends, nullsFrom, nullsTo, nullsTo);
    }

    /** Sets the partition's runs of NULL and non-NULL keys (the NULLs sort together at one end). */
    private void locateNulls(boolean[] nulls, int from, int to) {
        int boundary;
        if (nullsFirst) {
            boundary = from;
            while (boundary < to && nulls[boundary]) {
                boundary++;
            }
            nullsFrom = from;
            nullsTo = boundary;
            keysFrom = boundary;
            keysTo = to;
        } else {
            boundary = to;
            while (boundary > from && nulls[boundary - 1]) {
                boundary--;
            }
            keysFrom = from;
            keysTo = boundary;
            nullsFrom = boundary;
            nullsTo = to;
        }
    }

    /** PostgreSQL's in_range over long keys: value >= base + units (value <= under {@code less}), an overflowing sum beyond every key. */
    private static boolean inRange(long value, long base, Domain domain, long units, boolean less) {
        if (domain == Domain.UNITS) {
            long sum = base + units;
            if (((base ^ sum) & (units ^ sum)) < 0) {
                // Past Long.MAX_VALUE (units > 0) every key is below the bound; past Long.MIN_VALUE above it.
                return units > 0 == less;
            }
            return less ? value <= sum : value >= sum;
        }
        long sum = switch (domain) {
            case DATE_MONTHS -> DateTimes.addMonths(base, units);
            case TIMESTAMP_MONTHS -> DateTimes.addMonthsToTimestamp(base, units);
            case UNITS, FLOATING -> throw new IllegalStateException("not a month offset: " + domain);
        };
        return less ? value <= sum : value >= sum;
    }

    /** PostgreSQL's in_range_float8_float8: NaN sorts after every number, and an infinite offset from an infinite key covers every key. */
    private static boolean inRange(double value, double base, double offset, boolean subtracts, boolean less) {
        if (Double.isNaN(value)) {
            return Double.isNaN(base) || !less;
        }
        if (Double.isNaN(base)) {
            return less;
        }
        if (Double.isInfinite(offset) && Double.isInfinite(base) && (subtracts ? base > 0 : base < 0)) {
            return true;
        }
        double sum = subtracts ? base - offset : base + offset;
        return less ? value <= sum : value >= sum;
    }
}
