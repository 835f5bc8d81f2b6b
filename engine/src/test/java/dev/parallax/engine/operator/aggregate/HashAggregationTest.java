package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The group-ordered path (few groups, large batches: rows are sorted by group and each group's run
 * summed in registers) must give exactly the states of the row-at-a-time path, including 128-bit
 * carries, NULLs and selection vectors.
 */
class HashAggregationTest {
    private static final int ROWS = 4000;
    private static final int GROUPS = 3;

    private static AggregateCall call(AggregateFunction function, int argument) {
        DataType argumentType = argument < 0 ? null : DataType.BIGINT;
        DataType resultType = function == AggregateFunction.AVG ? DataType.decimal(18, 6) : DataType.BIGINT;
        return new AggregateCall(function, argument, false, argumentType, resultType,
                AggregateStates.stateTypes(function, argumentType, resultType), function.name());
    }

    private static HashAggregation aggregation() {
        return new HashAggregation(AggregateMode.PARTIAL, new int[]{0}, List.of(DataType.INTEGER), List.of(
                call(AggregateFunction.SUM, 1),
                call(AggregateFunction.COUNT_STAR, -1),
                call(AggregateFunction.COUNT, 1),
                call(AggregateFunction.MIN, 1)));
    }

    /** Rows: key = row % 3, value near ±Long.MAX_VALUE / 2 so that sums carry past 64 bits; every 5th value NULL. */
    private static Batch input() {
        Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT), ROWS);
        LongVector keys = (LongVector) batch.column(0);
        LongVector values = (LongVector) batch.column(1);
        for (int row = 0; row < ROWS; row++) {
            keys.set(row, row % GROUPS);
            if (row % 5 == 0) {
                values.setNull(row);
            } else {
                values.set(row, (row % 4 == 3 ? -1 : 1) * (Long.MAX_VALUE / 2 - row));
            }
        }
        batch.setRowCount(ROWS);
        return batch;
    }

    private static Batch states(HashAggregation aggregation) {
        Batch out = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT,
                DataType.BIGINT, DataType.BIGINT, DataType.BIGINT), GROUPS);
        aggregation.write(0, aggregation.groupCount(), out);
        return out;
    }

    private static void assertSameStates(Batch expected, Batch actual) {
        assertEquals(expected.rowCount(), actual.rowCount());
        for (int column = 0; column < expected.columnCount(); column++) {
            for (int row = 0; row < expected.rowCount(); row++) {
                assertEquals(((LongVector) expected.column(column)).get(row), ((LongVector) actual.column(column)).get(row),
                        "column " + column + " row " + row);
            }
        }
    }

    @Test
    void groupOrderedBatchEqualsRowAtATimeBatchesAndExactSums() {
        int[] selection = new int[ROWS];
        int live = 0;
        for (int row = 0; row < ROWS; row++) {
            if (row % 7 != 1) {
                selection[live++] = row;
            }
        }
        Batch whole = input();
        whole.setSelection(selection, live);
        HashAggregation grouped = aggregation();
        grouped.add(whole);

        // Batches of two rows hold fewer than 16 rows per group: the row-at-a-time path.
        HashAggregation rowAtATime = aggregation();
        Batch small = input();
        int[] pair = new int[2];
        for (int index = 0; index < live; index += 2) {
            int size = Math.min(2, live - index);
            System.arraycopy(selection, index, pair, 0, size);
            small.setSelection(pair, size);
            rowAtATime.add(small);
        }
        Batch groupedStates = states(grouped);
        assertSameStates(states(rowAtATime), groupedStates);

        BigInteger[] sums = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        long[] counts = new long[GROUPS];
        long[] stars = new long[GROUPS];
        for (int index = 0; index < live; index++) {
            int row = selection[index];
            int group = row % GROUPS;
            stars[group]++;
            if (row % 5 != 0) {
                sums[group] = sums[group].add(BigInteger.valueOf(((LongVector) whole.column(1)).get(row)));
                counts[group]++;
            }
        }
        for (int output = 0; output < GROUPS; output++) {
            int group = (int) ((LongVector) groupedStates.column(0)).get(output);
            long high = ((LongVector) groupedStates.column(1)).get(output);
            long low = ((LongVector) groupedStates.column(2)).get(output);
            BigInteger sum = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
            assertEquals(sums[group], sum, "sum of group " + group);
            assertEquals(counts[group], ((LongVector) groupedStates.column(3)).get(output));
            assertEquals(stars[group], ((LongVector) groupedStates.column(4)).get(output));
            assertEquals(counts[group], ((LongVector) groupedStates.column(5)).get(output));
        }
    }

    /**
     * Many groups (the table grows many times) with runs of equal keys (the previous-key shortcut),
     * NULL keys, negative keys and a selection: every group's count and sum against a map.
     */
    @Test
    void manyGroupsWithRunsOfEqualKeysMatchAMap() {
        HashAggregation aggregation = new HashAggregation(AggregateMode.SINGLE, new int[]{0}, List.of(DataType.INTEGER), List.of(
                call(AggregateFunction.COUNT_STAR, -1), call(AggregateFunction.SUM, 1)));
        java.util.Map<Long, long[]> expected = new java.util.HashMap<>();
        java.util.Random random = new java.util.Random(11);
        int batchRows = 1000;
        long key = 0;
        for (int batchIndex = 0; batchIndex < 120; batchIndex++) {
            Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT), batchRows);
            LongVector keys = (LongVector) batch.column(0);
            LongVector values = (LongVector) batch.column(1);
            int[] selection = new int[batchRows];
            int live = 0;
            for (int row = 0; row < batchRows; row++) {
                if (random.nextInt(4) == 0) {
                    key = random.nextInt(200_000) - 100_000;
                }
                boolean nullKey = random.nextInt(50) == 0;
                if (nullKey) {
                    keys.setNull(row);
                } else {
                    keys.set(row, key);
                }
                long value = random.nextInt(1000);
                values.set(row, value);
                if (row % 9 != 4) {
                    selection[live++] = row;
                    long[] state = expected.computeIfAbsent(nullKey ? null : key, ignored -> new long[2]);
                    state[0]++;
                    state[1] += value;
                }
            }
            batch.setRowCount(batchRows);
            batch.setSelection(selection, live);
            aggregation.add(batch);
        }
        assertEquals(expected.size(), aggregation.groupCount());
        Batch out = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT, DataType.BIGINT), aggregation.groupCount());
        aggregation.write(0, aggregation.groupCount(), out);
        for (int row = 0; row < out.rowCount(); row++) {
            Long group = out.column(0).isNull(row) ? null : ((LongVector) out.column(0)).get(row);
            long[] state = expected.get(group);
            assertEquals(state[0], ((LongVector) out.column(1)).get(row), "count of " + group);
            assertEquals(state[1], ((LongVector) out.column(2)).get(row), "sum of " + group);
        }
    }
}
