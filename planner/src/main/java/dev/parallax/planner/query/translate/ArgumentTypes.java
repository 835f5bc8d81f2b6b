package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes the arguments of an engine call agree in type with explicit casts, as the engine's
 * Expr contract asks (Calcite leaves mixed-type operands such as {@code integer - numeric}).
 * DECIMAL arguments of different scales are left alone: the engine aligns scales itself.
 */
final class ArgumentTypes {
    private ArgumentTypes() {
    }

    static Expr castTo(Expr expression, DataType type) {
        if (expression.type().equals(type)) {
            return expression;
        }
        return ConstantFolder.fold(new Cast(expression, type));
    }

    static List<Expr> harmonize(Function function, List<Expr> arguments, DataType resultType) {
        if (function == Function.GREATEST || function == Function.LEAST) {
            // Compared and returned as they are: every argument of the result type, decimals of its scale.
            List<Expr> result = new ArrayList<>(arguments.size());
            for (Expr argument : arguments) {
                result.add(argument.type().kind() == TypeKind.NULL ? argument : castTo(argument, resultType));
            }
            return result;
        }
        if (arguments.size() < 2 || !comparesOrCombines(function)) {
            return arguments;
        }
        if ((function == Function.ADD || function == Function.SUBTRACT) && isDateTimeArithmetic(arguments)) {
            return arguments;
        }
        if ((function == Function.MULTIPLY || function == Function.DIVIDE) && arguments.size() == 2
                && isInterval(arguments.get(0)) != isInterval(arguments.get(1))) {
            // interval * number, number * interval, interval / number: the engine scales the interval.
            return arguments;
        }
        DataType common = commonType(arguments);
        if (common == null) {
            return arguments;
        }
        List<Expr> result = new ArrayList<>(arguments.size());
        for (Expr argument : arguments) {
            DataType type = argument.type();
            boolean keep = type.equals(common)
                    || (type.kind() == TypeKind.DECIMAL && common.kind() == TypeKind.DECIMAL)
                    || (type.kind().isBitString() && common.kind().isBitString());
            result.add(keep ? argument : castTo(argument, common));
        }
        return result;
    }

    private static boolean comparesOrCombines(Function function) {
        return switch (function) {
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO, EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
                 GREATER_THAN_OR_EQUAL, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM, COALESCE, NULLIF, BIT_AND, BIT_OR,
                 BIT_XOR -> true;
            default -> false;
        };
    }

    private static boolean isInterval(Expr argument) {
        TypeKind kind = argument.type().kind();
        return kind == TypeKind.INTERVAL_DAY_TIME || kind == TypeKind.INTERVAL_YEAR_MONTH;
    }

    private static boolean isDateTimeArithmetic(List<Expr> arguments) {
        for (Expr argument : arguments) {
            TypeKind kind = argument.type().kind();
            if (kind == TypeKind.DATE || kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ || kind == TypeKind.INTERVAL_DAY_TIME
                    || kind == TypeKind.INTERVAL_YEAR_MONTH) {
                return true;
            }
        }
        return false;
    }

    /** The type all arguments should have, or null when they already agree or cannot be unified here. */
    private static DataType commonType(List<Expr> arguments) {
        DataType common = null;
        for (Expr argument : arguments) {
            DataType type = argument.type();
            if (type.kind() == TypeKind.NULL) {
                continue;
            }
            common = common == null ? type : unify(common, type, argument);
        }
        return common;
    }

    private static DataType unify(DataType left, DataType right, Expr rightExpression) {
        if (left.equals(right)) {
            return left;
        }
        TypeKind leftKind = left.kind();
        TypeKind rightKind = right.kind();
        if (leftKind.isNumeric() && rightKind.isNumeric()) {
            if (leftKind == TypeKind.DOUBLE || rightKind == TypeKind.DOUBLE || leftKind == TypeKind.REAL || rightKind == TypeKind.REAL) {
                return leftKind == rightKind ? left : DataType.DOUBLE;
            }
            if (leftKind == TypeKind.DECIMAL || rightKind == TypeKind.DECIMAL) {
                DataType leftDecimal = asDecimal(left);
                DataType rightDecimal = asDecimal(right);
                int scale = Math.max(leftDecimal.scale(), rightDecimal.scale());
                int integerDigits = Math.max(leftDecimal.precision() - leftDecimal.scale(), rightDecimal.precision() - rightDecimal.scale());
                return DataType.decimal(Math.min(DataType.MAX_DECIMAL_PRECISION, integerDigits + scale), scale);
            }
            return leftKind.ordinal() >= rightKind.ordinal() ? left : right;
        }
        if (leftKind == TypeKind.DATE && rightKind == TypeKind.TIMESTAMP || leftKind == TypeKind.TIMESTAMP && rightKind == TypeKind.DATE) {
            return DataType.TIMESTAMP;
        }
        if ((leftKind == TypeKind.TIMESTAMPTZ) != (rightKind == TypeKind.TIMESTAMPTZ)
                && (leftKind == TypeKind.DATE || leftKind == TypeKind.TIMESTAMP || rightKind == TypeKind.DATE || rightKind == TypeKind.TIMESTAMP)) {
            // PostgreSQL's preferred date/time type: a date or timestamp beside one is read in the session's zone.
            return DataType.TIMESTAMPTZ;
        }
        if (leftKind.isText() && rightKind.isText()) {
            if (leftKind == TypeKind.CHAR && rightExpression instanceof Literal) {
                return left;
            }
            if (rightKind == TypeKind.CHAR && leftKind == TypeKind.TEXT) {
                return right;
            }
            return DataType.TEXT;
        }
        return left;
    }

    private static DataType asDecimal(DataType type) {
        return switch (type.kind()) {
            case SMALLINT -> DataType.decimal(5, 0);
            case INTEGER -> DataType.decimal(10, 0);
            case BIGINT -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0);
            default -> type;
        };
    }
}
