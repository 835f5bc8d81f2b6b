package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlInternalOperators;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * PostgreSQL 15's strictness about types of different categories (pg_type.typcategory: numeric,
 * string, boolean, date/time, timespan, uuid, bit string): no comparison operator joins two of them,
 * so {@code u = 1}, {@code u in (1, 2)} and {@code i = t} are 42883 "operator does not exist: uuid =
 * integer", and select_common_type finds no common type, so CASE, COALESCE, VALUES and UNION /
 * INTERSECT / EXCEPT of integer and text (or date, uuid, boolean ...) are 42804 "CASE types date and
 * integer cannot be matched". Calcite would coerce (integer and text became varchar, returning rows)
 * or fail with its own words (42000 Illegal mixing of types, 42846 cannot cast type integer to date).
 * Only a quoted literal (of type unknown until it meets the other side), a NULL or a parameter takes
 * the other side's type. Arrays and types without a category here are left to Calcite. Nor are there
 * min(uuid) / max(uuid) in PostgreSQL 15.
 *
 * <p>Errors leave as a {@link CalciteContextException} at the offending node whose cause is the
 * PostgreSQL error, so the position maps to the original text as Calcite's own errors do.
 */
final class TypeCategoryMismatches {
    private static final String NO_OPERATOR_HINT =
            "No operator matches the given name and argument types. You might need to add explicit type casts.";
    private static final String NO_FUNCTION_HINT =
            "No function matches the given name and argument types. You might need to add explicit type casts.";

    private TypeCategoryMismatches() {
    }

    /** Throws PostgreSQL's error when {@code call} compares or combines types of different categories (or takes min/max of a uuid); {@code types} derives an operand's type. */
    static void check(SqlCall call, Function<SqlNode, RelDataType> types) {
        if (call instanceof SqlCase caseCall) {
            checkCase(caseCall, types);
            return;
        }
        if (!(call instanceof SqlBasicCall basic)) {
            return;
        }
        SqlKind kind = basic.getKind();
        if ((kind == SqlKind.MIN || kind == SqlKind.MAX) && basic.operandCount() == 1 && !isUntyped(basic.operand(0))
                && isUuid(types.apply(basic.operand(0)))) {
            throw PostgresValidationError.at(basic.getParserPosition(), SqlState.UNDEFINED_FUNCTION,
                    "function " + kind.lowerName + "(uuid) does not exist", NO_FUNCTION_HINT);
        }
        if (basic.operandCount() < 2) {
            return;
        }
        if (basic.getOperator() instanceof SqlBetweenOperator between) {
            // x BETWEEN a AND b is x >= a AND x <= b; NOT BETWEEN is x < a OR x > b (PostgreSQL names those operators).
            boolean negated = between.isNegated();
            checkOperator(basic, basic.operand(0), basic.operand(1), negated ? "<" : ">=", types);
            checkOperator(basic, basic.operand(0), basic.operand(2), negated ? ">" : "<=", types);
            return;
        }
        String symbol = symbol(kind);
        if (symbol != null) {
            checkOperator(basic, basic.operand(0), basic.operand(1), symbol, types);
            return;
        }
        if (kind == SqlKind.IN || kind == SqlKind.NOT_IN) {
            // PostgreSQL reads x IN (list) as x = ANY, x NOT IN (list) as x <> ALL, and x NOT IN (query) as NOT (x = ANY).
            boolean list = basic.operand(1) instanceof SqlNodeList;
            checkList(basic, kind == SqlKind.NOT_IN && list ? "<>" : "=", types);
            return;
        }
        if (basic.getOperator() instanceof SqlQuantifyOperator quantified) {
            checkList(basic, symbol(quantified.comparisonKind), types);
            return;
        }
        String quantifiedArray = quantifiedArraySymbol(basic);
        if (quantifiedArray != null && !isUntyped(basic.operand(1))) {
            RelDataType array = types.apply(basic.operand(1));
            if (array.getComponentType() != null) {
                checkTypes(basic, basic.operand(0), array.getComponentType(), quantifiedArray, types);
            }
        }
    }

