package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Decimal +, -, * run over every position of a mostly-live batch and test overflow once per batch:
 * an overflow on a filtered-out row must not fail the query, one on a live row must.
 */
class DecimalDenseKernelTest {
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final DataType WIDE = DataType.decimal(18, 4);
    private static final Expr LEFT = new ColumnRef(0, MONEY);
    private static final Expr RIGHT = new ColumnRef(1, MONEY);
    private final WorkerPool workers = new WorkerPool(1, 1);
    private final ExecutionContext context = new ExecutionContext(new MemoryManager(1 << 20), workers, new Settings(),
            new Object[0], 0, false);

    @AfterEach
    void close() {
        workers.close();
    }

    /** Rows i = 0..7: left = 100 * i + 1, right = 3 - i; row 5 holds values for which {@code function} overflows. */
    private static Batch batch(Function function) {
        Batch batch = Batch.create(List.of(MONEY, MONEY), 8);
        for (int row = 0; row < 8; row++) {
            ((LongVector) batch.column(0)).set(row, 100L * row + 1);
            ((LongVector) batch.column(1)).set(row, 3 - row);
        }
        ((LongVector) batch.column(0)).set(5, Long.MAX_VALUE - 1);
        ((LongVector) batch.column(1)).set(5, function == Function.ADD ? Long.MAX_VALUE - 1 : Long.MIN_VALUE + 1);
        batch.setRowCount(8);
        return batch;
    }

    private static int[] allBut(int skipped) {
        int[] selection = new int[7];
        int count = 0;
        for (int row = 0; row < 8; row++) {
            if (row != skipped) {
                selection[count++] = row;
            }
        }
        return selection;
    }

    private long[] evaluate(Function function, Batch batch) {
        LongVector vector = (LongVector) ExpressionCompiler.compile(new Call(function, List.of(LEFT, RIGHT), function == Function.MULTIPLY ? WIDE : MONEY),
                context).evaluate(batch);
        long[] values = new long[batch.selectedCount()];
        for (int index = 0; index < values.length; index++) {
            values[index] = vector.get(batch.position(index));
        }
        return values;
    }

    @Test
    void overflowOnDeadRowIsIgnored() {
        assertEquals(List.of(3L, 202L, 201L, 0L, -401L, -1803L, -2804L), boxed(evaluateAllBut5(Function.MULTIPLY)));
        assertEquals(List.of(4L, 103L, 202L, 301L, 400L, 598L, 697L), boxed(evaluateAllBut5(Function.ADD)));
        assertEquals(List.of(-2L, 99L, 200L, 301L, 402L, 604L, 705L), boxed(evaluateAllBut5(Function.SUBTRACT)));
    }

    @Test
    void overflowOnLiveRowFails() {
        for (Function function : List.of(Function.MULTIPLY, Function.ADD, Function.SUBTRACT)) {
            Batch batch = batch(function);
            batch.setSelection(allBut(6), 7);
            ParallaxException error = assertThrows(ParallaxException.class, () -> evaluate(function, batch), function.name());
            assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, error.state());
            assertEquals("numeric field overflow", error.getMessage());
        }
        Batch dense = batch(Function.MULTIPLY);
        assertThrows(ParallaxException.class, () -> evaluate(Function.MULTIPLY, dense));
    }

    private long[] evaluateAllBut5(Function function) {
        Batch batch = batch(function);
        batch.setSelection(allBut(5), 7);
        return evaluate(function, batch);
    }

    private static List<Long> boxed(long[] values) {
        return java.util.Arrays.stream(values).boxed().toList();
    }
}
