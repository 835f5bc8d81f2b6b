package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Folds constant sub-expressions the planner meets in ordinary queries ({@code date '1998-12-01'
 * - interval '90' day}, {@code 0.06 - 0.01}, casts of literals) with PostgreSQL's arithmetic.
 * Anything it does not know is left for the engine; a fold that would fail (overflow) is left too,
 * so the error is raised at execution as PostgreSQL raises it.
 */
final class ConstantFolder {
    private static final long MICROSECONDS_PER_DAY = 86_400_000_000L;

    private ConstantFolder() {
    }

    static Expr fold(Expr expression) {
        if (expression instanceof Call call && !call.arguments().isEmpty()) {
            expression = new Call(call.function(), call.arguments().stream().map(ConstantFolder::fold).toList(), call.type());
        } else if (expression instanceof Cast cast) {
            expression = new Cast(fold(cast.input()), cast.type());
        }
        try {
            return switch (expression) {
                case Cast cast when cast.input() instanceof Literal literal -> foldCast(literal, cast.type(), cast);
                case Call call when !call.arguments().isEmpty() && call.arguments().stream().allMatch(Literal.class::isInstance) -> foldCall(call);
                default -> expression;
            };
        } catch (ArithmeticException overflow) {
            return expression;
        }
    }

    private static Expr foldCast(Literal literal, DataType type, Expr original) {
        if (literal.isNull()) {
            return Literal.nullOf(type);
        }
        DataType from = literal.type();
        if (from.kind().isNumeric() && from.kind() != TypeKind.REAL && from.kind() != TypeKind.DOUBLE) {
            BigDecimal value = decimal(literal);
            return switch (type.kind()) {
                case SMALLINT, INTEGER, BIGINT -> {
                    long rounded = value.setScale(0, RoundingMode.HALF_UP).longValueExact();
                    yield inRange(rounded, type) ? Literal.ofLong(rounded, type) : original;
                }
                case DECIMAL -> {
                    BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
                    yield scaled.precision() - scaled.scale() <= type.precision() - type.scale()
                            ? Literal.ofLong(scaled.unscaledValue().longValueExact(), type) : original;
                }
                // Past real's range: left to the cast, whose 22003 it is.
                case REAL -> Float.isInfinite(value.floatValue()) ? original : new Literal((double) value.floatValue(), type);
                case DOUBLE -> new Literal(value.doubleValue(), type);
                default -> original;
            };
        }
        if (from.kind() == TypeKind.TEXT && type.kind() == TypeKind.CHAR && type.length() != DataType.UNBOUNDED) {
            String text = new String((byte[]) literal.value(), StandardCharsets.UTF_8);
            int length = text.codePointCount(0, text.length());
            if (length <= type.length()) {
                return new Literal((text + " ".repeat(type.length() - length)).getBytes(StandardCharsets.UTF_8), type);
            }
        }
        if (from.kind() == TypeKind.TEXT && (type.kind() == TypeKind.TEXT || type.kind() == TypeKind.VARCHAR && type.length() == DataType.UNBOUNDED)) {
            return new Literal(literal.value(), type);
        }
        if (from.kind() == TypeKind.TEXT && type.kind() == TypeKind.UUID) {
            // id = 'a0ee...' as a uuid literal (pruning and the primary key's point lookup need one). A malformed
            // one fails now, as PostgreSQL reads a quoted literal while parsing: 22P02 even in an IN list whose
            // earlier value matched, or in a CASE branch never taken.
            return new Literal(dev.parallax.engine.type.ValueText.parse(type, new String((byte[]) literal.value(), StandardCharsets.UTF_8)), type);
        }
        if (from.kind() == TypeKind.TEXT && type.kind() == TypeKind.ARRAY) {
            // '{1,2}'::int[] as one array literal (partition pruning reads its elements); a malformed one fails when run.
            try {
                return new Literal(dev.parallax.engine.type.ValueText.parse(type, new String((byte[]) literal.value(), StandardCharsets.UTF_8)), type);
            } catch (dev.parallax.engine.error.ParallaxException malformed) {
                return original;
            }
        }
        return original;
    }

    private static Expr foldCall(Call call) {
        Literal left = (Literal) call.arguments().getFirst();
        DataType type = call.type();
        if (call.arguments().size() == 1) {
            if (call.function() == dev.parallax.engine.expr.Function.NEGATE && !left.isNull() && isExact(left.type())) {
                return literalOf(decimal(left).negate(), type, call);
            }
            return call;
        }
        if (call.arguments().size() != 2) {
            return call;
        }
        Literal right = (Literal) call.arguments().get(1);
        if (left.isNull() || right.isNull()) {
            return call;
        }
        switch (call.function()) {
            case ADD, SUBTRACT -> {
                int sign = call.function() == dev.parallax.engine.expr.Function.ADD ? 1 : -1;
                if (left.type().kind() == TypeKind.DATE && type.kind() == TypeKind.DATE) {
                    return dateArithmetic((Long) left.value(), right, sign, call);
                }
                if (left.type().kind() == TypeKind.DATE && type.kind() == TypeKind.TIMESTAMP) {
                    return timestampArithmetic((Long) left.value() * MICROSECONDS_PER_DAY, right, sign, call);
                }
                if (left.type().kind() == TypeKind.TIMESTAMP && type.kind() == TypeKind.TIMESTAMP) {
                    return timestampArithmetic((Long) left.value(), right, sign, call);
                }
                if (sign > 0 && right.type().kind() == TypeKind.DATE && type.kind() == TypeKind.TIMESTAMP) {
                    return timestampArithmetic((Long) right.value() * MICROSECONDS_PER_DAY, left, sign, call);
                }
                if (isExact(left.type()) && isExact(right.type()) && isExact(type)) {
                    BigDecimal result = sign > 0 ? decimal(left).add(decimal(right)) : decimal(left).subtract(decimal(right));
                    return literalOf(result, type, call);
                }
                return call;
            }
            case MULTIPLY -> {
                if (isExact(left.type()) && isExact(right.type()) && isExact(type)) {
                    return literalOf(decimal(left).multiply(decimal(right)), type, call);
                }
                return call;
            }
            case DIVIDE -> {
                if (type.kind() == TypeKind.DECIMAL && isExact(left.type()) && isExact(right.type()) && (Long) right.value() != 0) {
                    return decimalQuotient(left, right, call);
                }
                return call;
            }
            default -> {
                return call;
            }
        }
    }