    private static void checkList(SqlBasicCall call, String symbol, Function<SqlNode, RelDataType> types) {
        if (symbol == null) {
            return;
        }
        SqlNode right = call.operand(1);
        if (right instanceof SqlNodeList list) {
            for (SqlNode element : list) {
                checkOperator(call, call.operand(0), element, symbol, types);
            }
            return;
        }
        if (isUntyped(call.operand(0))) {
            return;
        }
        RelDataType row = types.apply(right);
        if (row.isStruct() && row.getFieldCount() == 1) {
            checkTypes(call, call.operand(0), row.getFieldList().getFirst().getType(), symbol, types);
        }
    }

    private static void checkOperator(SqlCall call, SqlNode left, SqlNode right, String symbol, Function<SqlNode, RelDataType> types) {
        if (isUntyped(left) || isUntyped(right)) {
            return;
        }
        checkTypes(call, left, types.apply(right), symbol, types);
    }

    private static void checkTypes(SqlCall call, SqlNode left, RelDataType rightType, String symbol, Function<SqlNode, RelDataType> types) {
        if (isUntyped(left)) {
            return;
        }
        RelDataType leftType = types.apply(left);
        if (mismatch(leftType, rightType)) {
            throw PostgresValidationError.at(call.getParserPosition(), SqlState.UNDEFINED_FUNCTION,
                    "operator does not exist: " + name(leftType) + " " + symbol + " " + name(rightType), NO_OPERATOR_HINT);
        }
    }

    /**
     * CASE's results (and COALESCE's arguments, which Calcite's validator has rewritten into a CASE)
     * in the order PostgreSQL's select_common_type reads them: the first typed one sets the type,
     * a later text replaces a character type (text is the preferred string type), and the first
     * that cannot match it is named, at its own position.
     */
    private static void checkCase(SqlCase caseCall, Function<SqlNode, RelDataType> types) {
        boolean coalesce = isRewrittenCoalesce(caseCall);
        List<SqlNode> results = new ArrayList<>();
        if (!coalesce && caseCall.getElseOperand() != null) {
            results.add(caseCall.getElseOperand());
        }
        for (SqlNode then : caseCall.getThenOperands()) {
            results.add(coalesce ? ((SqlCall) then).operand(0) : then);
        }
        if (coalesce && caseCall.getElseOperand() != null) {
            results.add(caseCall.getElseOperand());
        }
        List<RelDataType> resultTypes = new ArrayList<>(results.size());
        for (SqlNode result : results) {
            resultTypes.add(isUntyped(result) ? null : types.apply(result));
        }
        checkCommonType(coalesce ? "COALESCE" : "CASE", results, resultTypes);
    }

    /**
     * PostgreSQL's select_common_type over {@code expressions} of {@code types} (null: untyped) in its
     * order: the first typed one sets the type, a later one of the same category that the type
     * converts to implicitly replaces it (integer by numeric, varchar by text, date by timestamp),
     * and the first of another category is 42804 "{@code context} types A and B cannot be matched"
     * at its own position.
     */
    static void checkCommonType(String context, List<SqlNode> expressions, List<RelDataType> types) {
        RelDataType common = null;
        for (int index = 0; index < expressions.size(); index++) {
            RelDataType type = types.get(index);
            if (type == null || category(type) == NO_CATEGORY) {
                continue;
            }
            if (common == null) {
                common = type;
            } else if (category(common) != category(type)) {
                throw PostgresValidationError.at(expressions.get(index).getParserPosition(), SqlState.DATATYPE_MISMATCH,
                        context + " types " + name(common) + " and " + name(type) + " cannot be matched", null);
            } else if (rank(type) > rank(common)) {
                common = type;
            }
        }
    }

