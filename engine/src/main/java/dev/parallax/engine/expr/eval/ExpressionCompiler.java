package dev.parallax.engine.expr.eval;

import dev.parallax.engine.catalog.RelationSizes;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.DecimalMath;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import dev.parallax.engine.vector.BytesVector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns plan expressions into vectorized evaluators. Dispatch on types and operand shapes happens
 * here, once; parameters are bound values (the context is per execution) and subexpressions made
 * only of constants are folded at compile time.
 */
public final class ExpressionCompiler {
    private final ExecutionContext context;
    /** Non-null when compiling once for many executions: parameters and now() are read from here at evaluation. */
    private final StatementValues statementValues;
    /**
     * The session's TimeZone, which casts, arithmetic, EXTRACT and date_trunc of timestamps with time zone
     * read; looked up on first use, so that statements without them do not pay for the setting's lookup.
     */
    private SessionTimeZone zone;

    private ExpressionCompiler(ExecutionContext context) {
        this(context, null);
    }

    private ExpressionCompiler(ExecutionContext context, StatementValues statementValues) {
        this.context = context;
        this.statementValues = statementValues;
    }

    /** The TimeZone setting the statement runs with (UTC without a context). */
    private SessionTimeZone zone() {
        if (zone == null) {
            zone = context == null ? SessionTimeZone.UTC : SessionTimeZone.ofSetting(context.settings().show("TimeZone"));
        }
        return zone;
    }

    private CastEvaluator cast(Evaluator operand, DataType target, boolean explicit) {
        boolean zoned = SessionTimeZone.appliesTo(operand.type()) || SessionTimeZone.appliesTo(target);
        return new CastEvaluator(operand, target, explicit, zoned ? zone() : SessionTimeZone.UTC);
    }

    /** The session's zone for an operand of {@code type} that reads it, else null (not looked up). */
    private SessionTimeZone zoneFor(DataType type) {
        return SessionTimeZone.appliesTo(type) ? zone() : null;
    }

    /**
     * An evaluator of {@code expression} converted to {@code target} with assignment rules (as
     * {@link #compileAssignment}; null {@code target}: no conversion) that a prepared statement
     * compiles once and evaluates on every execution: parameters and now() are read from
     * {@code values} at each evaluation instead of being bound at compile time, and nothing that
     * depends on them is folded.
     */
    public static VectorExpression compileReusable(Expr expression, DataType target, ExecutionContext context, StatementValues values) {
        Objects.requireNonNull(values, "values");
        ExpressionCompiler compiler = new ExpressionCompiler(context, values);
        Evaluator evaluator = compiler.expression(expression);
        if (target == null || evaluator.type().equals(target)) {
            return evaluator;
        }
        return compiler.foldWhen(compiler.cast(evaluator, target, false), evaluator instanceof ConstantEvaluator);
    }

    /** A predicate compiled once for many executions, reading parameters and now() from {@code values} (see {@link #compileReusable}). */
    public static Predicate compileReusablePredicate(Expr condition, ExecutionContext context, StatementValues values) {
        Objects.requireNonNull(values, "values");
        return new ExpressionCompiler(context, values).predicate(condition);
    }

    /** A fresh evaluator of {@code expression} for one operator instance running in {@code context}. */
    public static VectorExpression compile(Expr expression, ExecutionContext context) {
        Objects.requireNonNull(expression, "expression");
        return new ExpressionCompiler(context).expression(expression);
    }

    /**
     * A fresh evaluator that converts {@code expression} to {@code target} with assignment rules
     * (INSERT/UPDATE/COPY): over-long CHAR/VARCHAR/BIT values raise 22001/22026 instead of being
     * cut as an explicit CAST does. Returns the plain evaluator when the types already match.
     */
    public static VectorExpression compileAssignment(Expr expression, DataType target, ExecutionContext context) {
        ExpressionCompiler compiler = new ExpressionCompiler(context);
        Evaluator evaluator = compiler.expression(expression);
        if (evaluator.type().equals(target)) {
            return evaluator;
        }
        return compiler.foldWhen(compiler.cast(evaluator, target, false), evaluator instanceof ConstantEvaluator);
    }

    /**
     * A fresh predicate evaluator: it writes into {@code selectionOut} the live positions of the
     * input where {@code condition} is TRUE and returns how many.
     */
    public static Predicate compilePredicate(Expr condition, ExecutionContext context) {
        Objects.requireNonNull(condition, "condition");
        return new ExpressionCompiler(context).predicate(condition);
    }

    Selector predicate(Expr condition) {
        if (condition instanceof Call call) {
            Function function = call.function();
            if (function == Function.AND || function == Function.OR) {
                Selector[] parts = new Selector[call.arguments().size()];
                for (int index = 0; index < parts.length; index++) {
                    parts[index] = predicate(call.arguments().get(index));
                }
                return function == Function.AND ? new AndSelector(parts) : new OrSelector(parts);
            }
            Selector bitMask = function == Function.EQUAL ? bitMask(call.arguments().get(0), call.arguments().get(1)) : null;
            if (bitMask == null && function == Function.EQUAL) {
                bitMask = bitMask(call.arguments().get(1), call.arguments().get(0));
            }
            if (bitMask != null) {
                return bitMask;
            }
            if (isOrdering(function) && call.arguments().size() == 2) {
                Evaluator left = expression(call.arguments().get(0));
                Evaluator right = expression(call.arguments().get(1));
                Function operator = function;
                if (left instanceof ConstantEvaluator && !(right instanceof ConstantEvaluator)) {
                    Evaluator swap = left;
                    left = right;
                    right = swap;
                    operator = mirror(function);
                }
                if (right instanceof ConstantEvaluator constant && left.type().vectorKind() == VectorKind.LONG
                        && right.type().vectorKind() == VectorKind.LONG && !(left instanceof ConstantEvaluator)
                        && !withAndWithoutTimeZone(left.type().kind(), right.type().kind())) {
                    if (constant.isNull()) {
                        return new BooleanSelector(new ConstantEvaluator(null, DataType.BOOLEAN));
                    }
                    int leftScale = ComparisonEvaluator.scaleOf(left.type());
                    int rightScale = ComparisonEvaluator.scaleOf(right.type());
                    if (rightScale <= leftScale) {
                        long bound = DecimalMath.scaleUp(constant.longValue(), leftScale - rightScale);
                        return new LongConstantComparisonSelector(left, operator, bound);
                    }
                }
            }
        }
        Evaluator evaluator = expression(condition);
        return new BooleanSelector(evaluator);
    }

