package dev.parallax.planner.query.function;

import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.schema.TypeMapping;
import dev.parallax.planner.query.validate.PostgresValidationError;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.Optionality;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's ordered-set aggregates as the dialect rewrite writes them: {@code mode() WITHIN
 * GROUP (ORDER BY x [DESC])} is {@code pg_mode(pg_collect(x), descending)},
 * {@code percentile_cont(f) WITHIN GROUP (ORDER BY x)} is {@code pg_percentile_cont(pg_collect(x),
 * f, descending)} and percentile_disc likewise. pg_collect gathers a group's non-NULL values in no
 * particular order, so it aggregates partially in parallel plans (array_agg keeps its input's order
 * and stays serial); the final function sorts them, as PostgreSQL's final functions read their
 * sorted input. Sorting in the final function rather than with array_agg's ORDER BY also lets
 * several ordered-set aggregates with different sort keys share a query. Any other use of the three
 * names (no WITHIN GROUP, another number of arguments or sort keys) becomes {@code
 * pg_ordered_set_call('name', within group written, arguments...)}, which fails in validation as
 * PostgreSQL does, once the arguments' types are known.
 */
public final class OrderedSetAggregates {
    private static final String NO_FUNCTION_HINT = "No function matches the given name and argument types. You might need to add explicit type casts.";

    /** {@code pg_collect(value)}: the group's non-NULL values as an array in no particular order, NULL for none. */
    public static final SqlAggFunction COLLECT = new SqlAggFunction("pg_collect", null, SqlKind.OTHER_FUNCTION,
            OrderedSetAggregates::collectedType, null, OperandTypes.ANY, SqlFunctionCategory.SYSTEM, false, false,
            Optionality.FORBIDDEN) {
    };

