package dev.parallax.engine.operator.project;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class CommonSubexpressionsTest {
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final DataType WIDE = DataType.decimal(18, 4);
    private static final DataType WIDEST = DataType.decimal(18, 6);
    private static final List<DataType> INPUT = List.of(MONEY, MONEY, MONEY);
    private static final Expr PRICE = new ColumnRef(0, MONEY);
    private static final Expr DISCOUNT = new ColumnRef(1, MONEY);
    private static final Expr TAX = new ColumnRef(2, MONEY);
    private static final Expr ONE = new Literal(100L, MONEY);
    private static final Expr DISCOUNTED = new Call(Function.MULTIPLY, List.of(PRICE, new Call(Function.SUBTRACT, List.of(ONE, DISCOUNT), MONEY)), WIDE);

    @Test
    void q1ChargeSharesTheDiscountedPrice() {
        Expr charge = new Call(Function.MULTIPLY, List.of(DISCOUNTED, new Call(Function.ADD, List.of(ONE, TAX), MONEY)), WIDEST);
        CommonSubexpressions common = CommonSubexpressions.find(List.of(PRICE, DISCOUNTED, charge), INPUT);
        assertEquals(List.of(PRICE, DISCOUNT, TAX, DISCOUNTED), common.firstProjection(INPUT));
        Expr shared = new ColumnRef(3, WIDE);
        assertEquals(List.of(PRICE, shared,
                new Call(Function.MULTIPLY, List.of(shared, new Call(Function.ADD, List.of(ONE, TAX), MONEY)), WIDEST)),
                common.secondProjection());
    }

    @Test
    void nothingSharedOrSharedOnlyUnderALazyFunction() {
        assertNull(CommonSubexpressions.find(List.of(PRICE, DISCOUNTED), INPUT));
        Expr guarded = new Call(Function.COALESCE, List.of(DISCOUNTED, ONE), WIDE);
        assertNull(CommonSubexpressions.find(List.of(guarded, new Call(Function.COALESCE, List.of(DISCOUNTED, PRICE), WIDE)), INPUT));
    }
}
