package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueObjects;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.planner.statement.ExecuteStatement;
import dev.parallax.planner.statement.SqlLexer;
import dev.parallax.planner.statement.Token;
import dev.parallax.planner.statement.TokenKind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;

/**
 * Evaluates the arguments of {@code EXECUTE name(argument, ...)} into the Java values a
 * {@link SqlPreparedQuery} binds, with PostgreSQL's rules: each argument is an expression,
 * coerced to its parameter's type as an assignment is (numbers to any numeric type with rounding
 * and range checks, anything to a string type, date and timestamp to each other); a string
 * constant or NULL has no type yet and goes through the parameter type's input (22P02 for a bad
 * value); any other pairing is PostgreSQL's 42804 "parameter $n of type X cannot be coerced to
 * the expected type Y". Constants (numbers, strings, NULL, TRUE/FALSE, a minus sign) are read
 * directly; other expressions are planned and run as {@code SELECT expression}.
 */
final class ExecuteArguments {
    private static final BigInteger INTEGER_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INTEGER_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /** The type of a numeric constant; only its kind matters here (the binder rounds to the parameter's scale). */
    private static final DataType NUMERIC = DataType.decimal(18, 0);

    private ExecuteArguments() {
    }

    /** An argument's value (Java object, null for NULL), its type (null: a constant without a type yet) and its text form. */
    private record Evaluated(Object value, DataType type, String text) {
    }

    /** The values to bind for {@code types}, one per argument; the caller has checked the count. */
    static Object[] evaluate(SqlSession session, List<ExecuteStatement.Argument> arguments, List<DataType> types) {
        Object[] values = new Object[arguments.size()];
        for (int index = 0; index < values.length; index++) {
            ExecuteStatement.Argument argument = arguments.get(index);
            Evaluated evaluated = constant(argument.text());
            if (evaluated == null) {
                evaluated = expression(session, argument);
            }
            values[index] = coerce(evaluated, types.get(index), index + 1);
        }
        return values;
    }

    /** The value to bind for a parameter of {@code target}: checked for assignability, converted by the binder. */
    private static Object coerce(Evaluated argument, DataType target, int number) {
        if (argument.value() == null) {
            return null;
        }
        if (argument.type() == null) {
            // An untyped string constant: the parameter type's input function reads it now, as PostgreSQL does.
            ParameterBinder.convert(target, argument.value());
            return argument.value();
        }
        if (!assignable(argument.type(), target)) {
            throw new ParallaxException(SqlState.DATATYPE_MISMATCH, String.format(Locale.ROOT,
                    "parameter $%d of type %s cannot be coerced to the expected type %s",
                    number, argument.type().nameWithoutModifier(), target.nameWithoutModifier()))
                    .withHint("You will need to rewrite or cast the expression.");
        }
        Object value = isString(target.kind()) ? argument.text() : argument.value();
        ParameterBinder.convert(target, value);
        return value;
    }

    /** PostgreSQL's assignment casts between the types Parallax has (pg_cast with castcontext 'a' or 'i', and I/O casts to strings). */
    static boolean assignable(DataType source, DataType target) {
        TypeKind from = source.kind();
        TypeKind to = target.kind();
        if (from == to && from != TypeKind.ARRAY || isString(to)) {
            return true;
        }
        if (isNumeric(from) && isNumeric(to)) {
            return true;
        }
        return switch (from) {
            case DATE, TIMESTAMP, TIMESTAMPTZ -> to == TypeKind.DATE || to == TypeKind.TIMESTAMP || to == TypeKind.TIMESTAMPTZ;
            case INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> to == TypeKind.INTERVAL_DAY_TIME || to == TypeKind.INTERVAL_YEAR_MONTH;
            case BIT, VARBIT -> to == TypeKind.BIT || to == TypeKind.VARBIT;
            case ARRAY -> to == TypeKind.ARRAY && assignable(source.element(), target.element());
            default -> false;
        };
    }

    private static boolean isNumeric(TypeKind kind) {
        return switch (kind) {
            case SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE -> true;
            default -> false;
        };
    }