    /**
     * A constant numeric quotient at the scale PostgreSQL gives that very value (select_div_scale,
     * {@link DecimalMath#divisionScale}), reduced to what 18 digits hold: {@code 10.0 / 4} is
     * 2.5000000000000000 as in PostgreSQL, {@code 1.0 / 3} keeps 18 of PostgreSQL's 20 fraction digits.
     */
    private static Expr decimalQuotient(Literal left, Literal right, Call call) {
        int leftScale = scaleOf(left.type());
        int rightScale = scaleOf(right.type());
        int scale = DecimalMath.divisionScale((Long) left.value(), leftScale, (Long) right.value(), rightScale);
        BigDecimal quotient = decimal(left).divide(decimal(right), Math.min(scale, DataType.MAX_DECIMAL_PRECISION), RoundingMode.HALF_UP);
        int integerDigits = Math.max(0, quotient.precision() - quotient.scale());
        if (integerDigits > DataType.MAX_DECIMAL_PRECISION) {
            return call;
        }
        int fitted = Math.min(quotient.scale(), DataType.MAX_DECIMAL_PRECISION - integerDigits);
        BigDecimal rounded = decimal(left).divide(decimal(right), fitted, RoundingMode.HALF_UP);
        if (rounded.precision() - rounded.scale() > DataType.MAX_DECIMAL_PRECISION - fitted) {
            // Rounding carried into a new integer digit (9.99.. to 10.0..): one fraction digit fewer.
            fitted--;
            if (fitted < 0) {
                return call;
            }
            rounded = decimal(left).divide(decimal(right), fitted, RoundingMode.HALF_UP);
        }
        return Literal.ofLong(rounded.unscaledValue().longValueExact(), DataType.decimal(DataType.MAX_DECIMAL_PRECISION, fitted));
    }

    private static int scaleOf(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }

    private static Expr dateArithmetic(long days, Literal right, int sign, Call call) {
        long amount = (Long) right.value();
        return switch (right.type().kind()) {
            case INTEGER, SMALLINT, BIGINT -> Literal.ofLong(days + sign * amount, DataType.DATE);
            case INTERVAL_YEAR_MONTH -> Literal.ofLong(LocalDate.ofEpochDay(days).plusMonths(sign * amount).toEpochDay(), DataType.DATE);
            case INTERVAL_DAY_TIME -> amount % MICROSECONDS_PER_DAY == 0
                    ? Literal.ofLong(days + sign * (amount / MICROSECONDS_PER_DAY), DataType.DATE) : call;
            default -> call;
        };
    }

    /** timestamp ± interval, months first as PostgreSQL adds them (end of month clamps), then microseconds. */
    private static Expr timestampArithmetic(long micros, Literal interval, int sign, Call call) {
        long amount = (Long) interval.value();
        return switch (interval.type().kind()) {
            case INTERVAL_YEAR_MONTH -> Literal.ofLong(DateTimes.addMonthsToTimestamp(micros, Math.multiplyExact(sign, amount)), DataType.TIMESTAMP);
            case INTERVAL_DAY_TIME -> Literal.ofLong(Math.addExact(micros, Math.multiplyExact(sign, amount)), DataType.TIMESTAMP);
            default -> call;
        };
    }

    private static boolean isExact(DataType type) {
        return switch (type.kind()) {
            case SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
            default -> false;
        };
    }

    private static BigDecimal decimal(Literal literal) {
        long value = (Long) literal.value();
        return literal.type().kind() == TypeKind.DECIMAL ? BigDecimal.valueOf(value, literal.type().scale()) : BigDecimal.valueOf(value);
    }

    private static Expr literalOf(BigDecimal value, DataType type, Expr original) {
        if (type.kind() == TypeKind.DECIMAL) {
            BigDecimal scaled = value.setScale(type.scale(), RoundingMode.HALF_UP);
            if (scaled.precision() - scaled.scale() > type.precision() - type.scale()) {
                return original;
            }
            return Literal.ofLong(scaled.unscaledValue().longValueExact(), type);
        }
        long exact = value.longValueExact();
        return inRange(exact, type) ? Literal.ofLong(exact, type) : original;
    }

    private static boolean inRange(long value, DataType type) {
        return switch (type.kind()) {
            case SMALLINT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
            case INTEGER -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            default -> true;
        };
    }
}
