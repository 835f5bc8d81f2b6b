package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.BitString;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.UuidValue;
import dev.parallax.planner.query.function.CatalogFunctions;
import dev.parallax.planner.query.function.ExtractFunctions;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.util.Sarg;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Calcite RexNodes to engine expressions. Argument types are made to agree with explicit casts
 * ({@link ArgumentTypes}); constants are folded by {@link ConstantFolder}, never by Calcite's
 * RexExecutor (it generates and runs code).
 */
public final class RexTranslator {
    private final RexBuilder rexBuilder;
    private final List<Integer> parameterNumbers;
    private final Settings settings;
    /** Where the outer columns of each correlated nested loop being translated are bound ({@link #bindCorrelation}). */
    private final java.util.Map<org.apache.calcite.rel.core.CorrelationId, CorrelationBinding> correlations = new java.util.HashMap<>();
    /** The first parameter index not used by the statement's parameters or a correlation binding. */
    private int nextParameterIndex;

    /** The outer columns of a correlation: column {@code c} is parameter {@code base + c}, of type {@code types[c]}. */
    private record CorrelationBinding(int base, List<DataType> types) {
    }

    /** @param settings the session's settings, which give the values of {@link SessionFunctions} */
    public RexTranslator(RexBuilder rexBuilder, List<Integer> parameterNumbers, Settings settings) {
        this.rexBuilder = rexBuilder;
        this.parameterNumbers = parameterNumbers;
        this.settings = settings;
        for (int number : parameterNumbers) {
            nextParameterIndex = Math.max(nextParameterIndex, number);
        }
    }

    /**
     * Binds the correlation variable {@code id} to parameters: the outer row's column {@code c}
     * (of engine type {@code outerTypes[c]}) becomes parameter {@code base + c} in the expressions
     * translated from now on. Returns the base, past every parameter the statement and the other
     * correlations use.
     */
    public int bindCorrelation(org.apache.calcite.rel.core.CorrelationId id, List<DataType> outerTypes) {
        int base = nextParameterIndex;
        nextParameterIndex += outerTypes.size();
        correlations.put(id, new CorrelationBinding(base, List.copyOf(outerTypes)));
        return base;
    }

    public Expr translate(RexNode node) {
        return ConstantFolder.fold(translateUnfolded(node));
    }

    /** {@link #translate} without folding constants: the expression as written (a column default shown as PostgreSQL shows it). */
    public Expr translateAsWritten(RexNode node) {
        return translateUnfolded(node);
    }

