package dev.parallax.engine.expr.eval;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ExpressionCompilerTest {
    private static final DataType MONEY = DataType.decimal(15, 2);
    private final WorkerPool workers = new WorkerPool(1, 1);
    private final ExecutionContext context = new ExecutionContext(new MemoryManager(1 << 20), workers, new Settings(),
            new Object[0], 0, false);

    @AfterEach
    void close() {
        workers.close();
    }

    /** Rows: x INTEGER {0, 5, -3, NULL}, price numeric(15,2) {0.05, 10.05, 20.05, 30.05}, day DATE, name TEXT. */
    private static Batch batch() {
        Batch batch = Batch.create(List.of(DataType.INTEGER, MONEY, DataType.DATE, DataType.TEXT), 4);
        long[] integers = {0, 5, -3, 0};
        String[] names = {"abc", "abd", "héllo", "x"};
        for (int row = 0; row < 4; row++) {
            ((LongVector) batch.column(0)).set(row, integers[row]);
            ((LongVector) batch.column(1)).set(row, 1000L * row + 5);
            ((LongVector) batch.column(2)).set(row, 10_000 + row);
            ((BytesVector) batch.column(3)).set(row, names[row].getBytes(StandardCharsets.UTF_8));
        }
        batch.column(0).setNull(3);
        batch.setRowCount(4);
        return batch;
    }

    private static final Expr X = new ColumnRef(0, DataType.INTEGER);
    private static final Expr PRICE = new ColumnRef(1, MONEY);
    private static final Expr DAY = new ColumnRef(2, DataType.DATE);
    private static final Expr NAME = new ColumnRef(3, DataType.TEXT);

    private static Literal integer(long value) {
        return Literal.ofLong(value, DataType.INTEGER);
    }

    private static Literal text(String value) {
        return new Literal(value.getBytes(StandardCharsets.UTF_8), DataType.TEXT);
    }

    private List<String> evaluate(Expr expression, Batch batch) {
        ColumnVector vector = ExpressionCompiler.compile(expression, context).evaluate(batch);
        List<String> texts = new ArrayList<>();
        for (int index = 0; index < batch.selectedCount(); index++) {
            texts.add(ValueText.format(vector, batch.position(index)));
        }
        return texts;
    }

    private List<String> evaluate(Expr expression) {
        return evaluate(expression, batch());
    }

    private void assertError(SqlState state, String message, Expr expression) {
        ParallaxException error = assertThrows(ParallaxException.class, () -> evaluate(expression));
        assertEquals(state, error.state());
        assertEquals(message, error.getMessage());
    }

    @Test
    void caseEvaluatesBranchesOnlyForRowsReachingThem() {
        Expr divide = new Call(Function.DIVIDE, DataType.INTEGER, integer(10), X);
        Expr guarded = new Case(List.of(new Call(Function.EQUAL, DataType.BOOLEAN, X, integer(0))), List.of(integer(-1)),
                divide, DataType.INTEGER);
        assertEquals(Arrays.asList("-1", "2", "-3", null), evaluate(guarded));
        assertError(SqlState.DIVISION_BY_ZERO, "division by zero", divide);
    }

    @Test
    void scalarSubqueryValueFailsOnlyAtRowsOfGroupsOfSeveralRowsThatReadIt() {
        // x as the row count of each row's group: 0 and -3 pass, NULL is no group, 5 is five rows.
        Expr value = new Call(Function.SCALAR_SUBQUERY_VALUE, DataType.TEXT, NAME, X);
        Expr guarded = new Case(List.of(new Call(Function.EQUAL, DataType.BOOLEAN, X, integer(5))), List.of(text("skipped")),
                value, DataType.TEXT);
        assertEquals(List.of("abc", "skipped", "héllo", "x"), evaluate(guarded));
        Batch batch = batch();
        batch.setSelection(new int[] {0, 2, 3}, 3);
        assertEquals(List.of("abc", "héllo", "x"), evaluate(value, batch));
        assertError(SqlState.CARDINALITY_VIOLATION, "more than one row returned by a subquery used as an expression", value);
    }

    @Test
    void selectionLimitsEvaluationToLiveRows() {
        Batch batch = batch();
        batch.setSelection(new int[] {1, 2}, 2);
        Expr divide = new Call(Function.DIVIDE, DataType.INTEGER, integer(10), X);
        assertEquals(List.of("2", "-3"), evaluate(divide, batch));
    }

    @Test
    void integerOverflowAndDecimalArithmetic() {
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range",
                new Call(Function.MULTIPLY, DataType.INTEGER, new Call(Function.ADD, DataType.INTEGER, X, integer(1)), integer(Integer.MAX_VALUE)));
        Expr discounted = new Call(Function.MULTIPLY, DataType.decimal(18, 4), PRICE,
                new Call(Function.SUBTRACT, MONEY, integer(1), new Literal(5L, MONEY)));
        assertEquals(List.of("0.0475", "9.5475", "19.0475", "28.5475"), evaluate(discounted));
        Expr divided = new Call(Function.DIVIDE, DataType.decimal(18, 2), PRICE, new Literal(3L, DataType.decimal(5, 0)));
        assertEquals(List.of("0.02", "3.35", "6.68", "10.02"), evaluate(divided));
    }

    @Test
    void predicateOnDateConstantDropsNulls() {
        Expr condition = new Call(Function.LESS_THAN_OR_EQUAL, DataType.BOOLEAN, DAY, new Literal(10_001L, DataType.DATE));
        int[] out = new int[4];
        assertEquals(2, ExpressionCompiler.compilePredicate(condition, context).select(batch(), out));
        assertEquals(List.of(0, 1), List.of(out[0], out[1]));
        Expr nullable = new Call(Function.GREATER_THAN_OR_EQUAL, DataType.BOOLEAN, X, integer(0));
        assertEquals(2, ExpressionCompiler.compilePredicate(nullable, context).select(batch(), out));
    }

    @Test
    void threeValuedLogicAndInList() {
        Expr positive = new Call(Function.GREATER_THAN, DataType.BOOLEAN, X, integer(0));
        Expr orTrue = new Call(Function.OR, DataType.BOOLEAN, positive, new Literal(1L, DataType.BOOLEAN));
        assertEquals(List.of("t", "t", "t", "t"), evaluate(orTrue));
        Expr andFalse = new Call(Function.AND, DataType.BOOLEAN, positive, new Literal(0L, DataType.BOOLEAN));
        assertEquals(List.of("f", "f", "f", "f"), evaluate(andFalse));
        assertEquals(Arrays.asList("f", "t", "f", null), evaluate(new Call(Function.AND, DataType.BOOLEAN, positive,
                new Literal(1L, DataType.BOOLEAN))));
        Expr in = new InList(X, List.of(integer(5), Literal.nullOf(DataType.INTEGER)), false);
        assertEquals(Arrays.asList(null, "t", null, null), evaluate(in));
    }

    @Test
    void datesExtractAndTruncate() {
        Expr plusMonth = new Call(Function.ADD, DataType.TIMESTAMP, new Literal(DataTypeDays.JANUARY_31_2024, DataType.DATE),
                new Literal(1L, DataType.INTERVAL_YEAR_MONTH));
        assertEquals(List.of("2024-02-29 00:00:00", "2024-02-29 00:00:00", "2024-02-29 00:00:00", "2024-02-29 00:00:00"),
                evaluate(plusMonth));
        assertEquals(List.of("1997-05-19", "1997-05-20", "1997-05-21", "1997-05-22"), evaluate(DAY));
        Expr year = new Call(Function.EXTRACT, DataType.BIGINT, text("year"), DAY);
        assertEquals(List.of("1997", "1997", "1997", "1997"), evaluate(year));
        Expr dow = new Call(Function.EXTRACT, DataType.BIGINT, text("dow"), DAY);
        assertEquals(List.of("1", "2", "3", "4"), evaluate(dow));
        Expr month = new Call(Function.DATE_TRUNC, DataType.TIMESTAMP, text("month"), DAY);
        assertEquals("1997-05-01 00:00:00", evaluate(month).getFirst());
        Expr difference = new Call(Function.SUBTRACT, DataType.INTEGER, DAY, new Literal(9_999L, DataType.DATE));
        assertEquals(List.of("1", "2", "3", "4"), evaluate(difference));
    }

    @Test
    void textFunctions() {
        assertEquals(List.of("t", "f", "f", "f"), evaluate(new Call(Function.LIKE, DataType.BOOLEAN, NAME, text("abc"))));
        assertEquals(List.of("f", "f", "t", "f"), evaluate(new Call(Function.LIKE, DataType.BOOLEAN, NAME, text("h_llo"))));
        assertEquals(List.of("t", "t", "f", "f"), evaluate(new Call(Function.LIKE, DataType.BOOLEAN, NAME, text("ab%"))));
        assertEquals(List.of("t", "f", "f", "f"), evaluate(new Call(Function.ILIKE, DataType.BOOLEAN, NAME, text("%BC"))));
        assertEquals(List.of("bc", "bd", "él", ""), evaluate(new Call(Function.SUBSTRING, DataType.TEXT, NAME, integer(2), integer(2))));
        assertEquals(List.of("3", "3", "5", "1"), evaluate(new Call(Function.CHAR_LENGTH, DataType.INTEGER, NAME)));
        assertEquals(List.of("ABC", "ABD", "HÉLLO", "X"), evaluate(new Call(Function.UPPER, DataType.TEXT, NAME)));
        assertEquals("900150983cd24fb0d6963f7d28e17f72", evaluate(new Call(Function.MD5, DataType.TEXT, NAME)).getFirst());
        assertEquals("abc!", evaluate(new Call(Function.CONCAT, DataType.TEXT, NAME, text("!"))).getFirst());
        assertEquals(List.of("0", "0", "3", "0"), evaluate(new Call(Function.POSITION, DataType.INTEGER, text("l"), NAME)));
        assertError(SqlState.SUBSTRING_ERROR, "negative substring length not allowed",
                new Call(Function.SUBSTRING, DataType.TEXT, NAME, integer(1), integer(-1)));
    }

    @Test
    void bitStrings() {
        Literal left = new Literal(BitString.parse("1100"), DataType.bit(4));
        Literal right = new Literal(BitString.parse("1010"), DataType.bit(4));
        assertEquals("1000", evaluate(new Call(Function.BIT_AND, DataType.bit(4), left, right)).getFirst());
        assertEquals("0110", evaluate(new Call(Function.BIT_XOR, DataType.bit(4), left, right)).getFirst());
        assertEquals("0011", evaluate(new Call(Function.BIT_NOT, DataType.bit(4), left)).getFirst());
        assertEquals("1000", evaluate(new Call(Function.SHIFT_LEFT, DataType.bit(4), left, integer(1))).getFirst());
        assertError(SqlState.STRING_DATA_LENGTH_MISMATCH, "cannot OR bit strings of different sizes",
                new Call(Function.BIT_OR, DataType.VARBIT, left, new Literal(BitString.parse("1"), DataType.bit(1))));
    }

    @Test
    void castsAndCoalesce() {
        assertEquals(List.of("0.05", "10.05", "20.05", "30.05"), evaluate(new Cast(PRICE, DataType.TEXT)));
        assertEquals(List.of("0", "10", "20", "30"), evaluate(new Cast(PRICE, DataType.INTEGER)));
        assertEquals(List.of("ab", "ab", "hé", "x"), evaluate(new Cast(NAME, DataType.varchar(2))));
        assertError(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"abc\"", new Cast(NAME, DataType.INTEGER));
        assertError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "smallint out of range",
                new Cast(Literal.ofLong(40_000, DataType.INTEGER), DataType.SMALLINT));
        assertEquals(List.of("0", "5", "-3", "7"), evaluate(new Call(Function.COALESCE, DataType.INTEGER, X, integer(7))));
        assertEquals(Arrays.asList(null, "5", "-3", null), evaluate(new Call(Function.NULLIF, DataType.INTEGER, X, integer(0))));
    }

    /** Day numbers used by the date tests. */
    private static final class DataTypeDays {
        static final long JANUARY_31_2024 = 19_753L;
    }
}
