package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * var_samp, var_pop, stddev_samp and stddev_pop of values held as longs (integers and scaled
 * decimals), in exact arithmetic as PostgreSQL's numeric forms: the count, the sum in 128 bits and
 * the sum of squares in 192 bits (a square of a long takes 126 bits, and 2^64 of them 190), so
 * neither accumulating nor combining partial states can overflow or round. The final value is
 * PostgreSQL's {@code (N * sumX2 - sumX^2) / (N * (N - 1))} (N * N for the population forms), its
 * square root for the deviations, rounded half up to the result type's scale once, from the
 * exact quotient. State: [count, sum high, sum low, squares high, squares middle, squares low].
 */
final class ExactVarianceAccumulator extends Accumulator {
    private final boolean sample;
    private final boolean deviation;
    private final int argumentScale;
    private final int resultScale;
    private final DataType resultType;
    private long[] counts = new long[0];
    private long[] sumHigh = new long[0];
    private long[] sumLow = new long[0];
    private long[] squareHigh = new long[0];
    private long[] squareMiddle = new long[0];
    private long[] squareLow = new long[0];

    ExactVarianceAccumulator(AggregateFunction function, DataType argumentType, DataType resultType) {
        this.sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        this.deviation = function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
        this.argumentScale = argumentType.kind() == TypeKind.DECIMAL ? argumentType.scale() : 0;
        this.resultScale = resultType.kind() == TypeKind.DECIMAL ? resultType.scale() : 0;
        this.resultType = resultType;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > counts.length) {
            int capacity = grownCapacity(counts.length, groupCount);
            counts = Arrays.copyOf(counts, capacity);
            sumHigh = Arrays.copyOf(sumHigh, capacity);
            sumLow = Arrays.copyOf(sumLow, capacity);
            squareHigh = Arrays.copyOf(squareHigh, capacity);
            squareMiddle = Arrays.copyOf(squareMiddle, capacity);
            squareLow = Arrays.copyOf(squareLow, capacity);
        }
    }

    @Override
    void clear(int group) {
        counts[group] = 0;
        sumHigh[group] = 0;
        sumLow[group] = 0;
        squareHigh[group] = 0;
        squareMiddle[group] = 0;
        squareLow[group] = 0;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        long[] values = ((LongVector) argument).values();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        long[] counts = this.counts;
        long[] sumHigh = this.sumHigh;
        long[] sumLow = this.sumLow;
        long[] squareHigh = this.squareHigh;
        long[] squareMiddle = this.squareMiddle;
        long[] squareLow = this.squareLow;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            long value = values[position];
            counts[group]++;
            long oldLow = sumLow[group];
            long newLow = oldLow + value;
            sumLow[group] = newLow;
            // Sign-extend the value into the high word and carry out of the unsigned low word.
            sumHigh[group] += (value >> 63) + (Long.compareUnsigned(newLow, oldLow) < 0 ? 1 : 0);
            // value * value is at most 2^126: its high word is below 2^62, so adding the low word's
            // carry to it cannot overflow; only the middle word's own carry reaches the top word.
            long productLow = value * value;
            long productHigh = Math.multiplyHigh(value, value);
            long oldSquareLow = squareLow[group];
            long newSquareLow = oldSquareLow + productLow;
            squareLow[group] = newSquareLow;
            long middleAddend = productHigh + (Long.compareUnsigned(newSquareLow, oldSquareLow) < 0 ? 1 : 0);
            long oldMiddle = squareMiddle[group];
            long newMiddle = oldMiddle + middleAddend;
            squareMiddle[group] = newMiddle;
            squareHigh[group] += Long.compareUnsigned(newMiddle, oldMiddle) < 0 ? 1 : 0;
        }
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        long[] partialCounts = ((LongVector) states[firstState]).values();
        long[] partialSumHigh = ((LongVector) states[firstState + 1]).values();
        long[] partialSumLow = ((LongVector) states[firstState + 2]).values();
        long[] partialSquareHigh = ((LongVector) states[firstState + 3]).values();
        long[] partialSquareMiddle = ((LongVector) states[firstState + 4]).values();
        long[] partialSquareLow = ((LongVector) states[firstState + 5]).values();
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            int group = groupIds[index];
            counts[group] += partialCounts[position];
            long oldLow = sumLow[group];
            long newLow = oldLow + partialSumLow[position];
            sumLow[group] = newLow;
            sumHigh[group] += partialSumHigh[position] + (Long.compareUnsigned(newLow, oldLow) < 0 ? 1 : 0);
            long oldSquareLow = squareLow[group];
            long newSquareLow = oldSquareLow + partialSquareLow[position];
            squareLow[group] = newSquareLow;
            long lowCarry = Long.compareUnsigned(newSquareLow, oldSquareLow) < 0 ? 1 : 0;
            long oldMiddle = squareMiddle[group];
            long middle = oldMiddle + partialSquareMiddle[position];
            long middleCarry = Long.compareUnsigned(middle, oldMiddle) < 0 ? 1 : 0;
            long newMiddle = middle + lowCarry;
            middleCarry += Long.compareUnsigned(newMiddle, middle) < 0 ? 1 : 0;
            squareMiddle[group] = newMiddle;
            squareHigh[group] += partialSquareHigh[position] + middleCarry;
        }
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        ((LongVector) out[firstColumn]).set(position, counts[group]);
        ((LongVector) out[firstColumn + 1]).set(position, sumHigh[group]);
        ((LongVector) out[firstColumn + 2]).set(position, sumLow[group]);
        ((LongVector) out[firstColumn + 3]).set(position, squareHigh[group]);
        ((LongVector) out[firstColumn + 4]).set(position, squareMiddle[group]);
        ((LongVector) out[firstColumn + 5]).set(position, squareLow[group]);
    }

    /**
     * NULL for no value (and one value in the sample forms), else the variance or deviation
     * rounded half up to the result scale r. With q the exact variance, PostgreSQL's quotient
     * {@code (N sumX2 - sumX^2) / (N (N-1))} over {@code 10^(2 argumentScale)}, the result is
     * {@code floor((floor(2 q 10^r) + 1) / 2)} and for the deviation
     * {@code floor((isqrt(floor(4 q 10^2r)) + 1) / 2)}: exact integer arithmetic, no intermediate
     * rounding (floor(sqrt(floor(y))) = floor(sqrt(y))). A numerator that is 0 gives 0, as
     * PostgreSQL guards it (equal values).
     */
    @Override
    void writeResult(int group, ColumnVector out, int position) {
        long count = counts[group];
        if (count == 0 || sample && count == 1) {
            out.setNull(position);
            return;
        }
        BigInteger n = BigInteger.valueOf(count);
        BigInteger sum = toBigInteger(sumHigh[group] >> 63, sumHigh[group], sumLow[group]);
        BigInteger squares = toBigInteger(squareHigh[group], squareMiddle[group], squareLow[group]);
        BigInteger numerator = n.multiply(squares).subtract(sum.multiply(sum));
        if (numerator.signum() <= 0) {
            ((LongVector) out).set(position, 0);
            return;
        }
        BigInteger denominator = n.multiply(sample ? n.subtract(BigInteger.ONE) : n);
        // q * 10^k = numerator * 10^(k - 2 argumentScale) / denominator, k = r for the variance, 2r for the deviation.
        int exponent = (deviation ? 2 * resultScale : resultScale) - 2 * argumentScale;
        if (exponent >= 0) {
            numerator = numerator.multiply(BigInteger.TEN.pow(exponent));
        } else {
            denominator = denominator.multiply(BigInteger.TEN.pow(-exponent));
        }
        BigInteger doubled = deviation
                ? numerator.shiftLeft(2).divide(denominator).sqrt()
                : numerator.shiftLeft(1).divide(denominator);
        BigInteger rounded = doubled.add(BigInteger.ONE).shiftRight(1);
        ((LongVector) out).set(position, IntegerSumAccumulator.checkRange(rounded, resultType));
    }

    /** The two's complement 192-bit value {@code high:middle:low} (a signed 128-bit sum with high its sign extension). */
    private static BigInteger toBigInteger(long high, long middle, long low) {
        if (high == (low >> 63) && middle == (low >> 63)) {
            return BigInteger.valueOf(low);
        }
        byte[] bytes = new byte[24];
        for (int index = 0; index < 8; index++) {
            bytes[7 - index] = (byte) (high >>> (8 * index));
            bytes[15 - index] = (byte) (middle >>> (8 * index));
            bytes[23 - index] = (byte) (low >>> (8 * index));
        }
        return new BigInteger(bytes);
    }
}
