package dev.parallax.engine.explain;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
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

    static String format(Expr expression, List<String> inputNames) {
        return switch (expression) {
            case ColumnRef column -> column.index() < inputNames.size() ? inputNames.get(column.index()) : "$" + column.index();
            case Parameter parameter -> "$" + (parameter.index() + 1);
            case Literal literal -> literal(literal);
            case Cast cast -> "(" + format(cast.input(), inputNames) + ")::" + cast.type().sqlName();
            case InList in -> "(" + format(in.value(), inputNames) + (in.negated() ? " <> ALL (" : " = ANY (")
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
            case Call call -> call(call, inputNames);
        };
    }

    private static String call(Call call, List<String> names) {
        List<Expr> arguments = call.arguments();
        String operator = switch (call.function()) {
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
        if (operator != null && arguments.size() >= 2) {
            return "(" + join(arguments, names, " " + operator + " ") + ")";
        }
        return switch (call.function()) {
            case NOT -> "(NOT " + format(arguments.get(0), names) + ")";
            case NEGATE -> "(- " + format(arguments.get(0), names) + ")";
            case BIT_NOT -> "(~ " + format(arguments.get(0), names) + ")";
            case IS_NULL -> "(" + format(arguments.get(0), names) + " IS NULL)";
            case IS_NOT_NULL -> "(" + format(arguments.get(0), names) + " IS NOT NULL)";
            case IS_TRUE -> "(" + format(arguments.get(0), names) + " IS TRUE)";
            case IS_NOT_TRUE -> "(" + format(arguments.get(0), names) + " IS NOT TRUE)";
            case IS_FALSE -> "(" + format(arguments.get(0), names) + " IS FALSE)";
            case IS_NOT_FALSE -> "(" + format(arguments.get(0), names) + " IS NOT FALSE)";
            case CONCAT_VALUES -> "concat(" + join(arguments, names, ", ") + ")";
            case ARRAY_CONSTRUCT -> "ARRAY[" + join(arguments, names, ", ") + "]";
            case ARRAY_ELEMENT -> "(" + format(arguments.get(0), names) + ")[" + format(arguments.get(1), names) + "]";
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
                yield "(" + format(arguments.get(0), names) + " " + symbol + " " + quantifier + " ("
                        + format(arguments.get(1), names) + "))";
            }
            default -> call.function().name().toLowerCase() + "(" + join(arguments, names, ", ") + ")";
        };
    }

    private static String join(List<Expr> expressions, List<String> names, String separator) {
        StringBuilder text = new StringBuilder();
        for (Expr expression : expressions) {
            if (!text.isEmpty()) {
                text.append(separator);
            }
            text.append(format(expression, names));
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
