package dev.parallax.engine.explain;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.ColumnVector;

import java.math.BigDecimal;
import java.util.List;

/** Prints plan expressions the way PostgreSQL's EXPLAIN deparses them, over the input's column names. */
public final class ExpressionText {
    private ExpressionText() {
    }

    /** {@code expression}, which reads no column, as PostgreSQL deparses it (a column default's text). */
    public static String format(Expr expression) {
        return format(expression, List.of());
    }

    /** {@code expression} over columns named {@code inputNames}, parenthesized as PostgreSQL's plain deparse ({@code ((a > 0) AND (b > 0))}). */
    public static String format(Expr expression, List<String> inputNames) {
        return format(expression, inputNames, false, null, 0);
    }

    /**
     * {@code expression} as PostgreSQL's pretty deparse prints it ({@code pg_get_constraintdef(oid,
     * true)}, psql's {@code \d}): parentheses only where precedence needs them ({@code a > 0 AND b > 0},
     * {@code (a + 1) > b}, {@code a + b * c}), after ruleutils.c's isSimpleNode.
     */
    public static String formatPretty(Expr expression, List<String> inputNames) {
        return format(expression, inputNames, true, null, 0);
    }

    /** {@code parent} is the operator call {@code expression} is argument {@code argument} of, or null. */
    private static String format(Expr expression, List<String> inputNames, boolean pretty, Call parent, int argument) {
        return switch (expression) {
            case ColumnRef column -> column.index() < inputNames.size() ? inputNames.get(column.index()) : "$" + column.index();
            case Parameter parameter -> "$" + (parameter.index() + 1);
            case Literal literal -> literal(literal);
            case Cast cast -> pretty && !(cast.input() instanceof Call || cast.input() instanceof Case || cast.input() instanceof InList)
                    ? format(cast.input(), inputNames, true, null, 0) + "::" + cast.type().sqlName()
                    : "(" + format(cast.input(), inputNames, pretty, null, 0) + ")::" + cast.type().sqlName();
            // Pretty (a constraint's text): PostgreSQL's ScalarArrayOpExpr over an ARRAY constructor, a = ANY (ARRAY[1, 2]).
            case InList in -> pretty ? format(in.value(), inputNames, true, null, 0) + (in.negated() ? " <> ALL (ARRAY[" : " = ANY (ARRAY[")
                    + join(in.values(), inputNames, ", ", true, null) + "])"
                    : "(" + format(in.value(), inputNames) + (in.negated() ? " <> ALL (" : " = ANY (")
                    + join(in.values(), inputNames, ", ") + "))";
            case Case caseExpression -> {
                StringBuilder text = new StringBuilder("CASE");
                for (int index = 0; index < caseExpression.conditions().size(); index++) {
                    text.append(" WHEN ").append(format(caseExpression.conditions().get(index), inputNames))
                            .append(" THEN ").append(format(caseExpression.results().get(index), inputNames));
                }
                if (caseExpression.otherwise() != null) {
                    text.append(" ELSE ").append(format(caseExpression.otherwise(), inputNames));
                }
                yield text.append(" END").toString();
            }
            case Call call -> pretty ? parenthesized(call, call(call, inputNames, true), parent, argument) : call(call, inputNames, false);
        };
    }

    /** Pretty deparse: {@code text}, the call printed in parentheses, without them where ruleutils.c's isSimpleNode finds them needless. */
    private static String parenthesized(Call call, String text, Call parent, int argument) {
        return operatorText(call) && simpleIn(call.function(), parent, argument) ? text.substring(1, text.length() - 1) : text;
    }

    /** Whether {@code call} is printed as an operator form in parentheses (not as a function call). */
    private static boolean operatorText(Call call) {
        return operator(call.function()) != null && call.arguments().size() >= 2 || switch (call.function()) {
            case NOT, NEGATE, BIT_NOT, IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> true;
            default -> false;
        };
    }

    /** Whether an operator call of {@code function}, argument {@code argument} of {@code parent} (null: the top), prints without parentheses. */
    private static boolean simpleIn(Function function, Call parent, int argument) {
        if (parent == null || !operatorText(parent)) {
            return true;
        }
        Function outer = parent.function();
        if (function == Function.AND || function == Function.NOT) {
            return outer == Function.AND || outer == Function.OR;
        }
        if (function == Function.OR) {
            return outer == Function.OR;
        }
        if (outer == Function.AND || outer == Function.OR || outer == Function.NOT) {
            return true;
        }
        int priority = arithmeticPriority(function);
        int outerPriority = arithmeticPriority(outer);
        // Left-associative: a child of the same priority needs no parentheses on the left only.
        return priority > 0 && outerPriority > 0 && (priority > outerPriority || priority == outerPriority && argument == 0);
    }

    /** 2 for * / %, 1 for + -, else 0 (ruleutils.c's operator groups). */
    private static int arithmeticPriority(Function function) {
        return switch (function) {
            case MULTIPLY, DIVIDE, MODULO -> 2;
            case ADD, SUBTRACT -> 1;
            default -> 0;
        };
    }

