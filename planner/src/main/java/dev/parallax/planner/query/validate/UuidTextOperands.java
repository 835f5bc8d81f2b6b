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
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlInternalOperators;
import org.apache.calcite.sql.fun.SqlQuantifyOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * PostgreSQL 15's strictness about uuid beside a string: there is no operator between uuid and
 * text (or character varying, character), so {@code id = name} is 42883 "operator does not exist:
 * uuid = text", and no common type, so {@code coalesce(id, name)} is 42804 "COALESCE types uuid and
 * text cannot be matched"; nor are there min(uuid) / max(uuid). Only a quoted literal (of type
 * unknown until it meets the uuid), a NULL or a parameter takes the uuid's type. Calcite would
 * compare both as uuid ({@link UuidComparisonCoercion}, needed for the literal) or find char as the
 * common type, so the validator checks each call before Calcite types it.
 *
 * <p>Errors leave as a {@link CalciteContextException} at the offending node whose cause is the
 * PostgreSQL error, so the position maps to the original text as Calcite's own errors do.
 */
final class UuidTextOperands {
    private static final String NO_OPERATOR_HINT =
            "No operator matches the given name and argument types. You might need to add explicit type casts.";
    private static final String NO_FUNCTION_HINT =
            "No function matches the given name and argument types. You might need to add explicit type casts.";

    private UuidTextOperands() {
    }

    /** Throws PostgreSQL's error when {@code call} puts a uuid beside a typed string; {@code types} derives an operand's type. */
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
        if (isUuid(leftType) && SqlTypeUtil.isCharacter(rightType) || SqlTypeUtil.isCharacter(leftType) && isUuid(rightType)) {
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
        boolean hasUuid = false;
        boolean hasCharacter = false;
        List<RelDataType> resultTypes = new ArrayList<>(results.size());
        for (SqlNode result : results) {
            RelDataType type = isUntyped(result) ? null : types.apply(result);
            resultTypes.add(type);
            hasUuid |= type != null && isUuid(type);
            hasCharacter |= type != null && SqlTypeUtil.isCharacter(type);
        }
        if (!hasUuid || !hasCharacter) {
            return;
        }
        RelDataType common = null;
        for (int index = 0; index < results.size(); index++) {
            RelDataType type = resultTypes.get(index);
            if (type == null) {
                continue;
            }
            if (common == null) {
                common = type;
            } else if (isUuid(common) != isUuid(type) && (SqlTypeUtil.isCharacter(common) || SqlTypeUtil.isCharacter(type))) {
                throw PostgresValidationError.at(results.get(index).getParserPosition(), SqlState.DATATYPE_MISMATCH,
                        (coalesce ? "COALESCE" : "CASE") + " types " + name(common) + " and " + name(type) + " cannot be matched", null);
            } else if (SqlTypeUtil.isCharacter(common) && SqlTypeUtil.isCharacter(type) && name(type).equals("text")) {
                common = type;
            }
        }
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