    private static boolean isString(TypeKind kind) {
        return kind == TypeKind.TEXT || kind == TypeKind.VARCHAR || kind == TypeKind.CHAR;
    }

    /**
     * A constant read without planning: a number (integer: integer, bigint or else numeric, as
     * PostgreSQL types it; with a point or exponent: numeric) with an optional sign, a string
     * (no type yet), NULL, TRUE or FALSE; null for anything else.
     */
    private static Evaluated constant(String text) {
        String trimmed = text.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "null" -> {
                return new Evaluated(null, null, null);
            }
            case "true", "false" -> {
                return new Evaluated(lower.equals("true"), DataType.BOOLEAN, lower);
            }
            default -> {
            }
        }
        if (!trimmed.isEmpty() && (trimmed.charAt(0) == '\'' || trimmed.charAt(0) == '$' || trimmed.charAt(0) == 'E'
                || trimmed.charAt(0) == 'e')) {
            // One string constant ('...', E'...', $$...$$): no type yet, as in PostgreSQL.
            List<Token> tokens;
            try {
                tokens = SqlLexer.tokenize(trimmed);
            } catch (ParallaxException notAString) {
                return null;
            }
            if (tokens.size() == 2 && tokens.getFirst().kind() == TokenKind.STRING) {
                String value = tokens.getFirst().value();
                return new Evaluated(value, null, value);
            }
        }
        return number(trimmed);
    }

    private static Evaluated number(String text) {
        int start = 0;
        boolean negative = false;
        while (start < text.length() && (text.charAt(start) == '-' || text.charAt(start) == '+' || Character.isWhitespace(text.charAt(start)))) {
            negative ^= text.charAt(start) == '-';
            start++;
        }
        String digits = text.substring(start);
        if (digits.isEmpty() || !Character.isDigit(digits.charAt(0)) && digits.charAt(0) != '.') {
            return null;
        }
        for (int index = 0; index < digits.length(); index++) {
            char character = digits.charAt(index);
            if (!Character.isDigit(character) && character != '.' && character != 'e' && character != 'E'
                    && !((character == '-' || character == '+') && index > 0
                    && (digits.charAt(index - 1) == 'e' || digits.charAt(index - 1) == 'E'))) {
                return null;
            }
        }
        BigDecimal value;
        try {
            value = new BigDecimal(digits);
        } catch (NumberFormatException notANumber) {
            return null;
        }
        if (negative) {
            value = value.negate();
        }
        String signed = (negative ? "-" : "") + digits;
        if (digits.chars().allMatch(Character::isDigit)) {
            BigInteger integer = value.toBigIntegerExact();
            if (integer.compareTo(INTEGER_MIN) >= 0 && integer.compareTo(INTEGER_MAX) <= 0) {
                return new Evaluated(integer.intValue(), DataType.INTEGER, signed);
            }
            if (integer.compareTo(LONG_MIN) >= 0 && integer.compareTo(LONG_MAX) <= 0) {
                return new Evaluated(integer.longValue(), DataType.BIGINT, signed);
            }
        }
        return new Evaluated(value, NUMERIC, value.toPlainString());
    }

    /** Any other expression: {@code SELECT expression} planned and run in the session, its one value and type. */
    private static Evaluated expression(SqlSession session, ExecuteStatement.Argument argument) {
        String prefix = "select ";
        PlanCache.CachedPlan plan;
        try {
            plan = session.planFor(prefix + argument.text());
        } catch (ParallaxException failure) {
            throw failure.position() > prefix.length()
                    ? failure.withPosition(failure.position() - prefix.length() + argument.offset()) : failure;
        }
        DataType type = plan.statement().columns().getFirst().type();
        try (Result result = session.start(plan.statement(), new Object[0])) {
            Batch batch = result.nextBatch();
            while (batch != null && batch.selectedCount() == 0) {
                batch = result.nextBatch();
            }
            int position = batch.position(0);
            Object value = ValueObjects.toJava(batch.column(0), position);
            return new Evaluated(value, type.kind() == TypeKind.NULL ? null : type, ValueText.format(batch.column(0), position));
        }
    }
}