    private static String call(Call call, List<String> names, boolean pretty) {
        List<Expr> arguments = call.arguments();
        String operator = operator(call.function());
        if (operator != null && arguments.size() >= 2) {
            return "(" + join(arguments, names, " " + operator + " ", pretty, call) + ")";
        }
        return switch (call.function()) {
            case NOT -> "(NOT " + format(arguments.get(0), names, pretty, call, 0) + ")";
            case NEGATE -> "(- " + format(arguments.get(0), names, pretty, call, 0) + ")";
            case BIT_NOT -> "(~ " + format(arguments.get(0), names, pretty, call, 0) + ")";
            case IS_NULL -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS NULL)";
            case IS_NOT_NULL -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS NOT NULL)";
            case IS_TRUE -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS TRUE)";
            case IS_NOT_TRUE -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS NOT TRUE)";
            case IS_FALSE -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS FALSE)";
            case IS_NOT_FALSE -> "(" + format(arguments.get(0), names, pretty, call, 0) + " IS NOT FALSE)";
            case CONCAT_VALUES -> "concat(" + join(arguments, names, ", ", pretty, call) + ")";
            case ARRAY_CONSTRUCT -> "ARRAY[" + join(arguments, names, ", ", pretty, call) + "]";
            case ARRAY_ELEMENT -> "(" + format(arguments.get(0), names, pretty, call, 0) + ")[" + format(arguments.get(1), names, pretty, call, 1) + "]";
            case EQUAL_ANY, NOT_EQUAL_ANY, LESS_THAN_ANY, LESS_THAN_OR_EQUAL_ANY, GREATER_THAN_ANY, GREATER_THAN_OR_EQUAL_ANY,
                 EQUAL_ALL, NOT_EQUAL_ALL, LESS_THAN_ALL, LESS_THAN_OR_EQUAL_ALL, GREATER_THAN_ALL, GREATER_THAN_OR_EQUAL_ALL -> {
                String name = call.function().name();
                String comparison = name.substring(0, name.lastIndexOf('_'));
                String quantifier = name.substring(name.lastIndexOf('_') + 1);
                String symbol = switch (comparison) {
                    case "EQUAL" -> "=";
                    case "NOT_EQUAL" -> "<>";
                    case "LESS_THAN" -> "<";
                    case "LESS_THAN_OR_EQUAL" -> "<=";
                    case "GREATER_THAN" -> ">";
                    default -> ">=";
                };
                yield "(" + format(arguments.get(0), names, pretty, call, 0) + " " + symbol + " " + quantifier + " ("
                        + format(arguments.get(1), names, pretty, call, 1) + "))";
            }
            default -> call.function().name().toLowerCase() + "(" + join(arguments, names, ", ", pretty, call) + ")";
        };
    }

    /** The operator symbol PostgreSQL prints for {@code function}, or null when it prints a function call. */
    private static String operator(Function function) {
        return switch (function) {
            case ADD -> "+";
            case SUBTRACT -> "-";
            case MULTIPLY -> "*";
            case DIVIDE -> "/";
            case MODULO -> "%";
            case EQUAL -> "=";
            case NOT_EQUAL -> "<>";
            case LESS_THAN -> "<";
            case LESS_THAN_OR_EQUAL -> "<=";
            case GREATER_THAN -> ">";
            case GREATER_THAN_OR_EQUAL -> ">=";
            case IS_DISTINCT_FROM -> "IS DISTINCT FROM";
            case IS_NOT_DISTINCT_FROM -> "IS NOT DISTINCT FROM";
            case AND -> "AND";
            case OR -> "OR";
            case LIKE -> "~~";
            case NOT_LIKE -> "!~~";
            case ILIKE -> "~~*";
            case NOT_ILIKE -> "!~~*";
            case REGEX_MATCH -> "~";
            case NOT_REGEX_MATCH -> "!~";
            case REGEX_MATCH_INSENSITIVE -> "~*";
            case NOT_REGEX_MATCH_INSENSITIVE -> "!~*";
            case BIT_AND -> "&";
            case BIT_OR -> "|";
            case BIT_XOR -> "#";
            case SHIFT_LEFT -> "<<";
            case SHIFT_RIGHT -> ">>";
            case CONCAT, ARRAY_CONCAT -> "||";
            default -> null;
        };
    }

    private static String join(List<Expr> expressions, List<String> names, String separator) {
        return join(expressions, names, separator, false, null);
    }

    private static String join(List<Expr> expressions, List<String> names, String separator, boolean pretty, Call parent) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < expressions.size(); index++) {
            if (!text.isEmpty()) {
                text.append(separator);
            }
            text.append(format(expressions.get(index), names, pretty, parent, index));
        }
        return text.toString();
    }

    private static String literal(Literal literal) {
        if (literal.isNull()) {
            return "NULL::" + literal.type().sqlName();
        }
        TypeKind kind = literal.type().kind();
        switch (kind) {
            case SMALLINT, INTEGER, BIGINT -> {
                return literal.value().toString();
            }
            case DECIMAL -> {
                return BigDecimal.valueOf((Long) literal.value(), literal.type().scale()).toPlainString();
            }
            default -> {
                String text;
                try {
                    ColumnVector vector = ColumnVector.create(literal.type(), 1);
                    ConstantValues.store(vector, 0, literal.value());
                    text = ValueText.format(vector, 0);
                } catch (RuntimeException notFormattable) {
                    text = String.valueOf(literal.value());
                }
                String typeName = kind == TypeKind.CHAR ? "bpchar" : literal.type().sqlName();
                return "'" + text.replace("'", "''") + "'::" + typeName;
            }
        }
    }
}
