package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Function;
import dev.parallax.planner.query.function.CatalogFunctions;
import dev.parallax.planner.query.function.DateArithmetic;
import dev.parallax.planner.query.function.OrderedSetAggregates;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.function.StringFunctions;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/** Which engine function a Calcite call is; null when the engine has none. */
final class FunctionMapping {
    private FunctionMapping() {
    }

    static Function function(RexCall call) {
        SqlOperator operator = call.getOperator();
        if (operator == ParallaxFunctions.BIT_AND || operator == ParallaxFunctions.BITAND
                || operator == SqlStdOperatorTable.BITAND_OPERATOR) {
            return Function.BIT_AND;
        }
        if (operator == ParallaxFunctions.BIT_OR) {
            return Function.BIT_OR;
        }
        if (operator == ParallaxFunctions.SQUARE_ROOT) {
            return Function.SQRT;
        }
        if (operator == ParallaxFunctions.POWER_OPERATOR) {
            return Function.POWER;
        }
        if (operator == ParallaxFunctions.CUBE_ROOT) {
            return Function.CBRT;
        }
        if (operator == ParallaxFunctions.ABSOLUTE_VALUE) {
            return Function.ABS;
        }
        if (operator == ParallaxFunctions.SHIFT_LEFT) {
            return Function.SHIFT_LEFT;
        }
        if (operator == ParallaxFunctions.SHIFT_RIGHT) {
            return Function.SHIFT_RIGHT;
        }
        if (operator == ParallaxFunctions.BIT_XOR) {
            return Function.BIT_XOR;
        }
        if (operator == ParallaxFunctions.BIT_NOT) {
            return Function.BIT_NOT;
        }
        if (operator == ParallaxFunctions.LOG) {
            return call.getOperands().size() == 1 ? Function.LOG10 : Function.LOG;
        }
        if (operator == DateArithmetic.DATE_PLUS_DAYS) {
            return Function.ADD;
        }
        if (operator == DateArithmetic.DATE_MINUS) {
            return Function.SUBTRACT;
        }
        if (operator == ParallaxFunctions.ARRAY_LENGTH) {
            return Function.ARRAY_LENGTH;
        }
        if (operator == ParallaxFunctions.ARRAY_LOWER) {
            return Function.ARRAY_LOWER;
        }
        if (operator == ParallaxFunctions.ARRAY_UPPER) {
            return Function.ARRAY_UPPER;
        }
        if (operator == ParallaxFunctions.ARRAY_TO_STRING) {
            return Function.ARRAY_TO_STRING;
        }
        if (operator == ParallaxFunctions.SCALAR_SUBQUERY_VALUE) {
            return Function.SCALAR_SUBQUERY_VALUE;
        }
        if (operator == OrderedSetAggregates.MODE) {
            return Function.MODE;
        }
        if (operator == OrderedSetAggregates.PERCENTILE_CONT) {
            return Function.PERCENTILE_CONT;
        }
        if (operator == OrderedSetAggregates.PERCENTILE_DISC) {
            return Function.PERCENTILE_DISC;
        }
        if (operator == ParallaxFunctions.STRING_AGGREGATE) {
            return Function.STRING_AGG;
        }
        if (operator == ParallaxFunctions.GREATEST) {
            return Function.GREATEST;
        }
        if (operator == ParallaxFunctions.LEAST) {
            return Function.LEAST;
        }
        if (operator == ParallaxFunctions.TO_CHAR) {
            return Function.TO_CHAR;
        }
        if (operator == ParallaxFunctions.MAKE_DATE) {
            return Function.MAKE_DATE;
        }
        if (operator == ParallaxFunctions.MAKE_TIMESTAMP) {
            return Function.MAKE_TIMESTAMP;
        }
        if (operator == ParallaxFunctions.TO_TIMESTAMP) {
            return Function.TO_TIMESTAMP;
        }
        if (operator == ParallaxFunctions.TO_DATE) {
            return Function.TO_DATE;
        }
        if (operator == ParallaxFunctions.REGEXP_REPLACE) {
            return Function.REGEXP_REPLACE;
        }
        Function string = StringFunctions.engineFunction(operator);
        if (string != null) {
            return string;
        }
        if (operator == ParallaxFunctions.SPLIT_PART) {
            return Function.SPLIT_PART;
        }
        if (operator == ParallaxFunctions.MD5) {
            return Function.MD5;
        }
        if (operator == ParallaxFunctions.DATE_TRUNC) {
            return Function.DATE_TRUNC;
        }
        if (operator == ParallaxFunctions.NOW || operator == ParallaxFunctions.TRANSACTION_TIMESTAMP) {
            return Function.NOW;
        }
        if (operator == ParallaxFunctions.STATEMENT_TIMESTAMP) {
            return Function.STATEMENT_TIMESTAMP;
        }
        if (operator == ParallaxFunctions.TIMEZONE) {
            return Function.TIMEZONE;
        }
        if (operator == ParallaxFunctions.CLOCK_TIMESTAMP) {
            return Function.CLOCK_TIMESTAMP;
        }
        if (operator == ParallaxFunctions.RANDOM) {
            return Function.RANDOM;
        }
        if (operator == ParallaxFunctions.GEN_RANDOM_UUID) {
            return Function.GEN_RANDOM_UUID;
        }
        if (operator == ParallaxFunctions.NEXTVAL) {
            return Function.NEXTVAL;
        }
        if (operator == ParallaxFunctions.CURRVAL) {
            return Function.CURRVAL;
        }
        if (operator == ParallaxFunctions.SETVAL) {
            return Function.SETVAL;
        }
        if (operator == ParallaxFunctions.LASTVAL) {
            return Function.LASTVAL;
        }
        if (operator == CatalogFunctions.REGEX_MATCH) {
            return Function.REGEX_MATCH;
        }
        if (operator == CatalogFunctions.NOT_REGEX_MATCH) {
            return Function.NOT_REGEX_MATCH;
        }
        if (operator == CatalogFunctions.REGEX_MATCH_INSENSITIVE) {
            return Function.REGEX_MATCH_INSENSITIVE;
        }
        if (operator == CatalogFunctions.NOT_REGEX_MATCH_INSENSITIVE) {
            return Function.NOT_REGEX_MATCH_INSENSITIVE;
        }
        return switch (call.getKind()) {
            case PLUS -> Function.ADD;
            case MINUS -> Function.SUBTRACT;
            case TIMES -> Function.MULTIPLY;
            case DIVIDE -> Function.DIVIDE;
            case MOD -> Function.MODULO;
            case MINUS_PREFIX -> Function.NEGATE;
            case EQUALS -> Function.EQUAL;
            case NOT_EQUALS -> Function.NOT_EQUAL;
            case LESS_THAN -> Function.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> Function.LESS_THAN_OR_EQUAL;
            case GREATER_THAN -> Function.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL -> Function.GREATER_THAN_OR_EQUAL;
            case IS_DISTINCT_FROM -> Function.IS_DISTINCT_FROM;
            case IS_NOT_DISTINCT_FROM -> Function.IS_NOT_DISTINCT_FROM;
            case AND -> Function.AND;
            case OR -> Function.OR;
            case NOT -> Function.NOT;
            case IS_NULL -> Function.IS_NULL;
            case IS_NOT_NULL -> Function.IS_NOT_NULL;
            case IS_TRUE -> Function.IS_TRUE;
            case IS_NOT_TRUE -> Function.IS_NOT_TRUE;
            case IS_FALSE -> Function.IS_FALSE;
            case IS_NOT_FALSE -> Function.IS_NOT_FALSE;
            case LIKE -> call.getOperator().getName().equalsIgnoreCase("ILIKE") ? Function.ILIKE : Function.LIKE;
            case SIMILAR -> ((org.apache.calcite.sql.fun.SqlLikeOperator) operator).isNegated()
                    ? Function.NOT_SIMILAR_TO : Function.SIMILAR_TO;
            case COALESCE -> Function.COALESCE;
            case NULLIF -> Function.NULLIF;
            case FLOOR -> Function.FLOOR;
            case CEIL -> Function.CEIL;
            case TRIM -> Function.TRIM;
            case POSITION -> Function.POSITION;
            default -> byName(operator);
        };
    }

