package dev.parallax.planner.query.function;

import dev.parallax.engine.expr.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;

import java.util.Map;

/**
 * PostgreSQL's string functions beyond Calcite's standard ones and the older ones of
 * {@link ParallaxFunctions}: left, right, reverse, initcap, substr, btrim/ltrim/rtrim, strpos,
 * ascii, chr, starts_with, translate, octet_length, bit_length, quote_ident, quote_literal,
 * quote_nullable, format, string_to_array, regexp_split_to_array and to_hex, each typed as
 * PostgreSQL types it, and the engine function each one is.
 */
public final class StringFunctions {
    private static final SqlReturnTypeInference TEXT = ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE);
    private static final SqlReturnTypeInference INTEGER = ReturnTypes.INTEGER_NULLABLE;

    public static final SqlFunction LEFT = function("left", TEXT, OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER));
    public static final SqlFunction RIGHT = function("right", TEXT, OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER));
    public static final SqlFunction REVERSE = function("reverse", TEXT, OperandTypes.CHARACTER);
    public static final SqlFunction INITCAP = function("initcap", TEXT, OperandTypes.CHARACTER);
    /** PostgreSQL's substr(text, from[, count]): substring's function form. */
    public static final SqlFunction SUBSTR = function("substr", TEXT,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER)));
    public static final SqlFunction BTRIM = trimFunction("btrim");
    public static final SqlFunction LTRIM = trimFunction("ltrim");
    public static final SqlFunction RTRIM = trimFunction("rtrim");
    public static final SqlFunction STRPOS = function("strpos", INTEGER, OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));
    public static final SqlFunction ASCII = function("ascii", INTEGER, OperandTypes.CHARACTER);
    public static final SqlFunction CHR = function("chr", TEXT, OperandTypes.INTEGER);
    public static final SqlFunction STARTS_WITH = function("starts_with", ReturnTypes.BOOLEAN_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER));
    /**
     * translate(text, from, to): Calcite's parser reads the call as its own TRANSLATE3 operator
     * (Oracle's translate, the same function), named translate3; QueryPlanner labels it translate.
     */
    public static final SqlFunction TRANSLATE = org.apache.calcite.sql.fun.SqlLibraryOperators.TRANSLATE3;
    public static final SqlFunction OCTET_LENGTH = function("octet_length", INTEGER, OperandTypes.CHARACTER);
    public static final SqlFunction BIT_LENGTH = function("bit_length", INTEGER, OperandTypes.CHARACTER);
    public static final SqlFunction QUOTE_IDENT = function("quote_ident", TEXT, OperandTypes.CHARACTER);
    /** quote_literal(anyelement): the value's output form quoted; NULL for NULL. */
    public static final SqlFunction QUOTE_LITERAL = SqlBasicFunction.create("quote_literal", TEXT, OperandTypes.ANY,
            SqlFunctionCategory.STRING).withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    /** quote_nullable(anyelement): as quote_literal, but the text NULL for NULL, so never NULL itself. */
    public static final SqlFunction QUOTE_NULLABLE = SqlBasicFunction.create("quote_nullable", ReturnTypes.explicit(SqlTypeName.VARCHAR),
            OperandTypes.ANY, SqlFunctionCategory.STRING).withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    /** format(format text, value "any", ...): NULL only for a NULL format. */
    public static final SqlFunction FORMAT = SqlBasicFunction.create("format", TEXT, new FormatArguments(),
            SqlFunctionCategory.STRING).withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    /** string_to_array(text, delimiter[, null text]): text[], NULL for a NULL text only. */
    public static final SqlFunction STRING_TO_ARRAY = function("string_to_array", StringFunctions::textArray,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
    public static final SqlFunction REGEXP_SPLIT_TO_ARRAY = function("regexp_split_to_array", StringFunctions::textArray,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
    /** to_hex(integer or bigint): the two's complement of the argument's own width. */
    public static final SqlFunction TO_HEX = function("to_hex", TEXT, OperandTypes.INTEGER);

    /** The functions above, for the validator's operator table. */
    public static final SqlOperatorTable TABLE = SqlOperatorTables.of(LEFT, RIGHT, REVERSE, INITCAP, SUBSTR, BTRIM, LTRIM, RTRIM,
            STRPOS, ASCII, CHR, STARTS_WITH, TRANSLATE, OCTET_LENGTH, BIT_LENGTH, QUOTE_IDENT, QUOTE_LITERAL, QUOTE_NULLABLE,
            FORMAT, STRING_TO_ARRAY, REGEXP_SPLIT_TO_ARRAY, TO_HEX);

    private static final Map<SqlOperator, Function> ENGINE_FUNCTIONS = Map.ofEntries(
            Map.entry(LEFT, Function.LEFT), Map.entry(RIGHT, Function.RIGHT), Map.entry(REVERSE, Function.REVERSE),
            Map.entry(INITCAP, Function.INITCAP), Map.entry(SUBSTR, Function.SUBSTRING), Map.entry(BTRIM, Function.BTRIM),
            Map.entry(LTRIM, Function.LTRIM), Map.entry(RTRIM, Function.RTRIM), Map.entry(STRPOS, Function.STRPOS),
            Map.entry(ASCII, Function.ASCII), Map.entry(CHR, Function.CHR), Map.entry(STARTS_WITH, Function.STARTS_WITH),
            Map.entry(TRANSLATE, Function.TRANSLATE), Map.entry(OCTET_LENGTH, Function.OCTET_LENGTH),
            Map.entry(BIT_LENGTH, Function.BIT_LENGTH), Map.entry(QUOTE_IDENT, Function.QUOTE_IDENT),
            Map.entry(QUOTE_LITERAL, Function.QUOTE_LITERAL), Map.entry(QUOTE_NULLABLE, Function.QUOTE_NULLABLE),
            Map.entry(FORMAT, Function.FORMAT), Map.entry(STRING_TO_ARRAY, Function.STRING_TO_ARRAY),
            Map.entry(REGEXP_SPLIT_TO_ARRAY, Function.REGEXP_SPLIT_TO_ARRAY), Map.entry(TO_HEX, Function.TO_HEX),
            Map.entry(org.apache.calcite.sql.fun.SqlStdOperatorTable.OVERLAY, Function.OVERLAY));

    private StringFunctions() {
    }

    /** The engine function {@code operator} is, or null when it is none of these. */
    public static Function engineFunction(SqlOperator operator) {
        return ENGINE_FUNCTIONS.get(operator);
    }

    private static SqlFunction function(String name, SqlReturnTypeInference returnType, SqlOperandTypeChecker operands) {
        return SqlBasicFunction.create(name, returnType, operands, SqlFunctionCategory.STRING);
    }

    private static SqlFunction trimFunction(String name) {
        return function(name, TEXT, OperandTypes.or(OperandTypes.CHARACTER,
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
    }

    private static RelDataType textArray(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType element = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.VARCHAR), true);
        return factory.createTypeWithNullability(factory.createArrayType(element, -1), true);
    }

    /** format's arguments: a string (or NULL) first, then any number of values of any type. */
    private static final class FormatArguments implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            RelDataType first = binding.getOperandType(0);
            boolean valid = SqlTypeUtil.inCharFamily(first) || first.getSqlTypeName() == SqlTypeName.NULL;
            if (!valid && throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return valid;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<CHARACTER>, ...)";
        }
    }
}
