package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fused {@code bitand(x, mask) = expected} selector gives exactly the unfused evaluation's rows. */
class BitMaskSelectorTest {
    private static final DataType BIT_20 = DataType.bit(20);
    private final WorkerPool workers = new WorkerPool(1, 1);
    private final ExecutionContext context = new ExecutionContext(new MemoryManager(1 << 20), workers, new Settings(),
            null, 0, false);

    @AfterEach
    void close() {
        workers.close();
    }

    @Test
    void selectsTheSameRowsAsTheUnfusedExpression() {
        String mask = "10101010101010101010";
        Batch batch = bits(BIT_20, "10101010101010101010", "11111111111111111111", null, "00000000000000000000",
                "10101010101010101011", "01010101010101010101");
        for (String expected : List.of(mask, "00000000000000000000", "10101010101010101000")) {
            Expr condition = equalsMasked(new ColumnRef(0, BIT_20), mask, expected);
            Predicate fused = ExpressionCompiler.compilePredicate(condition, context);
            assertInstanceOf(BitMaskSelector.class, fused);
            assertArrayEquals(unfused(condition, batch), selected(fused, batch), "expected " + expected);
        }
    }

    @Test
    void honoursTheSelectionAndTheMirroredForm() {
        String mask = "11110000111100001111";
        Batch batch = bits(BIT_20, mask, mask, "00000000000000000000", mask);
        batch.setSelection(new int[] {1, 2, 3}, 3);
        Expr masked = new Call(Function.BIT_AND, BIT_20, literal(mask), new ColumnRef(0, BIT_20));
        Expr condition = new Call(Function.EQUAL, DataType.BOOLEAN, literal(mask), masked);
        Predicate fused = ExpressionCompiler.compilePredicate(condition, context);
        assertInstanceOf(BitMaskSelector.class, fused);
        assertArrayEquals(new int[] {1, 3}, selected(fused, batch));
    }

    @Test
    void expectedValueOfAnotherLengthMatchesNothing() {
        Batch batch = bits(BIT_20, "10101010101010101010");
        Expr condition = equalsMasked(new ColumnRef(0, BIT_20), "10101010101010101010", "1010");
        assertArrayEquals(new int[0], selected(ExpressionCompiler.compilePredicate(condition, context), batch));
    }

    @Test
    void valueOfAnotherLengthThanTheMaskIs22026() {
        DataType varbit = DataType.varbit(DataType.UNBOUNDED);
        Batch batch = bits(varbit, "1010");
        Expr condition = equalsMasked(new ColumnRef(0, varbit), "10101010101010101010", "10101010101010101010");
        ParallaxException error = assertThrows(ParallaxException.class,
                () -> selected(ExpressionCompiler.compilePredicate(condition, context), batch));
        assertEquals(SqlState.STRING_DATA_LENGTH_MISMATCH, error.state());
        assertEquals("cannot AND bit strings of different sizes", error.getMessage());
    }

    private static Expr equalsMasked(Expr value, String mask, String expected) {
        Expr masked = new Call(Function.BIT_AND, value.type(), value, literal(mask));
        return new Call(Function.EQUAL, DataType.BOOLEAN, masked, literal(expected));
    }

    private static Literal literal(String bits) {
        return new Literal(BitString.parse(bits), DataType.bit(bits.length()));
    }

    private static Batch bits(DataType type, String... values) {
        Batch batch = Batch.create(List.of(type), values.length);
        BytesVector vector = (BytesVector) batch.column(0);
        for (int position = 0; position < values.length; position++) {
            if (values[position] == null) {
                vector.setNull(position);
            } else {
                vector.set(position, BitString.parse(values[position]));
            }
        }
        batch.setRowCount(values.length);
        return batch;
    }

    private static int[] selected(Predicate predicate, Batch batch) {
        int[] out = new int[batch.rowCount()];
        return Arrays.copyOf(out, predicate.select(batch, out));
    }

    /** The rows the general (materializing) evaluation marks TRUE. */
    private int[] unfused(Expr condition, Batch batch) {
        var result = ExpressionCompiler.compile(condition, context).evaluate(batch);
        return java.util.stream.IntStream.range(0, batch.selectedCount()).map(batch::position)
                .filter(position -> !result.isNull(position)
                        && ((dev.parallax.engine.vector.LongVector) result).get(position) != 0)
                .toArray();
    }
}