    /**
     * VALUES of several rows: each column's values, row by row, need a common type (42804 "VALUES
     * types integer and date cannot be matched"); {@code types} derives a value's type.
     */
    static void checkValues(SqlCall values, Function<SqlNode, RelDataType> types) {
        List<SqlNode> rows = values.getOperandList();
        if (rows.size() < 2 || !(rows.getFirst() instanceof SqlCall first) || first.getKind() != SqlKind.ROW) {
            return;
        }
        for (int column = 0; column < first.operandCount(); column++) {
            List<SqlNode> expressions = new ArrayList<>(rows.size());
            List<RelDataType> expressionTypes = new ArrayList<>(rows.size());
            for (SqlNode row : rows) {
                if (!(row instanceof SqlCall rowCall) || row.getKind() != SqlKind.ROW || rowCall.operandCount() != first.operandCount()) {
                    return; // Calcite reports rows of different lengths
                }
                SqlNode value = rowCall.operand(column);
                expressions.add(value);
                expressionTypes.add(isUntyped(value) ? null : types.apply(value));
            }
            checkCommonType("VALUES", expressions, expressionTypes);
        }
    }

    /**
     * UNION / INTERSECT / EXCEPT: each column of the left input and the same column of the right need
     * a common type (42804 "UNION types integer and text cannot be matched", at the right input's
     * column); {@code rowTypes} validates an input and gives its row type (null when it has none).
     * An input column written as a quoted literal, NULL or parameter takes the other's type.
     */
    static void checkSetOperation(SqlCall setOperation, Function<SqlNode, RelDataType> rowTypes) {
        SqlNode left = setOperation.operand(0);
        SqlNode right = setOperation.operand(1);
        RelDataType leftRow = rowTypes.apply(left);
        RelDataType rightRow = rowTypes.apply(right);
        if (leftRow == null || rightRow == null || leftRow.getFieldCount() != rightRow.getFieldCount()) {
            return;
        }
        String context = setOperation.getKind().name();
        for (int column = 0; column < leftRow.getFieldCount(); column++) {
            SqlNode leftColumn = columnExpression(left, column);
            SqlNode rightColumn = columnExpression(right, column);
            if (leftColumn != null && isUntyped(leftColumn) || rightColumn != null && isUntyped(rightColumn)) {
                continue;
            }
            RelDataType leftType = leftRow.getFieldList().get(column).getType();
            RelDataType rightType = rightRow.getFieldList().get(column).getType();
            if (mismatch(leftType, rightType)) {
                SqlParserPos position = (rightColumn != null ? rightColumn : right).getParserPosition();
                throw PostgresValidationError.at(position, SqlState.DATATYPE_MISMATCH,
                        context + " types " + name(leftType) + " and " + name(rightType) + " cannot be matched", null);
            }
        }
    }

    /** The expression of a set operation input's column: a SELECT's item, a one-row VALUES' value; null otherwise. */
    private static SqlNode columnExpression(SqlNode input, int column) {
        if (input instanceof SqlSelect select && column < select.getSelectList().size()) {
            SqlNode item = select.getSelectList().get(column);
            return item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        }
        if (input.getKind() == SqlKind.VALUES && ((SqlCall) input).operandCount() == 1
                && ((SqlCall) input).operand(0) instanceof SqlCall row && column < row.operandCount()) {
            return row.operand(column);
        }
        return null;
    }

    /** No category Parallax checks: NULL, arrays, rows, anything not listed in {@link #category}. */
    private static final char NO_CATEGORY = 0;

