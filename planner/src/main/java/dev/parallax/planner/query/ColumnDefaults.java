package dev.parallax.planner.query;

import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.explain.ExpressionText;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueText;
import dev.parallax.planner.query.convert.WrittenRelationName;
import dev.parallax.planner.query.parse.ExpressionTokens;
import dev.parallax.planner.query.translate.RexTranslator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexNode;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a column's DEFAULT expression as PostgreSQL does when a table is created or altered, and
 * finds the text PostgreSQL shows for it. The expression is planned as {@code SELECT (expr)} with
 * nothing in scope, so a column reference is an unknown name (reported as PostgreSQL reports it,
 * 0A000), and its type must be assignable to the column's (42804). A string constant is PostgreSQL's
 * "unknown" literal: it is read as a value of the column's type right away (22P02 for {@code int
 * default 'x'}). Nothing is evaluated: a default is evaluated by each statement that uses it.
 */
final class ColumnDefaults {
    private ColumnDefaults() {
    }

    /** The checked default of {@code column}, or null for a default that is NULL (PostgreSQL stores none). */
    static ColumnDefault plan(QueryPlanner planner, String written, ColumnDefinition column, Settings settings) {
        String expressionText = withSequenceNames(written);
        if (ExpressionTokens.containsWord(expressionText, "select")) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in DEFAULT expression");
        }
        QueryPlanner.Analysis analysis;
        try {
            analysis = planner.analyze("SELECT (" + expressionText + ")");
        } catch (ParallaxException failure) {
            if (failure.state() == SqlState.UNDEFINED_COLUMN) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot use column reference in DEFAULT expression");
            }
            throw failure;
        }
        if (analysis.setReturning()) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in DEFAULT expressions");
        }
        if (!analysis.statement().parameterNumbers().isEmpty()) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d",
                    analysis.statement().parameterNumbers().getFirst());
        }
        RelNode root = analysis.root().project();
        RexNode value;
        if (root instanceof Project project && project.getInput() instanceof Values) {
            value = project.getProjects().getFirst();
        } else if (root instanceof Values values && values.getTuples().size() == 1) {
            value = values.getTuples().getFirst().getFirst();
        } else if (containsAggregate(root)) {
            throw ParallaxException.of(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in DEFAULT expressions");
        } else {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in DEFAULT expression");
        }
        RexTranslator translator = new RexTranslator(analysis.rexBuilder(), analysis.statement().parameterNumbers(), settings);
        Expr expression = translator.translateAsWritten(value);
        DataType type = column.type();
        if (isNull(expression)) {
            return null;
        }
        if (expression instanceof Literal literal && literal.type().kind().isText() && ExpressionTokens.isStringConstant(expressionText)) {
            return new ColumnDefault(expressionText, unknownLiteralText(literal, type));
        }
        Matcher castConstant = CAST_STRING_CONSTANT.matcher(expressionText);
        if (castConstant.matches()) {
            // pg_dump writes a constant default cast to the column's own type ('2024-01-01'::date,
            // 'new'::character varying, 'FR'::bpchar): the constant read as the column's type, as
            // PostgreSQL stores it. A cast between character types is already folded into the constant.
            // It shows in the cast's type ('...1234'::timestamp without time zone of a timestamp(3) column).
            if (expression instanceof Cast cast && cast.input() instanceof Literal input && input.type().kind().isText()
                    && sameFamily(cast.type(), type)) {
                return new ColumnDefault(castConstant.group(1), unknownLiteralText(input, cast.type()));
            }
            if (expression instanceof Literal folded && folded.type().kind().isText() && type.kind().isText()) {
                return new ColumnDefault(castConstant.group(1), unknownLiteralText(folded, type));
            }
        }
        if (!assignable(expression.type(), type)) {
            throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "column \"%s\" is of type %s but default expression is of type %s",
                    column.name(), baseName(type), baseName(expression.type()))
                    .withHint("You will need to rewrite or cast the expression.");
        }
        return new ColumnDefault(expressionText, displayText(expressionText, expression));
    }

    /**
     * {@code nextval('name'::regclass)}, as PostgreSQL shows a serial column's default and pg_dump
     * writes it ({@code nextval('public.t_id_seq'::regclass)}), written as {@code nextval('t_id_seq')}:
     * nextval reads a text argument as regclass does, so the call is the same, and the stored text
     * names the sequence as the catalog does (PostgreSQL stores the sequence's OID, and shows its
     * name without the schema on the search path).
     */
    static String withSequenceNames(String expressionText) {
        Matcher matcher = NEXTVAL_OF_REGCLASS.matcher(expressionText);
        if (!matcher.find()) {
            return expressionText;
        }
        StringBuilder result = new StringBuilder();
        do {
            String written = matcher.group(1).replace("''", "'");
            String name = WrittenRelationName.unqualified(written);
            String reread = SIMPLE_NAME.matcher(name).matches() ? name : "\"" + name.replace("\"", "\"\"") + "\"";
            matcher.appendReplacement(result, Matcher.quoteReplacement("nextval('" + reread.replace("'", "''") + "')"));
        } while (matcher.find());
        matcher.appendTail(result);
        return result.toString();
    }

    /** One string constant cast with {@code ::} to a type name (with its modifier): group 1 is the constant. */
    private static final Pattern CAST_STRING_CONSTANT = Pattern.compile("\\s*('(?:[^']|'')*')\\s*::\\s*[a-z_][a-z_ ]*(\\([0-9, ]*\\))?\\s*",
            Pattern.CASE_INSENSITIVE);

    /** Whether a value of {@code cast} is one of {@code column}'s type (character types count as one). */
    private static boolean sameFamily(DataType cast, DataType column) {
        return cast.kind() == column.kind() || cast.kind().isText() && column.kind().isText();
    }

    /** {@code [pg_catalog.]nextval('...'::regclass)}, any case and spacing. */
    private static final Pattern NEXTVAL_OF_REGCLASS = Pattern.compile(
            "(?i)(?<![\\w.])(?:pg_catalog\\s*\\.\\s*)?nextval\\s*\\(\\s*'((?:[^']|'')*)'\\s*::\\s*regclass\\s*\\)");
    /** A name that reads back as itself unquoted. */
    private static final Pattern SIMPLE_NAME = Pattern.compile("[a-z_][a-z0-9_$]*");

    /**
     * The SQL text that computes {@code column}'s default converted to its type, to be planned into a
     * statement that stores it; null when the column has no default. The cast on top is removed by
     * the INSERT's translation, which converts with assignment rules (22001 for a too-long value).
     */
    static String assignmentSql(ColumnDefinition column) {
        ColumnDefault value = column.defaultValue();
        return value == null ? null : "CAST((" + value.expressionText() + ") AS " + column.type().sqlName() + ")";
    }

    /** Whether {@code node} or an input of it aggregates (a DEFAULT or CHECK expression holding an aggregate). */
    static boolean containsAggregate(RelNode node) {
        if (node instanceof Aggregate) {
            return true;
        }
        for (RelNode input : node.getInputs()) {
            if (containsAggregate(input)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isNull(Expr expression) {
        return expression instanceof Literal literal && literal.isNull()
                || expression instanceof Cast cast && isNull(cast.input());
    }

    /**
     * A string constant read as the column's type, shown as PostgreSQL shows the resulting constant:
     * {@code 'x'::text}, {@code 5}, {@code '2020-01-01'::date}. Reading raises the type's input errors.
     */
    private static String unknownLiteralText(Literal literal, DataType type) {
        String text = new String((byte[]) literal.value(), StandardCharsets.UTF_8);
        if (type.kind().isText()) {
            String name = switch (type.kind()) {
                case CHAR -> "bpchar";
                case VARCHAR -> "character varying";
                default -> "text";
            };
            return quoted(text) + "::" + name;
        }
        Object value = ValueText.parse(type, text);
        return constantText(new Literal(value, type));
    }

    /** PostgreSQL's deparse of a constant of a known type: non-negative numbers bare, other values quoted with their type. */
    private static String constantText(Literal literal) {
        DataType type = literal.type();
        switch (type.kind()) {
            case INTEGER, SMALLINT, BIGINT -> {
                long value = (Long) literal.value();
                if (value >= 0 && type.kind() != TypeKind.BIGINT) {
                    return Long.toString(value);
                }
                return quoted(Long.toString(value)) + "::" + baseName(type);
            }
            case DECIMAL -> {
                String value = BigDecimal.valueOf((Long) literal.value(), type.scale()).toPlainString();
                return value.startsWith("-") ? quoted(value) + "::numeric" : value;
            }
            case BOOLEAN -> {
                return ((Long) literal.value()) != 0 ? "true" : "false";
            }
            default -> {
                return ExpressionText.format(literal);
            }
        }
    }

    private static String displayText(String source, Expr expression) {
        String keyword = source.strip().toLowerCase(Locale.ROOT);
        switch (keyword) {
            case "current_timestamp", "current_date", "localtimestamp", "current_time", "localtime" -> {
                return keyword.toUpperCase(Locale.ROOT);
            }
            default -> {
            }
        }
        if (expression instanceof Call call && call.function() == Function.NEXTVAL && call.arguments().getFirst() instanceof Literal name
                && name.value() instanceof byte[] bytes) {
            // PostgreSQL resolves the name when the default is stored: nextval('s'::regclass).
            return "nextval('" + new String(bytes, StandardCharsets.UTF_8).replace("'", "''") + "'::regclass)";
        }
        if (expression instanceof Call call && call.function() == Function.NEGATE && call.arguments().getFirst() instanceof Literal literal
                && !literal.isNull() && literal.type().kind().isNumeric() && literal.type().kind() != TypeKind.REAL
                && literal.type().kind() != TypeKind.DOUBLE) {
            return constantText(negated(literal));
        }
        if (expression instanceof Literal literal && (literal.type().kind().isNumeric() || literal.type().kind() == TypeKind.BOOLEAN)
                && literal.type().kind() != TypeKind.REAL && literal.type().kind() != TypeKind.DOUBLE) {
            return constantText(integerTyped(literal));
        }
        return ExpressionText.format(expression);
    }

    private static Literal negated(Literal literal) {
        return integerTyped(new Literal(-(Long) literal.value(), literal.type()));
    }

    /** An integer constant typed as PostgreSQL types it: integer when it fits, else bigint. */
    private static Literal integerTyped(Literal literal) {
        TypeKind kind = literal.type().kind();
        if (kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT) {
            long value = (Long) literal.value();
            return new Literal(value, value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? DataType.INTEGER : DataType.BIGINT);
        }
        return literal;
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /** A type's name without modifiers, as PostgreSQL's format_type_be names it in messages. */
    static String baseName(DataType type) {
        String name = type.sqlName();
        int parenthesis = name.indexOf('(');
        return parenthesis < 0 ? name : name.substring(0, parenthesis);
    }

    /** Whether PostgreSQL has an implicit or assignment cast from {@code from} to {@code to}. */
    static boolean assignable(DataType from, DataType to) {
        TypeKind source = from.kind();
        TypeKind target = to.kind();
        if (source == target || source == TypeKind.NULL || target.isText()) {
            return source != TypeKind.ARRAY || target != TypeKind.ARRAY || assignable(from.element(), to.element());
        }
        if (source.isNumeric() && target.isNumeric()) {
            return true;
        }
        if (source.isText() && target.isText() || source.isBitString() && target.isBitString()) {
            return true;
        }
        return isDateOrTimestamp(source) && isDateOrTimestamp(target)
                || (source == TypeKind.INTERVAL_DAY_TIME || source == TypeKind.INTERVAL_YEAR_MONTH)
                && (target == TypeKind.INTERVAL_DAY_TIME || target == TypeKind.INTERVAL_YEAR_MONTH);
    }

    /** Dates and timestamps with or without time zone assign to each other (in the session's zone). */
    private static boolean isDateOrTimestamp(TypeKind kind) {
        return kind == TypeKind.DATE || kind == TypeKind.TIMESTAMP || kind == TypeKind.TIMESTAMPTZ;
    }
}
