package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.function.ArrayFunctions;
import org.apache.calcite.sql.SqlOperator;

import java.util.ArrayList;
import java.util.List;

/**
 * The engine calls of {@link ArrayFunctions}: arrays and values are cast to the result's array and
 * element type (the common type the validator chose), bounds and subscripts to integers, and
 * {@code @>}/{@code <@}/{@code &&} operands to one array type.
 */
final class ArrayFunctionTranslator {
    private ArrayFunctionTranslator() {
    }

    /** The engine call for {@code operator} over the translated {@code arguments}, or null when it is none of these. */
    static Expr translate(SqlOperator operator, List<Expr> arguments, DataType type) {
        if (operator == ArrayFunctions.ARRAY_APPEND || operator == ArrayFunctions.ARRAY_REMOVE) {
            Function function = operator == ArrayFunctions.ARRAY_APPEND ? Function.ARRAY_APPEND : Function.ARRAY_REMOVE;
            return new Call(function, type, ArgumentTypes.castTo(arguments.get(0), type),
                    ArgumentTypes.castTo(arguments.get(1), type.element()));
        }
        if (operator == ArrayFunctions.ARRAY_PREPEND) {
            return new Call(Function.ARRAY_PREPEND, type, ArgumentTypes.castTo(arguments.get(0), type.element()),
                    ArgumentTypes.castTo(arguments.get(1), type));
        }
        if (operator == ArrayFunctions.ARRAY_CAT) {
            return new Call(Function.ARRAY_CONCAT, type, ArgumentTypes.castTo(arguments.get(0), type),
                    ArgumentTypes.castTo(arguments.get(1), type));
        }
        if (operator == ArrayFunctions.ARRAY_REPLACE) {
            return new Call(Function.ARRAY_REPLACE, type, ArgumentTypes.castTo(arguments.get(0), type),
                    ArgumentTypes.castTo(arguments.get(1), type.element()), ArgumentTypes.castTo(arguments.get(2), type.element()));
        }
        if (operator == ArrayFunctions.ARRAY_POSITION || operator == ArrayFunctions.ARRAY_POSITIONS) {
            List<Expr> cast = searched(arguments.get(0), arguments.get(1));
            if (arguments.size() > 2) {
                cast.add(ArgumentTypes.castTo(arguments.get(2), DataType.INTEGER));
            }
            return new Call(operator == ArrayFunctions.ARRAY_POSITION ? Function.ARRAY_POSITION : Function.ARRAY_POSITIONS, cast, type);
        }
        if (operator == ArrayFunctions.ARRAY_FILL) {
            List<Expr> cast = new ArrayList<>(arguments.size());
            cast.add(ArgumentTypes.castTo(arguments.getFirst(), type.element()));
            for (Expr bounds : arguments.subList(1, arguments.size())) {
                cast.add(ArgumentTypes.castTo(bounds, DataType.array(DataType.INTEGER)));
            }
            return new Call(Function.ARRAY_FILL, cast, type);
        }
        if (operator == ArrayFunctions.CONTAINS || operator == ArrayFunctions.CONTAINED || operator == ArrayFunctions.OVERLAP) {
            Function function = operator == ArrayFunctions.CONTAINS ? Function.ARRAY_CONTAINS
                    : operator == ArrayFunctions.CONTAINED ? Function.ARRAY_CONTAINED : Function.ARRAY_OVERLAP;
            Expr left = arguments.get(0);
            Expr right = arguments.get(1);
            DataType common = left.type().kind() != TypeKind.ARRAY ? right.type().element()
                    : right.type().kind() != TypeKind.ARRAY ? left.type().element()
                    : commonElement(left.type().element(), right.type().element());
            return new Call(function, DataType.BOOLEAN, ArgumentTypes.castTo(left, DataType.array(common)),
                    ArgumentTypes.castTo(right, DataType.array(common)));
        }
        if (operator == ArrayFunctions.SLICE) {
            return new Call(Function.ARRAY_SLICE, List.of(ArgumentTypes.castTo(arguments.get(0), type),
                    ArgumentTypes.castTo(arguments.get(1), DataType.INTEGER), ArgumentTypes.castTo(arguments.get(2), DataType.INTEGER),
                    arguments.get(3), arguments.get(4)), type);
        }
        return null;
    }

    /** The array and the value searched for, in their common element type. */
    private static List<Expr> searched(Expr array, Expr value) {
        DataType element = array.type().element();
        DataType common = value.type().kind() == TypeKind.NULL ? element : commonElement(element, value.type());
        List<Expr> cast = new ArrayList<>(3);
        cast.add(ArgumentTypes.castTo(array, DataType.array(common)));
        cast.add(ArgumentTypes.castTo(value, common));
        return cast;
    }

    private static DataType commonElement(DataType left, DataType right) {
        if (left.kind().isText() && right.kind().isText()) {
            return left.equals(right) ? left : DataType.TEXT;
        }
        return ArgumentTypes.harmonize(Function.EQUAL, List.of(Literal.nullOf(left), Literal.nullOf(right)), DataType.BOOLEAN)
                .getFirst().type();
    }
}