    /** pg_type.typcategory of a Calcite type, or {@link #NO_CATEGORY}. */
    static char category(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> 'B';
            case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, FLOAT, DOUBLE -> 'N';
            case CHAR, VARCHAR -> 'S';
            case DATE, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 'D';
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH, INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE,
                 INTERVAL_DAY_SECOND, INTERVAL_HOUR, INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE,
                 INTERVAL_MINUTE_SECOND, INTERVAL_SECOND -> 'T';
            case BINARY, VARBINARY -> 'V';
            case UUID -> 'U';
            default -> NO_CATEGORY;
        };
    }

    /**
     * The order of implicit conversion inside a category (PostgreSQL converts smallint to integer to
     * bigint to numeric to real to double precision, character types to text, date to timestamp):
     * the common type is the highest.
     */
    private static int rank(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case TINYINT, SMALLINT -> 1;
            case INTEGER -> 2;
            case BIGINT -> 3;
            case DECIMAL -> 4;
            case REAL -> 5;
            case FLOAT, DOUBLE -> 6;
            case CHAR -> 1;
            case VARCHAR -> type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 3 : 2;
            case DATE -> 1;
            case TIMESTAMP -> 2;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 3;
            default -> 0;
        };
    }

    /** Whether no operator compares a {@code left} with a {@code right}: both have a category, and they differ. */
    private static boolean mismatch(RelDataType left, RelDataType right) {
        char leftCategory = category(left);
        char rightCategory = category(right);
        return leftCategory != NO_CATEGORY && rightCategory != NO_CATEGORY && leftCategory != rightCategory;
    }

    /**
     * Calcite's SqlCoalesceFunction.rewriteCall turns coalesce(a, b, c) into CASE WHEN a IS NOT NULL
     * THEN CAST_NOT_NULL(a) WHEN b IS NOT NULL THEN CAST_NOT_NULL(b) ELSE c END, every IS NOT NULL at
     * the call's own position; a CASE written so starts at CASE, its conditions elsewhere.
     */
    private static boolean isRewrittenCoalesce(SqlCase caseCall) {
        SqlParserPos position = caseCall.getParserPosition();
        List<SqlNode> whens = caseCall.getWhenOperands().getList();
        List<SqlNode> thens = caseCall.getThenOperands().getList();
        if (whens.isEmpty() || whens.size() != thens.size()) {
            return false;
        }
        for (int index = 0; index < whens.size(); index++) {
            if (!(whens.get(index) instanceof SqlCall when) || when.getKind() != SqlKind.IS_NOT_NULL
                    || !when.getParserPosition().equals(position) || !(thens.get(index) instanceof SqlCall then)
                    || then.getOperator() != SqlInternalOperators.CAST_NOT_NULL || then.operandCount() != 1
                    || !when.operand(0).equalsDeep(then.operand(0), Litmus.IGNORE)) {
                return false;
            }
        }
        return true;
    }

    /** A quoted literal, NULL or parameter: PostgreSQL gives it the type of what it meets. */
    private static boolean isUntyped(SqlNode node) {
        return node instanceof SqlCharStringLiteral || node instanceof SqlDynamicParam || SqlUtil.isNullLiteral(node, false);
    }

    private static boolean isUuid(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.UUID;
    }

    private static String name(RelDataType type) {
        return TypeMapping.toEngine(type).nameWithoutModifier();
    }

    /** PostgreSQL's operator for a comparison kind ({@code IS [NOT] DISTINCT FROM} is built on =), or null. */
    private static String symbol(SqlKind kind) {
        return switch (kind) {
            case EQUALS, IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> "=";
            case NOT_EQUALS -> "<>";
            case LESS_THAN -> "<";
            case LESS_THAN_OR_EQUAL -> "<=";
            case GREATER_THAN -> ">";
            case GREATER_THAN_OR_EQUAL -> ">=";
            default -> null;
        };
    }

    /** The operator of {@code x op ANY/ALL (array)} (ParallaxFunctions' pg_less_than_any and the like), or null. */
    private static String quantifiedArraySymbol(SqlBasicCall call) {
        if (!ParallaxFunctions.QUANTIFIED_COMPARISONS.contains(call.getOperator())) {
            return null;
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        String comparison = name.substring("pg_".length(), name.lastIndexOf('_'));
        return switch (comparison) {
            case "equal" -> "=";
            case "not_equal" -> "<>";
            case "less_than" -> "<";
            case "less_than_or_equal" -> "<=";
            case "greater_than" -> ">";
            case "greater_than_or_equal" -> ">=";
            default -> null;
        };
    }
}