    /**
     * {@code pg_mode(values, descending)}: the most frequent value (of equally frequent ones the first
     * in the sort order), NULL when there is none; named mode, as PostgreSQL names the aggregate's column.
     */
    public static final SqlFunction MODE = SqlBasicFunction.create("pg_mode",
            binding -> binding.getTypeFactory().createTypeWithNullability(binding.getOperandType(0).getComponentType(), true),
            OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.BOOLEAN), SqlFunctionCategory.SYSTEM);

    /** {@code pg_percentile_cont(values, fraction or fractions, descending)}: double precision or interval (arrays of them). */
    public static final SqlFunction PERCENTILE_CONT = SqlBasicFunction.create("pg_percentile_cont",
            binding -> percentileType(binding, true), new PercentileOperands(true), SqlFunctionCategory.SYSTEM);

    /** {@code pg_percentile_disc(values, fraction or fractions, descending)}: the values' type (an array of it). */
    public static final SqlFunction PERCENTILE_DISC = SqlBasicFunction.create("pg_percentile_disc",
            binding -> percentileType(binding, false), new PercentileOperands(false), SqlFunctionCategory.SYSTEM);

    /** {@code pg_ordered_set_call('name', within group, arguments...)}: a call PostgreSQL refuses; always fails in validation. */
    public static final SqlFunction ORDERED_SET_CALL = SqlBasicFunction.create("pg_ordered_set_call",
            binding -> binding.getTypeFactory().createSqlType(SqlTypeName.NULL), new RefusedCall(), SqlFunctionCategory.SYSTEM);

    public static final List<SqlOperator> ALL = List.of(COLLECT, MODE, PERCENTILE_CONT, PERCENTILE_DISC, ORDERED_SET_CALL);

    private OrderedSetAggregates() {
    }

    /** The name PostgreSQL gives the column of a final function's call (mode, percentile_cont, percentile_disc), or null. */
    public static String columnName(SqlOperator operator) {
        if (operator == MODE || operator == PERCENTILE_CONT || operator == PERCENTILE_DISC) {
            return operator.getName().substring("pg_".length());
        }
        return null;
    }

    private static RelDataType collectedType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType element = factory.createTypeWithNullability(binding.getOperandType(0), true);
        return factory.createTypeWithNullability(factory.createArrayType(element, -1), true);
    }

    private static RelDataType percentileType(SqlOperatorBinding binding, boolean continuous) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType element = binding.getOperandType(0).getComponentType();
        RelDataType value = continuous && !SqlTypeUtil.isInterval(element) ? factory.createSqlType(SqlTypeName.DOUBLE) : element;
        value = factory.createTypeWithNullability(value, true);
        return binding.getOperandType(1).getSqlTypeName() == SqlTypeName.ARRAY
                ? factory.createTypeWithNullability(factory.createArrayType(value, -1), true) : value;
    }

    /** Whether a direct argument converts to PostgreSQL's float8 (a number, an untyped literal or NULL). */
    private static boolean isFraction(RelDataType type, SqlNode operand) {
        return SqlTypeUtil.isNumeric(type) || type.getSqlTypeName() == SqlTypeName.NULL || operand instanceof SqlCharStringLiteral;
    }

    /** Whether a direct argument converts to float8[] (an array of numbers). */
    private static boolean isFractionArray(RelDataType type) {
        RelDataType component = type.getComponentType();
        return type.getSqlTypeName() == SqlTypeName.ARRAY && component != null
                && (SqlTypeUtil.isNumeric(component) || component.getSqlTypeName() == SqlTypeName.NULL);
    }

    /** A sort key percentile_cont interpolates: a number (cast to float8) or an interval. */
    private static boolean isInterpolable(RelDataType type) {
        return SqlTypeUtil.isNumeric(type) || SqlTypeUtil.isInterval(type) || type.getSqlTypeName() == SqlTypeName.NULL;
    }

    /** The PostgreSQL name of an argument's type in "function f(...) does not exist": an untyped literal is unknown. */
    private static String typeName(RelDataType type, SqlNode operand) {
        if (operand instanceof SqlCharStringLiteral || type.getSqlTypeName() == SqlTypeName.NULL) {
            return "unknown";
        }
        return TypeMapping.toEngine(type).nameWithoutModifier();
    }

    private static RuntimeException undefinedFunction(SqlCallBinding binding, String name, List<String> types) {
        return PostgresValidationError.at(binding.getCall().getParserPosition(), SqlState.UNDEFINED_FUNCTION,
                "function " + name + "(" + String.join(", ", types) + ") does not exist", NO_FUNCTION_HINT);
    }

    /**
     * pg_percentile_*: the fraction converts to float8 or float8[], and percentile_cont's sort key is
     * a number or an interval; otherwise 42883 "function percentile_cont(numeric, text) does not
     * exist", the direct argument's type first, as PostgreSQL names the aggregate's signature.
     */
    private record PercentileOperands(boolean continuous) implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            RelDataType values = binding.getOperandType(0);
            RelDataType fraction = binding.getOperandType(1);
            RelDataType element = values.getComponentType();
            boolean fractionFits = isFraction(fraction, binding.operand(1)) || isFractionArray(fraction);
            if (element != null && fractionFits && (!continuous || isInterpolable(element))) {
                return true;
            }
            if (!throwOnFailure) {
                return false;
            }
            SqlNode collected = binding.operand(0);
            SqlNode sortKey = collected instanceof org.apache.calcite.sql.SqlCall call && call.operandCount() > 0 ? call.operand(0) : collected;
            throw undefinedFunction(binding, continuous ? "percentile_cont" : "percentile_disc",
                    List.of(typeName(fraction, binding.operand(1)), element == null ? typeName(values, collected) : typeName(element, sortKey)));
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(3);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<ARRAY>, <NUMERIC>, <BOOLEAN>)";
        }
    }

    /**
     * pg_ordered_set_call('name', within group, arguments...): with WITHIN GROUP written, no function
     * of that name takes these arguments (42883, the direct arguments' types then the sort keys');
     * without it, 42809 "WITHIN GROUP is required for ordered-set aggregate mode" when the arguments
     * fit the aggregate's signature (mode(anyelement), percentile_cont(float8, float8 or interval),
     * percentile_disc(float8, anyelement), the fraction also float8[]), else 42883 as PostgreSQL's
     * function lookup finds no function.
     */
    private static final class RefusedCall implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            String name = ((SqlLiteral) binding.operand(0)).getValueAs(String.class).toLowerCase(Locale.ROOT);
            boolean withinGroup = ((SqlLiteral) binding.operand(1)).booleanValue();
            List<String> types = new ArrayList<>();
            for (int operand = 2; operand < binding.getOperandCount(); operand++) {
                types.add(typeName(binding.getOperandType(operand), binding.operand(operand)));
            }
            if (!withinGroup && fitsSignature(binding, name)) {
                throw PostgresValidationError.at(binding.getCall().getParserPosition(), SqlState.WRONG_OBJECT_TYPE,
                        "WITHIN GROUP is required for ordered-set aggregate " + name, null);
            }
            throw undefinedFunction(binding, name, types);
        }

        private static boolean fitsSignature(SqlCallBinding binding, String name) {
            int arguments = binding.getOperandCount() - 2;
            if (name.equals("mode")) {
                return arguments == 1;
            }
            if (arguments != 2) {
                return false;
            }
            RelDataType fraction = binding.getOperandType(2);
            RelDataType value = binding.getOperandType(3);
            boolean fractionFits = isFraction(fraction, binding.operand(2)) || isFractionArray(fraction);
            return fractionFits && (name.equals("percentile_disc") || isInterpolable(value) || binding.operand(3) instanceof SqlCharStringLiteral);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.from(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<CHARACTER>, <BOOLEAN>, ...)";
        }
    }
}
