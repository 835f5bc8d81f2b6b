package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A parallel ROLLUP's Finalize: two participants' Partial Aggregates by both keys, their groups
 * expanded into the sets (a, b), (a) and (), and a FINAL aggregation by (keys, set) that reads the
 * states after the partial keys ({@code firstStateColumn}). Each set's count, sum and max must equal
 * what grouping the raw rows by that set gives, with the data's NULL key apart from a set's NULLs.
 */
class GroupingSetsFinalizeTest {
    private static final int ROWS = 3000;
    private static final List<int[]> ROLLUP = List.of(new int[]{0, 1}, new int[]{0}, new int[0]);

    private static AggregateCall call(AggregateFunction function, int argument) {
        DataType argumentType = argument < 0 ? null : DataType.BIGINT;
        return new AggregateCall(function, argument, false, argumentType, DataType.BIGINT,
                AggregateStates.stateTypes(function, argumentType, DataType.BIGINT), function.name());
    }

    private static final List<AggregateCall> CALLS = List.of(
            call(AggregateFunction.COUNT_STAR, -1), call(AggregateFunction.SUM, 2), call(AggregateFunction.MAX, 2));

    /** Rows {@code first, first + 2, ...}: a = row % 3, b = row % 2 but NULL every 7th row, v = row. */
    private static Batch rows(int first) {
        Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.INTEGER, DataType.BIGINT), ROWS / 2);
        int count = 0;
        for (int row = first; row < ROWS; row += 2) {
            ((LongVector) batch.column(0)).set(count, row % 3);
            if (row % 7 == 0) {
                batch.column(1).setNull(count);
            } else {
                ((LongVector) batch.column(1)).set(count, row % 2);
            }
            ((LongVector) batch.column(2)).set(count, row);
            count++;
        }
        batch.setRowCount(count);
        return batch;
    }

    /** One participant's Partial Aggregate output: a, b, then the calls' states. */
    private static Batch partialGroups(int first) {
        HashAggregation partial = new HashAggregation(AggregateMode.PARTIAL, new int[]{0, 1},
                List.of(DataType.INTEGER, DataType.INTEGER), CALLS);
        partial.add(rows(first));
        partial.finishInput();
        List<DataType> types = new ArrayList<>(List.of(DataType.INTEGER, DataType.INTEGER));
        CALLS.forEach(call -> types.addAll(call.stateTypes()));
        Batch out = Batch.create(types, partial.groupCount());
        partial.write(0, partial.groupCount(), out);
        return out;
    }

    private static String key(ColumnVector a, ColumnVector b, int position, long set) {
        return (a.isNull(position) ? "NULL" : ((LongVector) a).get(position)) + "|"
                + (b.isNull(position) ? "NULL" : ((LongVector) b).get(position)) + "|" + set;
    }

    @Test
    void expandedPartialStatesCombineIntoEverySet() {
        List<Batch> gathered = List.of(partialGroups(0), partialGroups(1));
        List<DataType> gatheredTypes = new ArrayList<>();
        for (int column = 0; column < gathered.getFirst().columnCount(); column++) {
            gatheredTypes.add(gathered.getFirst().column(column).type());
        }
        Operator expansion = new GroupingSetsExpandOperator(new GatheredBatches(gathered), gatheredTypes, new int[]{0, 1}, ROLLUP);
        int width = gatheredTypes.size();
        HashAggregation finalize = new HashAggregation(AggregateMode.FINAL, new int[]{width, width + 1, width + 2},
                List.of(DataType.INTEGER, DataType.INTEGER, DataType.INTEGER), CALLS, 2);
        Batch batch;
        while ((batch = expansion.next()) != null) {
            finalize.add(batch);
        }
        finalize.finishInput();
        Batch result = Batch.create(List.of(DataType.INTEGER, DataType.INTEGER, DataType.INTEGER,
                DataType.BIGINT, DataType.BIGINT, DataType.BIGINT), finalize.groupCount());
        finalize.write(0, finalize.groupCount(), result);

        Map<String, long[]> expected = new HashMap<>();
        for (int first = 0; first < 2; first++) {
            Batch input = rows(first);
            for (int position = 0; position < input.rowCount(); position++) {
                for (int set = 0; set < ROLLUP.size(); set++) {
                    int keys = ROLLUP.get(set).length;
                    String key = (keys >= 1 ? String.valueOf(((LongVector) input.column(0)).get(position)) : "NULL") + "|"
                            + (keys == 2 && !input.column(1).isNull(position) ? String.valueOf(((LongVector) input.column(1)).get(position)) : "NULL")
                            + "|" + set;
                    long value = ((LongVector) input.column(2)).get(position);
                    long[] values = expected.computeIfAbsent(key, ignored -> new long[]{0, 0, Long.MIN_VALUE});
                    values[0]++;
                    values[1] += value;
                    values[2] = Math.max(values[2], value);
                }
            }
        }
        Map<String, long[]> actual = new HashMap<>();
        for (int row = 0; row < result.rowCount(); row++) {
            String key = key(result.column(0), result.column(1), row, ((LongVector) result.column(2)).get(row));
            actual.put(key, new long[]{((LongVector) result.column(3)).get(row), ((LongVector) result.column(4)).get(row),
                    ((LongVector) result.column(5)).get(row)});
        }
        // (a, b): 3 x 2 values and 3 NULLs of the data; (a): 3; (): 1.
        assertEquals(9 + 3 + 1, expected.size());
        assertEquals(expected.keySet(), actual.keySet());
        for (Map.Entry<String, long[]> entry : expected.entrySet()) {
            assertEquals(List.of(entry.getValue()[0], entry.getValue()[1], entry.getValue()[2]),
                    List.of(actual.get(entry.getKey())[0], actual.get(entry.getKey())[1], actual.get(entry.getKey())[2]),
                    "count, sum, max of " + entry.getKey());
        }
    }

    /** The Gather's output as the expansion reads it: the participants' batches in turn. */
    private static final class GatheredBatches implements Operator {
        private final List<Batch> batches;
        private int next;

        GatheredBatches(List<Batch> batches) {
            this.batches = batches;
        }

        @Override
        public Batch next() {
            return next < batches.size() ? batches.get(next++) : null;
        }

        @Override
        public void close() {
        }
    }
}