    /**
     * The fused selector for {@code bitand(x, mask) = expected} on bit strings, when {@code masked}
     * is that AND with one constant side and {@code other} a non-NULL constant; otherwise null.
     */
    private Selector bitMask(Expr masked, Expr other) {
        if (!(masked instanceof Call and) || and.function() != Function.BIT_AND || and.arguments().size() != 2
                || !and.type().kind().isBitString()) {
            return null;
        }
        Evaluator expectedValue = expression(other);
        if (!(expectedValue instanceof ConstantEvaluator expected) || expected.isNull()) {
            return null;
        }
        Evaluator first = expression(and.arguments().get(0));
        Evaluator second = expression(and.arguments().get(1));
        if (second instanceof ConstantEvaluator mask && !mask.isNull() && !(first instanceof ConstantEvaluator)) {
            return new BitMaskSelector(first, mask.bytesValue(), expected.bytesValue());
        }
        if (first instanceof ConstantEvaluator mask && !mask.isNull() && !(second instanceof ConstantEvaluator)) {
            return new BitMaskSelector(second, mask.bytesValue(), expected.bytesValue());
        }
        return null;
    }

    private static boolean isOrdering(Function function) {
        return switch (function) {
            case EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> true;
            default -> false;
        };
    }

    private static Function mirror(Function function) {
        return switch (function) {
            case LESS_THAN -> Function.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Function.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Function.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Function.LESS_THAN_OR_EQUAL;
            default -> function;
        };
    }

    Evaluator expression(Expr expression) {
        return switch (expression) {
            case ColumnRef column -> new ColumnEvaluator(column.index(), column.type());
            case Literal literal -> new ConstantEvaluator(literal.value(), literal.type());
            case Parameter parameter -> statementValues != null
                    ? new StatementValueEvaluator(statementValues, parameter.index(), parameter.type())
                    : new ConstantEvaluator(context.parameter(parameter.index()), parameter.type());
            case Cast cast -> {
                Evaluator operand = expression(cast.input());
                if (operand.type().equals(cast.type())) {
                    yield operand;
                }
                yield foldWhen(cast(operand, cast.type(), true), operand instanceof ConstantEvaluator);
            }
            case Case caseExpression -> foldWhen(caseOf(caseExpression), foldable(caseExpression));
            case InList inList -> foldWhen(inList(inList), foldable(inList));
            case Call call -> foldWhen(call(call), foldable(call));
        };
    }

    private Evaluator caseOf(Case expression) {
        Selector[] conditions = new Selector[expression.conditions().size()];
        Evaluator[] results = new Evaluator[conditions.length];
        for (int index = 0; index < conditions.length; index++) {
            conditions[index] = predicate(expression.conditions().get(index));
            results[index] = coerce(expression(expression.results().get(index)), expression.type());
        }
        Evaluator otherwise = coerce(expression(expression.otherwise()), expression.type());
        return new CaseEvaluator(conditions, results, otherwise, expression.type());
    }

    /** Casts a branch to the CASE's type when its representation differs (e.g. NULL literal, scale). */
    private Evaluator coerce(Evaluator evaluator, DataType type) {
        if (evaluator.type().equals(type)) {
            return evaluator;
        }
        if (evaluator instanceof ConstantEvaluator constant && constant.isNull()) {
            return new ConstantEvaluator(null, type);
        }
        if (evaluator.type().vectorKind() == type.vectorKind() && ComparisonEvaluator.scaleOf(evaluator.type()) == ComparisonEvaluator.scaleOf(type)
                && !type.kind().isText() && !type.kind().isBitString()) {
            return evaluator;
        }
        if (type.kind().isText() && evaluator.type().kind().isText() && type.length() == DataType.UNBOUNDED) {
            return evaluator;
        }
        return foldWhen(cast(evaluator, type, true), evaluator instanceof ConstantEvaluator);
    }

    private Evaluator inList(InList inList) {
        Evaluator direct = constantInList(inList);
        if (direct != null) {
            return direct;
        }
        // value IN (a, b, ...) is value = a OR value = b ...: lazy OR gives SQL's three-valued result.
        Expr disjunction = null;
        for (Expr element : inList.values()) {
            Expr comparison = new Call(Function.EQUAL, DataType.BOOLEAN, inList.value(), element);
            disjunction = disjunction == null ? comparison : new Call(Function.OR, DataType.BOOLEAN, disjunction, comparison);
        }
        Expr result = inList.negated() ? new Call(Function.NOT, DataType.BOOLEAN, disjunction) : disjunction;
        return expression(result);
    }

