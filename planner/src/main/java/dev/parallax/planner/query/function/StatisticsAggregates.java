package dev.parallax.planner.query.function;

import dev.parallax.planner.query.schema.ParallaxTypeSystem;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * PostgreSQL's variance and standard deviation aggregates: stddev and stddev_samp, stddev_pop,
 * variance and var_samp, var_pop, typed as PostgreSQL types them: double precision for real and
 * double precision arguments, numeric for integer and numeric ones (with the scale of
 * {@link ParallaxTypeSystem#statisticType}). They replace Calcite's standard operators of the same
 * names and kinds, which type all six like avg, and stay aggregate calls of their own: no
 * convertlet expands them.
 */
public final class StatisticsAggregates {
    public static final SqlAggFunction STDDEV = new StatisticsAggregate("stddev", SqlKind.STDDEV_SAMP);
    public static final SqlAggFunction STDDEV_SAMP = new StatisticsAggregate("stddev_samp", SqlKind.STDDEV_SAMP);
    public static final SqlAggFunction STDDEV_POP = new StatisticsAggregate("stddev_pop", SqlKind.STDDEV_POP);
    public static final SqlAggFunction VARIANCE = new StatisticsAggregate("variance", SqlKind.VAR_SAMP);
    public static final SqlAggFunction VAR_SAMP = new StatisticsAggregate("var_samp", SqlKind.VAR_SAMP);
    public static final SqlAggFunction VAR_POP = new StatisticsAggregate("var_pop", SqlKind.VAR_POP);

    public static final List<SqlAggFunction> ALL = List.of(STDDEV, STDDEV_SAMP, STDDEV_POP, VARIANCE, VAR_SAMP, VAR_POP);

    private StatisticsAggregates() {
    }

    private static final class StatisticsAggregate extends SqlAggFunction {
        StatisticsAggregate(String name, SqlKind kind) {
            super(name, null, kind, StatisticsAggregate::resultType, null, new NumericArgument(), SqlFunctionCategory.NUMERIC,
                    false, false, org.apache.calcite.util.Optionality.FORBIDDEN);
        }

        /** NULL for no row (and for one row in the sample forms), so always nullable. */
        private static RelDataType resultType(SqlOperatorBinding binding) {
            RelDataTypeFactory factory = binding.getTypeFactory();
            RelDataType argument = binding.getOperandType(0);
            boolean variance = binding.getOperator().getKind() == SqlKind.VAR_SAMP || binding.getOperator().getKind() == SqlKind.VAR_POP;
            RelDataType type = switch (argument.getSqlTypeName()) {
                case FLOAT, REAL, DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
                default -> ParallaxTypeSystem.statisticType(factory, argument, variance);
            };
            return factory.createTypeWithNullability(type, true);
        }
    }

    /**
     * One numeric argument, or a quoted literal or NULL (PostgreSQL's unknown, which resolves to a
     * number); an argument of another type is 42883 "function stddev(text) does not exist", as in
     * PostgreSQL, not a cast of its values to numeric.
     */
    private static final class NumericArgument implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            SqlNode operand = binding.operand(0);
            if (SqlTypeUtil.isNumeric(binding.getOperandType(0)) || operand instanceof SqlCharStringLiteral
                    || SqlUtil.isNullLiteral(operand, false)) {
                return OperandTypes.NUMERIC.checkOperandTypes(binding, throwOnFailure);
            }
            if (throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return false;
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<NUMERIC>)";
        }
    }
}