    private Expr translateUnfolded(RexNode node) {
        return switch (node) {
            case RexInputRef inputRef -> new ColumnRef(inputRef.getIndex(), TypeMapping.toEngine(inputRef.getType()));
            case RexLiteral literal -> literal(literal);
            case RexDynamicParam parameter -> new Parameter(parameterNumbers.get(parameter.getIndex()) - 1,
                    TypeMapping.toEngine(parameter.getType()));
            case RexCall call -> call(call);
            case org.apache.calcite.rex.RexFieldAccess access
                    when access.getReferenceExpr() instanceof org.apache.calcite.rex.RexCorrelVariable variable
                    && correlations.containsKey(variable.id) -> {
                CorrelationBinding binding = correlations.get(variable.id);
                int column = access.getField().getIndex();
                yield new Parameter(binding.base() + column, binding.types().get(column));
            }
            default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "expression %s is not supported", node);
        };
    }

    static Literal literal(RexLiteral literal) {
        DataType type = TypeMapping.toEngine(literal.getType());
        if (literal.isNull()) {
            return Literal.nullOf(type);
        }
        return switch (type.kind()) {
            case BOOLEAN -> Literal.ofLong(Boolean.TRUE.equals(literal.getValueAs(Boolean.class)) ? 1 : 0, type);
            case SMALLINT, INTEGER, BIGINT -> Literal.ofLong(literal.getValueAs(Long.class), type);
            case DECIMAL -> Literal.ofLong(literal.getValueAs(BigDecimal.class).setScale(type.scale()).unscaledValue().longValueExact(), type);
            // A real holds the float it is (as a cast to real rounds): its unique index keys are of the stored value.
            case REAL -> new Literal(asReal(literal.getValueAs(Double.class)), type);
            case DOUBLE -> new Literal(literal.getValueAs(Double.class), type);
            case DATE -> Literal.ofLong(literal.getValueAs(Integer.class), type);
            case TIMESTAMP -> Literal.ofLong(timestampMicros(literal.getValueAs(org.apache.calcite.util.TimestampString.class)), type);
            // Calcite holds an instant's literal as its UTC time.
            case TIMESTAMPTZ -> Literal.ofLong(timestampMicros(literal.getValueAs(org.apache.calcite.util.TimestampString.class)), type);
            case INTERVAL_YEAR_MONTH -> Literal.ofLong(literal.getValueAs(BigDecimal.class).longValueExact(), type);
            // Calcite holds day-time intervals in milliseconds; the engine in microseconds.
            case INTERVAL_DAY_TIME -> Literal.ofLong(literal.getValueAs(BigDecimal.class).longValueExact() * 1000, type);
            // A quoted string is PostgreSQL's "unknown" literal: text until a context says otherwise.
            case CHAR, VARCHAR, TEXT -> new Literal(literal.getValueAs(String.class).getBytes(StandardCharsets.UTF_8), DataType.TEXT);
            case UUID -> new Literal(UuidValue.of(literal.getValueAs(java.util.UUID.class)), type);
            case BIT, VARBIT, ARRAY, NULL -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "literal %s is not supported", literal);
        };
    }

    /**
     * Microseconds since the epoch of a timestamp literal: Calcite's epoch value is in milliseconds,
     * so the fraction's fourth to sixth digits come from its text ({@code 13:14:15.123456}).
     */
    static long timestampMicros(org.apache.calcite.util.TimestampString value) {
        long micros = value.getMillisSinceEpoch() * 1000;
        String text = value.toString();
        int dot = text.indexOf('.');
        if (dot >= 0 && text.length() - dot - 1 > 3) {
            String belowMillis = (text.substring(dot + 4) + "000").substring(0, 3);
            micros += Long.parseLong(belowMillis);
        }
        return micros;
    }

    private Expr call(RexCall call) {
        DataType type = TypeMapping.toEngine(call.getType());
        SqlOperator operator = call.getOperator();
        if (operator == ParallaxFunctions.CURRENT_TIMESTAMP || operator == org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_TIMESTAMP) {
            // The transaction's start, as now(); current_timestamp(p) rounded to p digits.
            Call now = new Call(Function.NOW, List.of(), DataType.TIMESTAMPTZ);
            // (Without p, Calcite types it with precision 0, where PostgreSQL keeps microseconds.)
            DataType rounded = TypeMapping.castTarget(call.getType());
            return !call.getOperands().isEmpty() && rounded.roundsTimestamps() ? new Cast(now, rounded) : now;
        }
        if (operator == org.apache.calcite.sql.fun.SqlStdOperatorTable.LOCALTIMESTAMP
                || operator == org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_DATE) {
            // The transaction's start read in the session's zone (localtimestamp(p) rounded to p digits).
            DataType local = TypeMapping.castTarget(call.getType());
            return new Cast(new Call(Function.NOW, List.of(), DataType.TIMESTAMPTZ),
                    !call.getOperands().isEmpty() && local.roundsTimestamps() ? local : type);
        }
        if (operator == ExtractFunctions.EXTRACT || operator == ExtractFunctions.DATE_PART) {
            String field = ExtractFunctions.field(((RexLiteral) call.getOperands().getFirst()).getValueAs(String.class));
            Expr value = translateUnfolded(call.getOperands().get(1));
            if (value.type().kind() == TypeKind.NULL || operator == ExtractFunctions.DATE_PART && value.type().kind() == TypeKind.DATE) {
                // date_part(text, timestamp) is PostgreSQL's only form: a date is read as a timestamp.
                value = ArgumentTypes.castTo(value, DataType.TIMESTAMP);
            }
            return new Call(Function.EXTRACT, type, new Literal(field.getBytes(StandardCharsets.UTF_8), DataType.TEXT), value);
        }
        switch (call.getKind()) {
            case SEARCH -> {
                return search(call);
            }
            case CAST -> {
                Expr input = translateUnfolded(call.getOperands().getFirst());
                DataType target = TypeMapping.castTarget(call.getType());
                return input.type().equals(target) ? input : new Cast(input, target);
            }
            case CASE -> {
                List<Expr> conditions = new ArrayList<>();
                List<Expr> results = new ArrayList<>();
                List<RexNode> operands = call.getOperands();
                for (int index = 0; index + 1 < operands.size(); index += 2) {
                    conditions.add(translateUnfolded(operands.get(index)));
                    results.add(ArgumentTypes.castTo(translateUnfolded(operands.get(index + 1)), type));
                }
                Expr otherwise = ArgumentTypes.castTo(translateUnfolded(operands.getLast()), type);
                return new Case(conditions, results, otherwise, type);
            }
            case PLUS_PREFIX -> {
                return translateUnfolded(call.getOperands().getFirst());
            }
            case TRIM -> {
                // Calcite: TRIM(flag, characters, string); the engine: TRIM(string, characters, 'both'|'leading'|'trailing').
                List<RexNode> operands = call.getOperands();
                if (operands.size() == 3 && operands.get(0) instanceof RexLiteral flag
                        && flag.getValue() instanceof org.apache.calcite.sql.fun.SqlTrimFunction.Flag side) {
                    Expr text = translateUnfolded(operands.get(2));
                    Expr characters = ArgumentTypes.castTo(translateUnfolded(operands.get(1)), DataType.TEXT);
                    Expr where = new Literal(side.name().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8), DataType.TEXT);
                    return new Call(Function.TRIM, type, text, characters, where);
                }
            }
            case ARRAY_VALUE_CONSTRUCTOR -> {
                List<Expr> elements = new ArrayList<>(call.getOperands().size());
                for (RexNode operand : call.getOperands()) {
                    elements.add(ArgumentTypes.castTo(translateUnfolded(operand), type.element()));
                }
                return new Call(Function.ARRAY_CONSTRUCT, elements, type);
            }
            case ITEM -> {
                Expr array = translateUnfolded(call.getOperands().get(0));
                Expr subscript = ArgumentTypes.castTo(translateUnfolded(call.getOperands().get(1)), DataType.INTEGER);
                if (array.type().kind() != TypeKind.ARRAY) {
                    throw ParallaxException.of(SqlState.DATATYPE_MISMATCH,
                            "cannot subscript type %s because it does not support subscripting", array.type().sqlName());
                }
                return new Call(Function.ARRAY_ELEMENT, type, array, subscript);
            }
            case EXTRACT -> {
                TimeUnitRange unit = (TimeUnitRange) ((RexLiteral) call.getOperands().getFirst()).getValue();
                Expr field = new Literal(unit.name().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8), DataType.TEXT);
                return new Call(Function.EXTRACT, type, field, translateUnfolded(call.getOperands().get(1)));
            }
            default -> {
            }
        }
        if (operator == ParallaxFunctions.BIT_STRING) {
            String digits = ((RexLiteral) call.getOperands().getFirst()).getValueAs(String.class);
            return new Literal(BitString.parse(digits), DataType.bit(digits.length()));
        }
        Literal sessionValue = SessionFunctions.value(operator, settings);
        if (sessionValue != null) {
            return sessionValue;
        }
        if (operator == ParallaxFunctions.NUM_NULLS || operator == ParallaxFunctions.NUM_NONNULLS) {
            return nullCount(call, operator == ParallaxFunctions.NUM_NULLS);
        }
        if (ParallaxFunctions.QUANTIFIED_COMPARISONS.contains(operator)) {
            return quantified(call);
        }
        if (operator == ParallaxFunctions.ARRAY_OR_EMPTY) {
            Expr array = translateUnfolded(call.getOperands().getFirst());
            Literal empty = new Literal(new dev.parallax.engine.type.ArrayValue.Builder(array.type()).build(1), array.type());
            return new Call(Function.COALESCE, array.type(), array, empty);
        }
        if (operator == CatalogFunctions.TYPE_OF) {
            return new Literal(typeOf(call.getOperands().getFirst()).getBytes(StandardCharsets.UTF_8), DataType.TEXT);
        }
        if (operator == ParallaxFunctions.ARRAY_TEXT) {
            return new Cast(translateUnfolded(call.getOperands().getFirst()), DataType.TEXT);
        }
        if (operator == ParallaxFunctions.BIGINT_LITERAL) {
            return bigintLiteral(((RexLiteral) call.getOperands().getFirst()).getValueAs(String.class));
        }
        if (operator == org.apache.calcite.sql.fun.SqlStdOperatorTable.CONCAT && type.kind() == TypeKind.ARRAY) {
            return arrayConcatenation(call, type);
        }
        if (operator == ParallaxFunctions.MAKE_INTERVAL) {
            return makeInterval(call, type);
        }
        Function function = FunctionMapping.function(call);
        List<Expr> arguments = new ArrayList<>(call.getOperands().size());
        for (RexNode operand : call.getOperands()) {
            arguments.add(translateUnfolded(operand));
        }
        Expr size = SizeFunctions.translate(operator, arguments);
        if (size != null) {
            return size;
        }
        Expr array = ArrayFunctionTranslator.translate(operator, arguments, type);
        if (array != null) {
            return array;
        }
        if (function == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "function %s is not supported",
                    operator.getName().toLowerCase(Locale.ROOT));
        }
        if (isDateIntervalArithmetic(function, arguments)) {
            // PostgreSQL: date ± interval is a timestamp (Calcite keeps DATE for day intervals).
            type = DataType.TIMESTAMP;
        }
        Expr dateBound = DateBoundComparison.rewrite(function, arguments, type);
        if (dateBound != null) {
            return dateBound;
        }
        return new Call(function, ArgumentTypes.harmonize(function, arguments, type), type);
    }

    /**
     * make_interval(years, months, weeks, days, hours, mins, secs): an argument left out (Calcite's
     * DEFAULT) is 0; integers as bigints, the seconds a double.
     */
    private Expr makeInterval(RexCall call, DataType type) {
        List<Expr> arguments = new ArrayList<>(7);
        for (int index = 0; index < 7; index++) {
            DataType argumentType = index == 6 ? DataType.DOUBLE : DataType.BIGINT;
            RexNode operand = index < call.getOperands().size() ? call.getOperands().get(index) : null;
            arguments.add(operand == null || operand.getKind() == org.apache.calcite.sql.SqlKind.DEFAULT
                    ? (index == 6 ? new Literal(0.0, DataType.DOUBLE) : Literal.ofLong(0, DataType.BIGINT))
                    : ArgumentTypes.castTo(translateUnfolded(operand), argumentType));
        }
        return new Call(Function.MAKE_INTERVAL, arguments, type);
    }

    /**
     * pg_typeof's answer, a constant of the statement: the engine's type of the argument, but a
     * literal's own type (the engine types every string literal text; Calcite folds
     * {@code 'x'::varchar(3)} into a VARCHAR(3) literal), and unknown for an untyped literal.
     */
    private String typeOf(RexNode argument) {
        if (argument instanceof RexCall marker && marker.getOperator() == CatalogFunctions.UNKNOWN_LITERAL) {
            return DataType.NULL.sqlName();
        }
        DataType type = argument instanceof RexLiteral literal && !literal.isNull()
                ? TypeMapping.toEngine(literal.getType()) : translateUnfolded(argument).type();
        return type.nameWithoutModifier();
    }

    /**
     * {@code array || array}: Calcite types {@code ||} as text concatenation and casts its array
     * operands to text; the casts are undone and the arrays concatenated.
     */
    private Expr arrayConcatenation(RexCall call, DataType type) {
        List<Expr> arrays = new ArrayList<>(2);
        for (RexNode operand : call.getOperands()) {
            RexNode inner = operand;
            while (inner.getKind() == org.apache.calcite.sql.SqlKind.CAST
                    && ((RexCall) inner).getOperands().getFirst().getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY) {
                inner = ((RexCall) inner).getOperands().getFirst();
            }
            arrays.add(ArgumentTypes.castTo(translateUnfolded(inner), type));
        }
        return new Call(Function.ARRAY_CONCAT, arrays, type);
    }

    /**
     * {@code pg_equal_any(value, array)} and the like (the rewrite of {@code value = ANY (array)}):
     * value and elements are brought to their common type (the array is cast element by element
     * when its elements are the narrower side).
     */
    private Expr quantified(RexCall call) {
        Expr value = translateUnfolded(call.getOperands().get(0));
        Expr array = translateUnfolded(call.getOperands().get(1));
        if (array.type().kind() != TypeKind.ARRAY) {
            throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "op ANY/ALL (array) requires array on right side");
        }
        DataType element = array.type().element();
        DataType common = value.type().kind() == TypeKind.NULL ? element
                : ArgumentTypes.harmonize(Function.EQUAL, List.of(value, Literal.nullOf(element)), DataType.BOOLEAN).getFirst().type();
        if (!common.equals(element)) {
            array = ArgumentTypes.castTo(array, DataType.array(common));
        }
        value = ArgumentTypes.castTo(value, common);
        String name = call.getOperator().getName();
        Function function = Function.valueOf(name.substring("pg_".length()).toUpperCase(Locale.ROOT));
        return new Call(function, DataType.BOOLEAN, value, array);
    }

    /**
     * An integer literal too long for Calcite: bigint when it fits one, as PostgreSQL types it.
     * Beyond bigint PostgreSQL makes it a numeric, which Parallax holds to 18 digits only.
     */
    private static Literal bigintLiteral(String digits) {
        try {
            return Literal.ofLong(Long.parseLong(digits), DataType.BIGINT);
        } catch (NumberFormatException beyondBigint) {
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "numeric field overflow")
                    .withDetail("Parallax numeric values hold at most 18 digits; " + digits + " has " + digits.length() + ".");
        }
    }

    /** {@code x IN (...)} and ranges: points become an InList, anything else expands to comparisons. */
    private Expr search(RexCall call) {
        RexLiteral sargLiteral = (RexLiteral) call.getOperands().get(1);
        Sarg<?> sarg = sargLiteral.getValueAs(Sarg.class);
        if (sarg != null && sarg.isPoints() && sarg.pointCount > 1 && sarg.nullAs != org.apache.calcite.rex.RexUnknownAs.TRUE) {
            Expr value = translateUnfolded(call.getOperands().getFirst());
            List<Expr> values = new ArrayList<>();
            for (var range : sarg.rangeSet.asRanges()) {
                RexNode point = rexBuilder.makeLiteral(range.lowerEndpoint(), call.getOperands().getFirst().getType(), true, true);
                values.add(ArgumentTypes.castTo(translateUnfolded(point), value.type()));
            }
            return new InList(value, values, false);
        }
        if (sarg != null && sarg.isComplementedPoints() && sarg.rangeSet.complement().asRanges().size() > 1) {
            Expr value = translateUnfolded(call.getOperands().getFirst());
            List<Expr> values = new ArrayList<>();
            for (var range : sarg.rangeSet.complement().asRanges()) {
                RexNode point = rexBuilder.makeLiteral(range.lowerEndpoint(), call.getOperands().getFirst().getType(), true, true);
                values.add(ArgumentTypes.castTo(translateUnfolded(point), value.type()));
            }
            return new InList(value, values, true);
        }
        return translateUnfolded(RexUtil.expandSearch(rexBuilder, null, call));
    }

    private static boolean isDateIntervalArithmetic(Function function, List<Expr> arguments) {
        if (function != Function.ADD && function != Function.SUBTRACT || arguments.size() != 2) {
            return false;
        }
        TypeKind left = arguments.get(0).type().kind();
        TypeKind right = arguments.get(1).type().kind();
        return left == TypeKind.DATE && isInterval(right) || isInterval(left) && right == TypeKind.DATE;
    }

    private static boolean isInterval(TypeKind kind) {
        return kind == TypeKind.INTERVAL_DAY_TIME || kind == TypeKind.INTERVAL_YEAR_MONTH;
    }

    static boolean typeIs(Expr expression, TypeKind kind) {
        return expression.type().kind() == kind;
    }

    /** num_nulls(...) / num_nonnulls(...): a sum of one 0-or-1 CASE per argument, never NULL. */
    private Expr nullCount(RexCall call, boolean countNulls) {
        Expr sum = null;
        for (RexNode operand : call.getOperands()) {
            Expr test = new Call(countNulls ? Function.IS_NULL : Function.IS_NOT_NULL, DataType.BOOLEAN, translateUnfolded(operand));
            Expr counted = new Case(List.of(test), List.of(Literal.ofLong(1, DataType.INTEGER)), Literal.ofLong(0, DataType.INTEGER),
                    DataType.INTEGER);
            sum = sum == null ? counted : new Call(Function.ADD, DataType.INTEGER, sum, counted);
        }
        return sum;
    }

    /** The float {@code value} rounds to; a value past real's range stays as it is (storing it fails as a cast's 22003 does). */
    private static double asReal(double value) {
        float real = (float) value;
        return Float.isInfinite(real) && !Double.isInfinite(value) ? value : real;
    }
}
