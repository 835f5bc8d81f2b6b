package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SINGLE_VALUE: one row's value per group (NULL included), and 21000 on a second row, in one pass and across partials. */
class SingleValueAccumulatorTest {
    private static AggregateCall singleValue(DataType type) {
        return new AggregateCall(AggregateFunction.SINGLE_VALUE, 1, false, type, type,
                AggregateStates.stateTypes(AggregateFunction.SINGLE_VALUE, type, type), "single_value");
    }

    /** Rows (key, value): value NULL where {@code values[i]} is null. */
    private static Batch rows(long[] keys, Long[] values) {
        Batch batch = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT), keys.length);
        for (int row = 0; row < keys.length; row++) {
            ((LongVector) batch.column(0)).set(row, keys[row]);
            if (values[row] == null) {
                batch.column(1).setNull(row);
            } else {
                ((LongVector) batch.column(1)).set(row, values[row]);
            }
        }
        batch.setRowCount(keys.length);
        return batch;
    }

    private static HashAggregation aggregation(AggregateMode mode, DataType type) {
        return new HashAggregation(mode, new int[]{0}, List.of(DataType.INTEGER), List.of(singleValue(type)));
    }

    @Test
    void eachGroupsOnlyRowGivesItsValueIncludingNull() {
        HashAggregation aggregation = aggregation(AggregateMode.SINGLE, DataType.BIGINT);
        aggregation.add(rows(new long[]{1, 2, 3}, new Long[]{10L, null, -7L}));
        Batch out = Batch.create(List.of(DataType.INTEGER, DataType.BIGINT), 3);
        aggregation.write(0, aggregation.groupCount(), out);
        assertEquals(3, out.rowCount());
        for (int row = 0; row < 3; row++) {
            long key = ((LongVector) out.column(0)).get(row);
            if (key == 2) {
                assertTrue(out.column(1).isNull(row));
            } else {
                assertFalse(out.column(1).isNull(row));
                assertEquals(key == 1 ? 10L : -7L, ((LongVector) out.column(1)).get(row));
            }
        }
    }

    @Test
    void secondRowOfAGroupRaisesCardinalityViolationEvenWhenNull() {
        HashAggregation aggregation = aggregation(AggregateMode.SINGLE, DataType.BIGINT);
        ParallaxException error = assertThrows(ParallaxException.class,
                () -> aggregation.add(rows(new long[]{1, 2, 1}, new Long[]{null, 5L, null})));
        assertEquals(SqlState.CARDINALITY_VIOLATION, error.state());
        assertEquals("more than one row returned by a subquery used as an expression", error.getMessage());
    }

    @Test
    void rowsOfOneGroupInTwoPartialsRaiseInTheFinalAggregate() {
        HashAggregation first = aggregation(AggregateMode.PARTIAL, DataType.BIGINT);
        HashAggregation second = aggregation(AggregateMode.PARTIAL, DataType.BIGINT);
        first.add(rows(new long[]{1, 2}, new Long[]{10L, 20L}));
        second.add(rows(new long[]{3}, new Long[]{30L}));
        HashAggregation last = aggregation(AggregateMode.PARTIAL, DataType.BIGINT);
        last.add(rows(new long[]{1}, new Long[]{11L}));
        List<DataType> stateRow = List.of(DataType.INTEGER, DataType.BIGINT, DataType.BIGINT);
        HashAggregation combined = new HashAggregation(AggregateMode.FINAL, new int[]{0}, List.of(DataType.INTEGER),
                List.of(singleValue(DataType.BIGINT)));
        for (HashAggregation partial : List.of(first, second)) {
            Batch states = Batch.create(stateRow, 4);
            partial.write(0, partial.groupCount(), states);
            combined.add(states);
        }
        assertEquals(3, combined.groupCount());
        Batch states = Batch.create(stateRow, 4);
        last.write(0, last.groupCount(), states);
        ParallaxException error = assertThrows(ParallaxException.class, () -> combined.add(states));
        assertEquals(SqlState.CARDINALITY_VIOLATION, error.state());
    }

    @Test
    void textValueIsKept() {
        HashAggregation aggregation = new HashAggregation(AggregateMode.SINGLE, new int[]{}, List.of(), List.of(
                new AggregateCall(AggregateFunction.SINGLE_VALUE, 0, false, DataType.TEXT, DataType.TEXT,
                        AggregateStates.stateTypes(AggregateFunction.SINGLE_VALUE, DataType.TEXT, DataType.TEXT), "single_value")));
        Batch input = Batch.create(List.of(DataType.TEXT), 1);
        ((BytesVector) input.column(0)).set(0, "only".getBytes(StandardCharsets.UTF_8));
        input.setRowCount(1);
        aggregation.add(input);
        Batch out = Batch.create(List.of(DataType.TEXT), 1);
        aggregation.write(0, 1, out);
        assertEquals("only", ((BytesVector) out.column(0)).getString(0));
    }
}
