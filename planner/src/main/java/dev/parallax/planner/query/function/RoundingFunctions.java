package dev.parallax.planner.query.function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;

/**
 * PostgreSQL's {@code round(x[, n])} and {@code trunc(x[, n])}, typed as PostgreSQL types their
 * numeric forms: the result has {@code max(n, 0)} fraction digits ({@code round(1234.5, -2)} is
 * 1200, {@code round(1, 2)} is 1.00, {@code round(2.5)} is 3), where Calcite's round keeps the
 * argument's type. Parallax's numeric has a scale per expression, so this holds for a constant n;
 * with n from a column or parameter the argument's type is kept (integers and decimals), as before.
 * Integers without n stay integers, and real and double precision arguments keep their type.
 */
public final class RoundingFunctions {
    public static final SqlFunction ROUND = function("round");
    public static final SqlFunction TRUNC = function("trunc");

    private RoundingFunctions() {
    }

    private static SqlFunction function(String name) {
        return SqlBasicFunction.create(name, ((org.apache.calcite.sql.type.SqlReturnTypeInference) RoundingFunctions::resultType)
                        .andThen(SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_INTEGER), SqlFunctionCategory.NUMERIC);
    }

    private static RelDataType resultType(SqlOperatorBinding binding) {
        RelDataType argument = binding.getOperandType(0);
        boolean exact = SqlTypeUtil.isExactNumeric(argument);
        if (!exact) {
            return argument;
        }
        boolean decimal = argument.getSqlTypeName() == SqlTypeName.DECIMAL;
        Integer digits = binding.getOperandCount() == 1 ? Integer.valueOf(0) : constantDigits(binding);
        if (digits == null || !decimal && binding.getOperandCount() == 1) {
            return argument;
        }
        RelDataTypeFactory factory = binding.getTypeFactory();
        int maximum = factory.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL);
        int scale = Math.min(maximum, Math.max(0, digits));
        int integerDigits = decimal ? argument.getPrecision() - argument.getScale() : maximum;
        // One more integer digit for a rounding that carries (99.95 to 100.0).
        int precision = Math.max(1, Math.min(maximum, integerDigits + 1 + scale));
        return factory.createSqlType(SqlTypeName.DECIMAL, precision, Math.min(scale, precision));
    }

    /** The second argument's value when it is a constant (a literal, also negative), else null. */
    private static Integer constantDigits(SqlOperatorBinding binding) {
        if (!binding.isOperandLiteral(1, false)) {
            return null;
        }
        BigDecimal value = binding.getOperandLiteralValue(1, BigDecimal.class);
        return value == null ? null : value.intValue();
    }
}