    private static Function byName(SqlOperator operator) {
        if (operator == SqlStdOperatorTable.CONCAT) {
            return Function.CONCAT;
        }
        return switch (operator.getName().toUpperCase(java.util.Locale.ROOT)) {
            case "ABS" -> Function.ABS;
            case "UPPER" -> Function.UPPER;
            case "LOWER" -> Function.LOWER;
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> Function.CHAR_LENGTH;
            case "LENGTH" -> Function.LENGTH;
            case "SUBSTRING" -> Function.SUBSTRING;
            case "ROUND" -> Function.ROUND;
            case "TRUNC" -> Function.TRUNC;
            case "SQRT" -> Function.SQRT;
            case "POWER" -> Function.POWER;
            case "SIGN" -> Function.SIGN;
            case "CBRT" -> Function.CBRT;
            case "EXP" -> Function.EXP;
            case "LN" -> Function.LN;
            case "LOG10" -> Function.LOG10;
            case "DEGREES" -> Function.DEGREES;
            case "RADIANS" -> Function.RADIANS;
            case "SIN" -> Function.SIN;
            case "COS" -> Function.COS;
            case "TAN" -> Function.TAN;
            case "COT" -> Function.COT;
            case "ASIN" -> Function.ASIN;
            case "ACOS" -> Function.ACOS;
            case "ATAN" -> Function.ATAN;
            case "ATAN2" -> Function.ATAN2;
            case "DIV" -> Function.DIV;
            case "GCD" -> Function.GCD;
            case "LCM" -> Function.LCM;
            case "WIDTH_BUCKET" -> Function.WIDTH_BUCKET;
            case "REPLACE" -> Function.REPLACE;
            case "REPEAT" -> Function.REPEAT;
            case "CARDINALITY" -> Function.CARDINALITY;
            case "LPAD" -> Function.LPAD;
            case "CONCAT" -> Function.CONCAT_VALUES;
            case "CONCAT_WS" -> Function.CONCAT_WS;
            case "RPAD" -> Function.RPAD;
            default -> null;
        };
    }
}
