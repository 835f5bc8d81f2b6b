package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * var_samp, var_pop, stddev_samp and stddev_pop of REAL/DOUBLE values with PostgreSQL's float8_accum
 * and float8_combine, step for step, so a serial result is the same double as PostgreSQL's: the
 * Youngs-Cramer state of count N, sum Sx and sum of squared deviations from the mean Sxx, updated
 * per value as {@code Sxx += (x N - Sx)^2 / (N (N - 1))} (no cancellation of large sums of
 * squares), and two states combined as {@code Sxx1 + Sxx2 + N1 N2 (Sx1/N1 - Sx2/N2)^2 / N}. An
 * infinite or NaN input makes Sxx NaN; finite inputs whose Sx or Sxx overflow raise 22003.
 * State: [count, Sx, Sxx].
 */
final class DoubleVarianceAccumulator extends Accumulator {
    private final boolean sample;
    private final boolean deviation;
    private long[] counts = new long[0];
    private double[] sums = new double[0];
    private double[] squaredDeviations = new double[0];

    DoubleVarianceAccumulator(AggregateFunction function) {
        this.sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        this.deviation = function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
    }

    @Override
    void ensureGroups(int groupCount) {
        if (groupCount > counts.length) {
            int capacity = grownCapacity(counts.length, groupCount);
            counts = Arrays.copyOf(counts, capacity);
            sums = Arrays.copyOf(sums, capacity);
            squaredDeviations = Arrays.copyOf(squaredDeviations, capacity);
        }
    }

    @Override
    void clear(int group) {
        counts[group] = 0;
        sums[group] = 0;
        squaredDeviations[group] = 0;
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        double[] values = ((DoubleVector) argument).values();
        boolean[] nulls = argument.mayHaveNulls() ? argument.nulls() : null;
        long[] counts = this.counts;
        double[] sums = this.sums;
        double[] squaredDeviations = this.squaredDeviations;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (nulls != null && nulls[position]) {
                continue;
            }
            int group = groupIds[index];
            double value = values[position];
            long previousCount = counts[group];
            double n = previousCount + 1;
            double oldSum = sums[group];
            double sum = oldSum + value;
            counts[group] = previousCount + 1;
            sums[group] = sum;
            if (previousCount > 0) {
                double difference = value * n - sum;
                double deviations = squaredDeviations[group] + difference * difference / (n * previousCount);
                if (Double.isInfinite(sum) || Double.isInfinite(deviations)) {
                    if (!Double.isInfinite(oldSum) && !Double.isInfinite(value)) {
                        throw overflow();
                    }
                    deviations = Double.NaN;
                }
                squaredDeviations[group] = deviations;
            } else if (Double.isNaN(value) || Double.isInfinite(value)) {
                // A first value that is not finite: the variance is NaN, not the 0 of a single value.
                squaredDeviations[group] = Double.NaN;
            }
        }
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        long[] partialCounts = ((LongVector) states[firstState]).values();
        double[] partialSums = ((DoubleVector) states[firstState + 1]).values();
        double[] partialDeviations = ((DoubleVector) states[firstState + 2]).values();
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            int group = groupIds[index];
            long otherCount = partialCounts[position];
            if (otherCount == 0) {
                continue;
            }
            long ownCount = counts[group];
            if (ownCount == 0) {
                counts[group] = otherCount;
                sums[group] = partialSums[position];
                squaredDeviations[group] = partialDeviations[position];
                continue;
            }
            double ownSum = sums[group];
            double otherSum = partialSums[position];
            double sum = ownSum + otherSum;
            if (Double.isInfinite(sum) && !Double.isInfinite(ownSum) && !Double.isInfinite(otherSum)) {
                throw overflow();
            }
            double n1 = ownCount;
            double n2 = otherCount;
            double n = n1 + n2;
            double difference = ownSum / n1 - otherSum / n2;
            double ownDeviations = squaredDeviations[group];
            double otherDeviations = partialDeviations[position];
            double deviations = ownDeviations + otherDeviations + n1 * n2 * difference * difference / n;
            if (Double.isInfinite(deviations) && !Double.isInfinite(ownDeviations) && !Double.isInfinite(otherDeviations)) {
                throw overflow();
            }
            counts[group] = ownCount + otherCount;
            sums[group] = sum;
            squaredDeviations[group] = deviations;
        }
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        ((LongVector) out[firstColumn]).set(position, counts[group]);
        ((DoubleVector) out[firstColumn + 1]).set(position, sums[group]);
        ((DoubleVector) out[firstColumn + 2]).set(position, squaredDeviations[group]);
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        long count = counts[group];
        if (count == 0 || sample && count == 1) {
            out.setNull(position);
            return;
        }
        double variance = squaredDeviations[group] / (sample ? count - 1.0 : count);
        ((DoubleVector) out).set(position, deviation ? Math.sqrt(variance) : variance);
    }

    private static ParallaxException overflow() {
        return new ParallaxException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    }
}