    /**
     * The one-pass evaluator of {@code value IN (constants)} when the value is integer, decimal or
     * text and every element a non-NULL constant of the same representation; otherwise null.
     */
    private Evaluator constantInList(InList inList) {
        if (isConstant(inList.value())) {
            return null;
        }
        Expr unpadded = unpaddedCharacter(inList.value());
        boolean blankFreeElements = unpadded != null;
        for (Expr element : inList.values()) {
            blankFreeElements &= isBlankFreeText(element);
        }
        // char_column::varchar IN ('MAIL', 'SHIP') compares the CHAR values themselves, blank-insensitively.
        Evaluator value = expression(blankFreeElements ? unpadded : inList.value());
        VectorKind kind = value.type().vectorKind();
        boolean text = value.type().kind().isText();
        if (kind == VectorKind.DOUBLE || (kind == VectorKind.BYTES && !text)) {
            return null;
        }
        List<Expr> elements = inList.values();
        long[] longs = new long[elements.size()];
        byte[][] texts = new byte[elements.size()][];
        boolean padded = value.type().kind() == TypeKind.CHAR;
        for (int index = 0; index < elements.size(); index++) {
            if (!isConstant(elements.get(index)) || !(expression(elements.get(index)) instanceof ConstantEvaluator constant)
                    || constant.isNull() || constant.type().vectorKind() != kind) {
                return null;
            }
            if (text) {
                if (!constant.type().kind().isText()) {
                    return null;
                }
                padded |= constant.type().kind() == TypeKind.CHAR;
                texts[index] = constant.bytesValue();
            } else {
                boolean sameKind = constant.type().kind() == value.type().kind()
                        || (isExactNumber(constant.type().kind()) && isExactNumber(value.type().kind()));
                if (!sameKind || ComparisonEvaluator.scaleOf(constant.type()) != ComparisonEvaluator.scaleOf(value.type())) {
                    return null;
                }
                longs[index] = constant.longValue();
            }
        }
        return text ? InListEvaluator.ofText(value, texts, padded, inList.negated())
                : InListEvaluator.ofLongs(value, longs, inList.negated());
    }

    /**
     * The CHAR(n) operand of {@code expression} when it is a cast of CHAR(n) to TEXT or to a VARCHAR
     * of at least n characters (a cast that only strips the padding blanks); otherwise null.
     */
    private static Expr unpaddedCharacter(Expr expression) {
        if (expression instanceof Cast cast && cast.input().type().kind() == TypeKind.CHAR) {
            DataType target = cast.type();
            int sourceLength = cast.input().type().length();
            boolean widening = target.kind() == TypeKind.TEXT || (target.kind() == TypeKind.VARCHAR
                    && (target.length() == DataType.UNBOUNDED || (sourceLength != DataType.UNBOUNDED && target.length() >= sourceLength)));
            return widening ? cast.input() : null;
        }
        return null;
    }

    /**
     * True when {@code expression} is a non-NULL text constant without trailing blanks: comparing it
     * with a CHAR value blank-insensitively equals comparing it with that value cast to text.
     */
    private boolean isBlankFreeText(Expr expression) {
        if (!expression.type().kind().isText() || !isConstant(expression)) {
            return false;
        }
        Evaluator evaluator = expression(expression);
        if (!(evaluator instanceof ConstantEvaluator constant) || constant.isNull()) {
            return false;
        }
        byte[] value = constant.bytesValue();
        return value.length == 0 || value[value.length - 1] != ' ';
    }

    private static boolean isExactNumber(TypeKind kind) {
        return kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT || kind == TypeKind.DECIMAL;
    }

