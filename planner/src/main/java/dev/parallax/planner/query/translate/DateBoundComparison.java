package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.TypeKind;

import java.util.List;

/**
 * A DATE compared with a TIMESTAMP constant, as in {@code l_shipdate <= date '1998-12-01' -
 * interval '90' day} (date ± interval is a timestamp in PostgreSQL). PostgreSQL compares the date
 * as midnight of that day; instead of casting the column on every row, the constant becomes the
 * equivalent date bound, exactly: for a timestamp t on day D (midnight of D when exact),
 * {@code c < t} is {@code c < ceil(t)}, {@code c <= t} is {@code c <= D}, {@code c > t} is
 * {@code c > D} and {@code c >= t} is {@code c >= ceil(t)}, where ceil(t) is D when t is midnight
 * and D + 1 otherwise; equality holds only at midnight, so other instants keep the general path.
 * The comparison then stays a date-vs-constant filter the engine runs on the raw day numbers.
 */
final class DateBoundComparison {
    private DateBoundComparison() {
    }

    /** The comparison on date bounds, or null when the arguments are not a date and a timestamp constant. */
    static Expr rewrite(Function function, List<Expr> arguments, DataType type) {
        if (arguments.size() != 2 || !isOrdering(function)) {
            return null;
        }
        Expr left = ConstantFolder.fold(arguments.get(0));
        Expr right = ConstantFolder.fold(arguments.get(1));
        if (isDate(left) && isTimestampConstant(right)) {
            return bound(function, left, (Long) ((Literal) right).value(), type);
        }
        if (isDate(right) && isTimestampConstant(left)) {
            return bound(mirror(function), right, (Long) ((Literal) left).value(), type);
        }
        return null;
    }

    private static Expr bound(Function function, Expr date, long timestamp, DataType type) {
        long day = Math.floorDiv(timestamp, DateTimes.MICROS_PER_DAY);
        boolean midnight = Math.floorMod(timestamp, DateTimes.MICROS_PER_DAY) == 0;
        long ceiling = midnight ? day : day + 1;
        long bound = switch (function) {
            case LESS_THAN, GREATER_THAN_OR_EQUAL -> ceiling;
            case LESS_THAN_OR_EQUAL, GREATER_THAN -> day;
            default -> {
                if (!midnight) {
                    yield Long.MIN_VALUE;
                }
                yield day;
            }
        };
        if (bound == Long.MIN_VALUE) {
            return null;
        }
        return new Call(function, List.of(date, Literal.ofLong(bound, DataType.DATE)), type);
    }

    private static boolean isOrdering(Function function) {
        return switch (function) {
            case EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    /** The operator with its operands swapped: {@code t < c} is {@code c > t}. */
    private static Function mirror(Function function) {
        return switch (function) {
            case LESS_THAN -> Function.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Function.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Function.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Function.LESS_THAN_OR_EQUAL;
            default -> function;
        };
    }

    private static boolean isDate(Expr expression) {
        return expression.type().kind() == TypeKind.DATE;
    }

    private static boolean isTimestampConstant(Expr expression) {
        return expression instanceof Literal literal && !literal.isNull() && literal.type().kind() == TypeKind.TIMESTAMP;
    }
}
