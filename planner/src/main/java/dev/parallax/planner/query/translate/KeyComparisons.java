package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads what the conjuncts of a condition say about one column: the constants or parameters it
 * equals ({@code c = v}, {@code v = c}, {@code c IN (...)}, {@code c = v1 OR c = v2}), or that it
 * is NULL. Used by partition pruning and point lookups; values are only accepted when held like
 * the column (same kind, text with text, the decimal's scale), so that comparing stored
 * representations is comparing values.
 */
final class KeyComparisons {
    private KeyComparisons() {
    }

    /** The conjuncts of {@code condition} (an AND tree flattened), in order. */
    static List<Expr> conjuncts(Expr condition) {
        List<Expr> conjuncts = new ArrayList<>();
        flattenAnd(condition, conjuncts);
        return conjuncts;
    }

    private static void flattenAnd(Expr condition, List<Expr> conjuncts) {
        if (condition instanceof Call call && call.function() == Function.AND) {
            for (Expr argument : call.arguments()) {
                flattenAnd(argument, conjuncts);
            }
        } else {
            conjuncts.add(condition);
        }
    }

    /**
     * The values {@code conjunct} says column {@code column} (an input position) equals, or null
     * when it says nothing usable of it.
     */
    static List<Expr> equalValues(Expr conjunct, int column, DataType columnType) {
        switch (conjunct) {
            case Call call when call.function() == Function.EQUAL && call.arguments().size() == 2 -> {
                Expr left = call.arguments().get(0);
                Expr right = call.arguments().get(1);
                if (isColumn(right, column) && !isColumn(left, column)) {
                    Expr swap = left;
                    left = right;
                    right = swap;
                }
                return isColumn(left, column) && isValue(right, columnType) ? List.of(right) : null;
            }
            case Call call when call.function() == Function.OR -> {
                List<Expr> values = new ArrayList<>();
                for (Expr argument : call.arguments()) {
                    List<Expr> branch = equalValues(argument, column, columnType);
                    if (branch == null) {
                        return null;
                    }
                    values.addAll(branch);
                }
                return values;
            }
            case InList inList when !inList.negated() && isColumn(inList.value(), column) -> {
                for (Expr value : inList.values()) {
                    if (!isValue(value, columnType)) {
                        return null;
                    }
                }
                return inList.values();
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The array (a literal or parameter of an array of values held like the column) that
     * {@code conjunct} says column {@code column} equals an element of ({@code c = ANY (array)}),
     * or null. Only partition pruning takes it: it expands the array when it prunes.
     */
    static Expr equalAnyArray(Expr conjunct, int column, DataType columnType) {
        if (conjunct instanceof Call call && call.function() == Function.EQUAL_ANY && call.arguments().size() == 2
                && isColumn(call.arguments().get(0), column)) {
            Expr array = call.arguments().get(1);
            if ((array instanceof Literal || array instanceof Parameter) && array.type().kind() == TypeKind.ARRAY
                    && heldAlike(array.type().element(), columnType)) {
                return array;
            }
        }
        return null;
    }

    /** Whether {@code conjunct} is {@code column IS NULL}. */
    static boolean isNullTest(Expr conjunct, int column) {
        return conjunct instanceof Call call && call.function() == Function.IS_NULL && call.arguments().size() == 1
                && isColumn(call.arguments().getFirst(), column);
    }

    private static boolean isColumn(Expr expression, int column) {
        return expression instanceof ColumnRef ref && ref.index() == column;
    }

    private static boolean isValue(Expr expression, DataType columnType) {
        return (expression instanceof Literal || expression instanceof Parameter) && heldAlike(expression.type(), columnType);
    }

    /** Values compare in the stored representation: same kind (and decimal scale), or text with text; char(n) only with char(n). */
    static boolean heldAlike(DataType valueType, DataType columnType) {
        if (valueType.kind() == TypeKind.NULL) {
            return true;
        }
        if (columnType.kind() == TypeKind.CHAR || valueType.kind() == TypeKind.CHAR) {
            return valueType.kind() == columnType.kind();
        }
        if (valueType.kind().isText() && columnType.kind().isText()) {
            return true;
        }
        if (valueType.kind() != columnType.kind()) {
            // Integers of every width are held as the same long.
            return isInteger(valueType.kind()) && isInteger(columnType.kind());
        }
        return columnType.kind() != TypeKind.DECIMAL || valueType.scale() == columnType.scale();
    }

    private static boolean isInteger(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
    }
}