    private Evaluator call(Call call) {
        Function function = call.function();
        List<Expr> argumentExprs = call.arguments();
        DataType type = call.type();
        switch (function) {
            case AND, OR -> {
                Evaluator result = expression(argumentExprs.get(0));
                for (int index = 1; index < argumentExprs.size(); index++) {
                    result = new LogicalEvaluator(function == Function.AND, result, expression(argumentExprs.get(index)));
                }
                return result;
            }
            case NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> {
                return new BooleanTestEvaluator(function, expression(argumentExprs.get(0)));
            }
            case EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL, IS_DISTINCT_FROM,
                 IS_NOT_DISTINCT_FROM -> {
                Expr leftExpr = argumentExprs.get(0);
                Expr rightExpr = argumentExprs.get(1);
                // char_column::text = 'FRANCE' compares the CHAR value itself (a padded comparison strips
                // its blanks as the cast would): no copy of every value into a text vector.
                if (isBlankFreeText(rightExpr) && unpaddedCharacter(leftExpr) != null) {
                    leftExpr = unpaddedCharacter(leftExpr);
                } else if (isBlankFreeText(leftExpr) && unpaddedCharacter(rightExpr) != null) {
                    rightExpr = unpaddedCharacter(rightExpr);
                }
                Evaluator[] operands = comparable(expression(leftExpr), expression(rightExpr));
                return new ComparisonEvaluator(function, operands[0], operands[1]);
            }
            case ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO -> {
                return arithmetic(function, expression(argumentExprs.get(0)), expression(argumentExprs.get(1)), type);
            }
            case DIV -> {
                // numeric div: both arguments at the larger scale, so their scaled quotient is the integral one.
                Evaluator[] arguments = arguments(argumentExprs);
                int scale = Math.max(ComparisonEvaluator.scaleOf(arguments[0].type()), ComparisonEvaluator.scaleOf(arguments[1].type()));
                for (int index = 0; index < arguments.length; index++) {
                    if (arguments[index].type().kind() != TypeKind.DECIMAL || ComparisonEvaluator.scaleOf(arguments[index].type()) != scale) {
                        arguments[index] = cast(arguments[index], DataType.decimal(18, scale), true);
                    }
                }
                return new NumericFunctionEvaluator(function, arguments, type);
            }
            case WIDTH_BUCKET -> {
                Evaluator[] arguments = arguments(argumentExprs);
                for (int index = 0; index < 3; index++) {
                    if (arguments[index].type().vectorKind() != VectorKind.DOUBLE) {
                        arguments[index] = cast(arguments[index], DataType.DOUBLE, true);
                    }
                }
                return new WidthBucketEvaluator(arguments[0], arguments[1], arguments[2], arguments[3]);
            }
            case GCD, LCM -> {
                return new NumericFunctionEvaluator(function, arguments(argumentExprs), type);
            }
            case NEGATE, ABS, ROUND, TRUNC, FLOOR, CEIL, SQRT, POWER, SIGN, CBRT, EXP, LN, LOG10, LOG, DEGREES, RADIANS, SIN, COS,
                 TAN, COT, ASIN, ACOS, ATAN, ATAN2 -> {
                Evaluator[] arguments = arguments(argumentExprs);
                boolean doubleMath = type.vectorKind() == VectorKind.DOUBLE || function == Function.SQRT || function == Function.POWER;
                if (doubleMath) {
                    for (int index = 0; index < arguments.length; index++) {
                        if (arguments[index].type().vectorKind() != VectorKind.DOUBLE && !((function == Function.ROUND || function == Function.TRUNC) && index == 1)) {
                            arguments[index] = cast(arguments[index], DataType.DOUBLE, true);
                        }
                    }
                    Evaluator result = new NumericFunctionEvaluator(function, arguments, DataType.DOUBLE);
                    return type.kind() == TypeKind.DOUBLE ? result : cast(result, type, true);
                }
                if (arguments[0].type().vectorKind() == VectorKind.DOUBLE) {
                    return new NumericFunctionEvaluator(function, arguments, type);
                }
                return new NumericFunctionEvaluator(function, arguments, type);
            }
            case LIKE, NOT_LIKE, ILIKE, NOT_ILIKE -> {
                return new LikeEvaluator(expression(argumentExprs.get(0)), expression(argumentExprs.get(1)),
                        function == Function.NOT_LIKE || function == Function.NOT_ILIKE,
                        function == Function.ILIKE || function == Function.NOT_ILIKE);
            }
            case REGEX_MATCH, NOT_REGEX_MATCH, REGEX_MATCH_INSENSITIVE, NOT_REGEX_MATCH_INSENSITIVE -> {
                return new RegexMatchEvaluator(textArgument(argumentExprs.get(0)), textArgument(argumentExprs.get(1)),
                        function == Function.NOT_REGEX_MATCH || function == Function.NOT_REGEX_MATCH_INSENSITIVE,
                        function == Function.REGEX_MATCH_INSENSITIVE || function == Function.NOT_REGEX_MATCH_INSENSITIVE);
            }
            case SIMILAR_TO, NOT_SIMILAR_TO -> {
                // PostgreSQL's way: the pattern becomes an anchored regular expression (once, when constant), then ~.
                Evaluator pattern = plainText(argumentExprs.get(1));
                Evaluator escape = argumentExprs.size() > 2 ? plainText(argumentExprs.get(2)) : null;
                Evaluator regex = foldWhen(new SimilarPatternEvaluator(pattern, escape),
                        pattern instanceof ConstantEvaluator && (escape == null || escape instanceof ConstantEvaluator));
                return new RegexMatchEvaluator(plainText(argumentExprs.get(0)), regex, function == Function.NOT_SIMILAR_TO, false);
            }
            case TO_CHAR -> {
                Evaluator value = expression(argumentExprs.get(0));
                return new ToCharEvaluator(value, textArgument(argumentExprs.get(1)), zoneFor(value.type()));
            }
            case REGEXP_REPLACE -> {
                // The fourth argument is the flags (text) or the start (an integer), then n, then the flags.
                boolean flagsFourth = argumentExprs.size() == 4 && !argumentExprs.get(3).type().kind().isNumeric();
                Evaluator start = argumentExprs.size() > 3 && !flagsFourth ? expression(argumentExprs.get(3)) : null;
                Evaluator occurrence = argumentExprs.size() > 4 ? expression(argumentExprs.get(4)) : null;
                Evaluator flags = flagsFourth ? textArgument(argumentExprs.get(3))
                        : argumentExprs.size() > 5 ? textArgument(argumentExprs.get(5)) : null;
                return new RegexReplaceEvaluator(textArgument(argumentExprs.get(0)), textArgument(argumentExprs.get(1)),
                        textArgument(argumentExprs.get(2)), start, occurrence, flags);
            }
            case BIT_AND, BIT_OR, BIT_XOR, BIT_NOT, SHIFT_LEFT, SHIFT_RIGHT -> {
                Evaluator left = expression(argumentExprs.get(0));
                Evaluator right = argumentExprs.size() > 1 ? expression(argumentExprs.get(1)) : null;
                return new BitwiseEvaluator(function, left, right, type);
            }
            case TRIM -> {
                // TRIM(string, characters, 'both'|'leading'|'trailing'), the side a literal of the translation.
                Function side = switch (fieldName(argumentExprs.get(2))) {
                    case "leading" -> Function.LTRIM;
                    case "trailing" -> Function.RTRIM;
                    default -> Function.BTRIM;
                };
                return new TextEditEvaluator(side, new Evaluator[] {plainText(argumentExprs.get(0)), plainText(argumentExprs.get(1))});
            }
            case LEFT, RIGHT, REVERSE, INITCAP, BTRIM, LTRIM, RTRIM, TRANSLATE, OVERLAY -> {
                return new TextEditEvaluator(function, textOrIntegerArguments(argumentExprs));
            }
            case STRPOS, ASCII, STARTS_WITH, BIT_LENGTH -> {
                return new TextMeasureEvaluator(function, textOrIntegerArguments(argumentExprs));
            }
            case OCTET_LENGTH -> {
                // octet_length(character(n)) counts the padding blanks, as PostgreSQL's bpcharoctetlen.
                return new TextMeasureEvaluator(function, new Evaluator[] {textArgument(argumentExprs.getFirst())});
            }
            case CHR, TO_HEX -> {
                return new IntegerTextEvaluator(function, expression(argumentExprs.getFirst()));
            }
            case QUOTE_IDENT -> {
                return new QuoteEvaluator(function, plainText(argumentExprs.getFirst()));
            }
            case QUOTE_LITERAL, QUOTE_NULLABLE -> {
                // quote_literal(anyelement) is quote_literal($1::text): the value cast to text (true, not t's output form).
                return new QuoteEvaluator(function, plainText(argumentExprs.getFirst()));
            }
            case FORMAT -> {
                Evaluator[] values = new Evaluator[argumentExprs.size() - 1];
                for (int index = 0; index < values.length; index++) {
                    values[index] = outputText(expression(argumentExprs.get(index + 1)));
                }
                return new FormatEvaluator(plainText(argumentExprs.getFirst()), values);
            }
            case STRING_TO_ARRAY, REGEXP_SPLIT_TO_ARRAY, REGEXP_SPLIT_TO_TABLE -> {
                return new TextSplitEvaluator(function, textOrIntegerArguments(argumentExprs));
            }
            case CONCAT, SUBSTRING, UPPER, LOWER, LENGTH, CHAR_LENGTH, POSITION, MD5, REPLACE, REPEAT, LPAD, RPAD, SPLIT_PART -> {
                Evaluator[] arguments = arguments(argumentExprs);
                if (function == Function.CONCAT) {
                    // || accepts any value on either side and concatenates the output forms; a
                    // character(n) becomes text first, without its trailing blanks (PostgreSQL's bpchar -> text).
                    for (int index = 0; index < arguments.length; index++) {
                        arguments[index] = arguments[index].type().kind() == TypeKind.CHAR
                                ? foldWhen(cast(arguments[index], DataType.TEXT, true), arguments[index] instanceof ConstantEvaluator)
                                : outputText(arguments[index]);
                    }
                    Evaluator result = arguments[0];
                    for (int index = 1; index < arguments.length; index++) {
                        result = new TextFunctionEvaluator(Function.CONCAT, new Evaluator[] {result, arguments[index]}, DataType.TEXT);
                    }
                    return type.kind() == TypeKind.TEXT ? result : cast(result, type, true);
                }
                return new TextFunctionEvaluator(function, arguments, type);
            }
            case CONCAT_VALUES, CONCAT_WS -> {
                Evaluator[] arguments = arguments(argumentExprs);
                int first = function == Function.CONCAT_WS ? 1 : 0;
                Evaluator separator = null;
                if (function == Function.CONCAT_WS) {
                    if (arguments[0].type().kind() == TypeKind.NULL) {
                        return new ConstantEvaluator(null, DataType.TEXT);
                    }
                    separator = outputText(arguments[0]);
                }
                List<Evaluator> values = new ArrayList<>(arguments.length - first);
                for (int index = first; index < arguments.length; index++) {
                    // An untyped NULL is skipped like any NULL; a character(n) keeps its padding (its output form).
                    if (arguments[index].type().kind() != TypeKind.NULL) {
                        values.add(outputText(arguments[index]));
                    }
                }
                return new ConcatenationEvaluator(separator, values.toArray(Evaluator[]::new));
            }
            case MAKE_DATE, MAKE_TIMESTAMP, MAKE_INTERVAL -> {
                Evaluator[] arguments = arguments(argumentExprs);
                for (int index = 0; index < arguments.length; index++) {
                    boolean seconds = index == arguments.length - 1 && function != Function.MAKE_DATE;
                    DataType wanted = seconds ? DataType.DOUBLE : DataType.BIGINT;
                    if (arguments[index].type().kind() != TypeKind.NULL && arguments[index].type().vectorKind() != wanted.vectorKind()
                            || seconds && arguments[index].type().kind() == TypeKind.DECIMAL) {
                        arguments[index] = foldWhen(cast(arguments[index], wanted, true), arguments[index] instanceof ConstantEvaluator);
                    }
                }
                return new MakeDateTimeEvaluator(arguments, function, type);
            }
            case TO_TIMESTAMP, TO_DATE -> {
                if (argumentExprs.size() == 1) {
                    Evaluator seconds = expression(argumentExprs.getFirst());
                    if (seconds.type().kind() == TypeKind.NULL) {
                        return new ConstantEvaluator(null, DataType.TIMESTAMP);
                    }
                    if (seconds.type().vectorKind() != VectorKind.DOUBLE) {
                        seconds = foldWhen(cast(seconds, DataType.DOUBLE, true), seconds instanceof ConstantEvaluator);
                    }
                    return new ToTimestampEvaluator(seconds, null, false);
                }
                return new ToTimestampEvaluator(textArgument(argumentExprs.get(0)), textArgument(argumentExprs.get(1)),
                        function == Function.TO_DATE);
            }
            case EXTRACT, DATE_TRUNC -> {
                String field = fieldName(argumentExprs.get(0));
                Evaluator value = expression(argumentExprs.get(1));
                return new TemporalEvaluator(function == Function.EXTRACT ? TemporalEvaluator.Operation.EXTRACT
                        : TemporalEvaluator.Operation.TRUNCATE, value, null, 1, field, type, zoneFor(value.type()));
            }
            case COALESCE -> {
                List<Expr> conditions = new ArrayList<>();
                List<Expr> results = new ArrayList<>();
                for (int index = 0; index < argumentExprs.size() - 1; index++) {
                    conditions.add(new Call(Function.IS_NOT_NULL, DataType.BOOLEAN, argumentExprs.get(index)));
                    results.add(argumentExprs.get(index));
                }
                return caseOf(new Case(conditions, results, argumentExprs.getLast(), type));
            }
            case MODE, PERCENTILE_CONT, PERCENTILE_DISC -> {
                Evaluator[] arguments = arguments(argumentExprs);
                if (function != Function.MODE) {
                    // The fraction is double precision (or an array of them), as PostgreSQL's signatures take float8.
                    DataType fraction = arguments[1].type().kind() == TypeKind.ARRAY ? DataType.array(DataType.DOUBLE) : DataType.DOUBLE;
                    if (!arguments[1].type().equals(fraction)) {
                        arguments[1] = foldWhen(cast(arguments[1], fraction, true), arguments[1] instanceof ConstantEvaluator);
                    }
                }
                return new OrderedSetEvaluator(function, arguments, type);
            }
            case ARRAY_CONSTRUCT, ARRAY_ELEMENT, CARDINALITY, ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER, ARRAY_TO_STRING, STRING_AGG,
                 ARRAY_CONCAT, EQUAL_ANY, NOT_EQUAL_ANY, LESS_THAN_ANY, LESS_THAN_OR_EQUAL_ANY, GREATER_THAN_ANY,
                 GREATER_THAN_OR_EQUAL_ANY, EQUAL_ALL, NOT_EQUAL_ALL, LESS_THAN_ALL, LESS_THAN_OR_EQUAL_ALL, GREATER_THAN_ALL,
                 GREATER_THAN_OR_EQUAL_ALL -> {
                Evaluator[] arguments = new Evaluator[argumentExprs.size()];
                for (int index = 0; index < arguments.length; index++) {
                    arguments[index] = expression(argumentExprs.get(index));
                }
                return new ArrayFunctionEvaluator(function, arguments, type);
            }
            case ARRAY_APPEND, ARRAY_PREPEND, ARRAY_REMOVE, ARRAY_REPLACE, ARRAY_FILL -> {
                return new ArrayEditEvaluator(function, arguments(argumentExprs), type);
            }
            case ARRAY_SLICE -> {
                // Arguments: array, lower, upper, then whether each bound was written (boolean literals).
                boolean hasLower = !Long.valueOf(0).equals(((Literal) argumentExprs.get(3)).value());
                boolean hasUpper = !Long.valueOf(0).equals(((Literal) argumentExprs.get(4)).value());
                return new ArrayEditEvaluator(function, arguments(argumentExprs.subList(0, 3)), type, hasLower, hasUpper);
            }
            case ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP -> {
                return new ArraySearchEvaluator(function, arguments(argumentExprs), type);
            }
            case GREATEST, LEAST -> {
                return new GreatestLeastEvaluator(function == Function.GREATEST, arguments(argumentExprs), type);
            }
            case NULLIF -> {
                Expr equal = new Call(Function.EQUAL, DataType.BOOLEAN, argumentExprs.get(0), argumentExprs.get(1));
                return caseOf(new Case(List.of(equal), List.of(new Literal(null, type)), argumentExprs.get(0), type));
            }
            case TABLE_SIZE, RELATION_SIZE, INDEXES_SIZE, TOTAL_RELATION_SIZE, DATABASE_SIZE -> {
                return new RelationSizeEvaluator(function, arguments(argumentExprs),
                        context == null ? RelationSizes.NONE : context.relationSizes());
            }
            case SCALAR_SUBQUERY_VALUE -> {
                return new SingleRowValueEvaluator(expression(argumentExprs.get(0)), expression(argumentExprs.get(1)));
            }
            case SIZE_PRETTY -> {
                return new SizePrettyEvaluator(expression(argumentExprs.getFirst()));
            }
            case RANDOM -> {
                return new VolatileEvaluator(true, DataType.DOUBLE);
            }
            case CLOCK_TIMESTAMP -> {
                return new VolatileEvaluator(false, type);
            }
            case GEN_RANDOM_UUID -> {
                return new RandomUuidEvaluator();
            }
            case NEXTVAL, CURRVAL, SETVAL, LASTVAL -> {
                return new SequenceEvaluator(function, arguments(argumentExprs), context.sequences());
            }
            case TIMEZONE -> {
                Evaluator zoneName = textArgument(argumentExprs.get(0));
                Evaluator value = expression(argumentExprs.get(1));
                if (value.type().kind() == TypeKind.DATE) {
                    // PostgreSQL reads a date as a timestamp with time zone here (its preferred type).
                    value = foldWhen(cast(value, DataType.TIMESTAMPTZ, true), value instanceof ConstantEvaluator);
                }
                if (value.type().kind() == TypeKind.NULL || zoneName.type().kind() == TypeKind.NULL) {
                    return new ConstantEvaluator(null, type);
                }
                return new AtTimeZoneEvaluator(zoneName, value, type);
            }
            case NOW -> {
                return statementValues != null
                        ? new StatementValueEvaluator(statementValues, StatementValueEvaluator.TRANSACTION_START, type)
                        : new ConstantEvaluator(context.transactionStartMicros(), type);
            }
            case STATEMENT_TIMESTAMP -> {
                return statementValues != null
                        ? new StatementValueEvaluator(statementValues, StatementValueEvaluator.STATEMENT_START, type)
                        : new ConstantEvaluator(context.statementStartMicros(), type);
            }
        }
        throw new IllegalStateException("unhandled function " + function);
    }

    private static String fieldName(Expr expression) {
        if (expression instanceof Literal literal && literal.value() instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        }
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "the field of EXTRACT/DATE_TRUNC must be a constant");
    }

    /**
     * A value's output form as text (PostgreSQL's type output function, what {@code ||} and
     * {@code concat} append): text as it is, a character(n) with its padding, a boolean {@code t} or
     * {@code f}, anything else its cast to text.
     */
    private Evaluator outputText(Evaluator value) {
        TypeKind kind = value.type().kind();
        if (kind.isText()) {
            return value;
        }
        if (kind == TypeKind.BOOLEAN) {
            return foldWhen(new BooleanOutputEvaluator(value), value instanceof ConstantEvaluator);
        }
        return foldWhen(cast(value, DataType.TEXT, true), value instanceof ConstantEvaluator);
    }

    private Evaluator[] arguments(List<Expr> expressions) {
        Evaluator[] arguments = new Evaluator[expressions.size()];
        for (int index = 0; index < arguments.length; index++) {
            arguments[index] = expression(expressions.get(index));
        }
        return arguments;
    }

    /** Whether one side is a timestamp with time zone and the other a date or timestamp, which compare as instants in the session's zone. */
    private static boolean withAndWithoutTimeZone(TypeKind left, TypeKind right) {
        return (left == TypeKind.TIMESTAMPTZ) != (right == TypeKind.TIMESTAMPTZ)
                && (left == TypeKind.DATE || left == TypeKind.TIMESTAMP || right == TypeKind.DATE || right == TypeKind.TIMESTAMP);
    }

    /** Brings two operands of a comparison to one vector kind: integers/decimals vs doubles compare as doubles. */
    private Evaluator[] comparable(Evaluator left, Evaluator right) {
        VectorKind leftKind = left.type().vectorKind();
        VectorKind rightKind = right.type().vectorKind();
        if (left.type().kind() == TypeKind.NULL) {
            left = new ConstantEvaluator(null, right.type());
        } else if (right.type().kind() == TypeKind.NULL) {
            right = new ConstantEvaluator(null, left.type());
        } else if (leftKind == VectorKind.DOUBLE && rightKind == VectorKind.LONG) {
            right = foldWhen(cast(right, DataType.DOUBLE, true), right instanceof ConstantEvaluator);
        } else if (leftKind == VectorKind.LONG && rightKind == VectorKind.DOUBLE) {
            left = foldWhen(cast(left, DataType.DOUBLE, true), left instanceof ConstantEvaluator);
        } else if (withAndWithoutTimeZone(left.type().kind(), right.type().kind())) {
            if (left.type().kind() == TypeKind.TIMESTAMPTZ) {
                right = foldWhen(cast(right, DataType.TIMESTAMPTZ, true), right instanceof ConstantEvaluator);
            } else {
                left = foldWhen(cast(left, DataType.TIMESTAMPTZ, true), left instanceof ConstantEvaluator);
            }
        } else if (left.type().kind() == TypeKind.DATE && right.type().kind() == TypeKind.TIMESTAMP) {
            left = foldWhen(cast(left, DataType.TIMESTAMP, true), left instanceof ConstantEvaluator);
        } else if (left.type().kind() == TypeKind.TIMESTAMP && right.type().kind() == TypeKind.DATE) {
            right = foldWhen(cast(right, DataType.TIMESTAMP, true), right instanceof ConstantEvaluator);
        } else if (leftKind != rightKind) {
            throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "operator does not exist: %s = %s",
                    left.type().sqlName(), right.type().sqlName());
        }
        return new Evaluator[] {left, right};
    }

    private Evaluator arithmetic(Function function, Evaluator left, Evaluator right, DataType type) {
        TypeKind leftKind = left.type().kind();
        TypeKind rightKind = right.type().kind();
        boolean leftTemporal = leftKind == TypeKind.DATE || leftKind == TypeKind.TIMESTAMP || leftKind == TypeKind.TIMESTAMPTZ;
        boolean rightTemporal = rightKind == TypeKind.DATE || rightKind == TypeKind.TIMESTAMP || rightKind == TypeKind.TIMESTAMPTZ;
        if (function == Function.ADD && !leftTemporal && rightTemporal) {
            return arithmetic(function, right, left, type);
        }
        if (leftTemporal) {
            int sign = function == Function.SUBTRACT ? -1 : 1;
            TemporalEvaluator.Operation operation;
            if (rightTemporal) {
                if (leftKind == TypeKind.DATE && rightKind == TypeKind.DATE) {
                    operation = TemporalEvaluator.Operation.SUBTRACT_DATES;
                } else if (withAndWithoutTimeZone(leftKind, rightKind)) {
                    // timestamptz - timestamp: the local side is read in the session's zone, as PostgreSQL's implicit cast does.
                    left = leftKind == TypeKind.TIMESTAMPTZ ? left : cast(left, DataType.TIMESTAMPTZ, true);
                    right = rightKind == TypeKind.TIMESTAMPTZ ? right : cast(right, DataType.TIMESTAMPTZ, true);
                    operation = TemporalEvaluator.Operation.SUBTRACT_TIMESTAMPS;
                } else {
                    left = leftKind == TypeKind.DATE ? cast(left, DataType.TIMESTAMP, true) : left;
                    right = rightKind == TypeKind.DATE ? cast(right, DataType.TIMESTAMP, true) : right;
                    operation = TemporalEvaluator.Operation.SUBTRACT_TIMESTAMPS;
                }
            } else if (rightKind == TypeKind.INTERVAL_YEAR_MONTH) {
                operation = TemporalEvaluator.Operation.ADD_MONTHS;
            } else if (rightKind == TypeKind.INTERVAL_DAY_TIME) {
                operation = TemporalEvaluator.Operation.ADD_MICROS;
            } else {
                operation = TemporalEvaluator.Operation.ADD_DAYS;
            }
            return new TemporalEvaluator(operation, left, right, sign, null, type, zoneFor(left.type()));
        }
        boolean leftInterval = leftKind == TypeKind.INTERVAL_DAY_TIME || leftKind == TypeKind.INTERVAL_YEAR_MONTH;
        boolean rightInterval = rightKind == TypeKind.INTERVAL_DAY_TIME || rightKind == TypeKind.INTERVAL_YEAR_MONTH;
        if (function == Function.MULTIPLY && rightInterval && !leftInterval) {
            return arithmetic(function, right, left, type);
        }
        if ((function == Function.MULTIPLY || function == Function.DIVIDE) && leftInterval && !rightInterval
                && rightKind != TypeKind.NULL) {
            Evaluator factor = right.type().vectorKind() == VectorKind.DOUBLE ? right
                    : foldWhen(cast(right, DataType.DOUBLE, true), right instanceof ConstantEvaluator);
            return new IntervalScaleEvaluator(left, factor, function == Function.DIVIDE, type);
        }
        if (type.vectorKind() == VectorKind.DOUBLE) {
            if (left.type().vectorKind() != VectorKind.DOUBLE) {
                left = foldWhen(cast(left, DataType.DOUBLE, true), left instanceof ConstantEvaluator);
            }
            if (right.type().vectorKind() != VectorKind.DOUBLE) {
                right = foldWhen(cast(right, DataType.DOUBLE, true), right instanceof ConstantEvaluator);
            }
            return new NumericFunctionEvaluator(function, new Evaluator[] {left, right}, type);
        }
        if (left.type().vectorKind() == VectorKind.DOUBLE || right.type().vectorKind() == VectorKind.DOUBLE) {
            Evaluator doubleResult = arithmetic(function, left, right, DataType.DOUBLE);
            return cast(doubleResult, type, true);
        }
        if (leftKind == TypeKind.INTERVAL_DAY_TIME || leftKind == TypeKind.INTERVAL_YEAR_MONTH) {
            // interval ± interval of one kind: plain long arithmetic with bigint overflow checks.
            return new ArithmeticEvaluator(function, left, right, type);
        }
        return new ArithmeticEvaluator(function, left, right, type);
    }

    /**
     * Whether {@code expression} may be folded into a constant now: it is constant, and when
     * compiling for many executions it reads no parameter and not now(), whose values change
     * between executions.
     */
    private boolean foldable(Expr expression) {
        return isConstant(expression) && (statementValues == null || !readsStatementValues(expression));
    }

    private static boolean readsStatementValues(Expr expression) {
        return switch (expression) {
            case ColumnRef column -> false;
            case Literal literal -> false;
            case Parameter parameter -> true;
            case Cast cast -> readsStatementValues(cast.input());
            case Case caseExpression -> caseExpression.conditions().stream().anyMatch(ExpressionCompiler::readsStatementValues)
                    || caseExpression.results().stream().anyMatch(ExpressionCompiler::readsStatementValues)
                    || readsStatementValues(caseExpression.otherwise());
            case InList inList -> readsStatementValues(inList.value())
                    || inList.values().stream().anyMatch(ExpressionCompiler::readsStatementValues);
            case Call call -> call.function() == Function.NOW || call.function() == Function.STATEMENT_TIMESTAMP || call.arguments().stream().anyMatch(ExpressionCompiler::readsStatementValues);
        };
    }

    /** True when the expression reads no column and nothing volatile: it has one value per statement. */
    static boolean isConstant(Expr expression) {
        return switch (expression) {
            case ColumnRef column -> false;
            case Literal literal -> true;
            case Parameter parameter -> true;
            case Cast cast -> isConstant(cast.input());
            case Case caseExpression -> caseExpression.conditions().stream().allMatch(ExpressionCompiler::isConstant)
                    && caseExpression.results().stream().allMatch(ExpressionCompiler::isConstant)
                    && isConstant(caseExpression.otherwise());
            case InList inList -> isConstant(inList.value()) && inList.values().stream().allMatch(ExpressionCompiler::isConstant);
            case Call call -> !isVolatile(call.function()) && call.arguments().stream().allMatch(ExpressionCompiler::isConstant);
        };
    }

    /** Functions whose value changes from row to row with the same arguments (or has effects): never folded. */
    private static boolean isVolatile(Function function) {
        return switch (function) {
            case RANDOM, CLOCK_TIMESTAMP, GEN_RANDOM_UUID, NEXTVAL, CURRVAL, SETVAL, LASTVAL -> true;
            default -> false;
        };
    }

    /**
     * Folds {@code evaluator} into one constant when {@code constantInputs}. An error while folding
     * (1 / 0 in a CASE branch no row reaches) is left to happen at run time, for the rows that reach it.
     */
    static Evaluator foldWhen(Evaluator evaluator, boolean constantInputs) {
        if (!constantInputs || evaluator instanceof ConstantEvaluator) {
            return evaluator;
        }
        try {
            Batch single = new Batch(new ColumnVector[0]);
            single.setRowCount(1);
            ColumnVector vector = evaluator.evaluate(single, null, 1);
            Object value;
            if (vector.isNull(0)) {
                value = null;
            } else {
                value = switch (vector) {
                    case LongVector longs -> longs.get(0);
                    case DoubleVector doubles -> doubles.get(0);
                    case BytesVector bytes -> bytes.getBytes(0);
                };
            }
            return new ConstantEvaluator(value, evaluator.type());
        } catch (ParallaxException deferred) {
            return evaluator;
        }
    }

    /**
     * A text operand as PostgreSQL's text functions take it: a character(n) value cast to text
     * (without its padding blanks), an untyped NULL or any other non-text value cast to text.
     */
    private Evaluator plainText(Expr argument) {
        Evaluator evaluator = expression(argument);
        if (evaluator.type().kind().isText() && evaluator.type().kind() != TypeKind.CHAR) {
            return evaluator;
        }
        return foldWhen(cast(evaluator, DataType.TEXT, true), evaluator instanceof ConstantEvaluator);
    }

    /** The operands of a function taking text and integers: integers as they are, the others {@link #plainText}. */
    private Evaluator[] textOrIntegerArguments(List<Expr> expressions) {
        Evaluator[] arguments = new Evaluator[expressions.size()];
        for (int index = 0; index < arguments.length; index++) {
            Expr argument = expressions.get(index);
            arguments[index] = argument.type().vectorKind() == VectorKind.LONG && !argument.type().kind().isText()
                    && argument.type().kind() != TypeKind.NULL ? expression(argument) : plainText(argument);
        }
        return arguments;
    }

    /** An operand of a text-only function: an untyped NULL (or any non-text value) is cast to text first. */
    private Evaluator textArgument(Expr argument) {
        Evaluator evaluator = expression(argument);
        return evaluator.type().kind().isText() ? evaluator : cast(evaluator, DataType.TEXT, true);
    }
}
