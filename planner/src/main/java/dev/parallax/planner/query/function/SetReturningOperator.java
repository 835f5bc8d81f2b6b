package dev.parallax.planner.query.function;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.apache.calcite.util.Static.RESOURCE;

/**
 * A set-returning function called in a select list ({@code SELECT generate_series(1, 3)}),
 * typed as the values it yields; the planner runs the Project that holds it as a ProjectSet.
 * Calcite knows table functions only in FROM, so the calls are given this operator before
 * validation (see {@code SetReturningCalls}) and never looked up by name: the operator types its
 * call itself, as PostgreSQL types generate_series and unnest.
 */
public final class SetReturningOperator extends SqlFunction {
    /**
     * {@code generate_series(start, stop[, step])} over integers: integer, or bigint when an argument
     * is; over timestamps with an interval step ({@link SeriesArguments}): timestamp.
     */
    public static final SetReturningOperator GENERATE_SERIES = new SetReturningOperator("generate_series");
    /** {@code unnest(array)}: the element type. */
    public static final SetReturningOperator UNNEST = new SetReturningOperator("unnest");
    /**
     * {@code regexp_split_to_table(text, pattern[, flags])}: text, the pieces of
     * {@code regexp_split_to_array} one per row (ProjectSetTranslator unnests that array).
     */
    public static final SetReturningOperator REGEXP_SPLIT_TO_TABLE = new SetReturningOperator("regexp_split_to_table");

    private SetReturningOperator(String name) {
        super(name, SqlKind.OTHER_FUNCTION, ReturnTypes.ARG0, SetReturningOperator::inferParameterTypes, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }

    /**
     * PostgreSQL resolves {@code generate_series($1, $2)} to the integer form: a parameter argument is
     * an integer; beside an interval step, or a date or timestamp start or stop, it is a timestamp
     * (or an interval in the step's place).
     */
    private static void inferParameterTypes(SqlCallBinding binding, RelDataType returnType, RelDataType[] operandTypes) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType integer = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.INTEGER), true);
        boolean timestamps = false;
        if (binding.getOperator() == GENERATE_SERIES && operandTypes.length == 3) {
            RelDataType unknown = binding.getValidator().getUnknownType();
            for (int index = 0; index < 3; index++) {
                RelDataType type = binding.getValidator().deriveType(binding.getScope(), binding.operand(index));
                timestamps |= !type.equals(unknown) && (SqlTypeUtil.isInterval(type) || SqlTypeUtil.isDatetime(type));
            }
        }
        for (int index = 0; index < operandTypes.length; index++) {
            if (binding.getOperator() == REGEXP_SPLIT_TO_TABLE) {
                operandTypes[index] = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.VARCHAR), true);
            } else if (binding.getOperator() != GENERATE_SERIES) {
                operandTypes[index] = factory.createUnknownType();
            } else if (timestamps) {
                operandTypes[index] = factory.createTypeWithNullability(index < 2 ? SeriesArguments.timestampType(factory, List.of())
                        : factory.createSqlIntervalType(new SqlIntervalQualifier(TimeUnit.DAY, TimeUnit.SECOND, SqlParserPos.ZERO)), true);
            } else {
                operandTypes[index] = integer;
            }
        }
    }

    /** The operator for a function named {@code name} (lower case), or null when it is no set-returning function Parallax runs in a select list. */
    public static SetReturningOperator named(String name) {
        return switch (name) {
            case "generate_series" -> GENERATE_SERIES;
            case "unnest" -> UNNEST;
            case "regexp_split_to_table" -> REGEXP_SPLIT_TO_TABLE;
            default -> null;
        };
    }

    @Override
    public boolean isDeterministic() {
        return false; // two equal calls are two sets of rows in lockstep, never one merged call
    }

    @Override
    public RelDataType deriveType(SqlValidator validator, SqlValidatorScope scope, SqlCall call) {
        RelDataTypeFactory factory = validator.getTypeFactory();
        List<RelDataType> types = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            types.add(validator.deriveType(scope, operand));
        }
        RelDataType result = this == GENERATE_SERIES ? seriesType(factory, call.getOperandList(), types)
                : this == REGEXP_SPLIT_TO_TABLE ? splitType(factory, types) : elementType(types);
        if (result == null) {
            throw validator.newValidationError(call, RESOURCE.validatorUnknownFunction(signature(types)));
        }
        return factory.createTypeWithNullability(result, true);
    }

    private static RelDataType seriesType(RelDataTypeFactory factory, List<SqlNode> operands, List<RelDataType> types) {
        if (types.size() < 2 || types.size() > 3) {
            return null;
        }
        if (SeriesArguments.isTimestampForm(operands, types)) {
            return SeriesArguments.timestampType(factory, types);
        }
        boolean bigint = false;
        for (RelDataType type : types) {
            SqlTypeName name = type.getSqlTypeName();
            // NULL: a NULL literal; UNKNOWN: a parameter not typed yet (inferParameterTypes makes it an integer).
            if (name != SqlTypeName.NULL && name != SqlTypeName.UNKNOWN && !SqlTypeFamily.INTEGER.getTypeNames().contains(name)) {
                return null;
            }
            bigint |= name == SqlTypeName.BIGINT;
        }
        return factory.createSqlType(bigint ? SqlTypeName.BIGINT : SqlTypeName.INTEGER);
    }

    private static RelDataType splitType(RelDataTypeFactory factory, List<RelDataType> types) {
        if (types.size() < 2 || types.size() > 3) {
            return null;
        }
        for (RelDataType type : types) {
            SqlTypeName name = type.getSqlTypeName();
            if (name != SqlTypeName.NULL && name != SqlTypeName.UNKNOWN && !SqlTypeFamily.CHARACTER.getTypeNames().contains(name)) {
                return null;
            }
        }
        return factory.createSqlType(SqlTypeName.VARCHAR);
    }

    private static RelDataType elementType(List<RelDataType> types) {
        if (types.size() != 1 || types.getFirst().getComponentType() == null) {
            return null;
        }
        return types.getFirst().getComponentType();
    }

    /** {@code name(<TYPE>, ...)}, the signature Calcite's unknown-function message carries (CalciteErrors reads it). */
    private String signature(List<RelDataType> types) {
        List<String> names = new ArrayList<>();
        for (RelDataType type : types) {
            names.add("<" + (type.getComponentType() != null ? type.getComponentType().getSqlTypeName().getName() + " ARRAY"
                    : type.getSqlTypeName().getName()).toUpperCase(Locale.ROOT) + ">");
        }
        return getName() + "(" + String.join(", ", names) + ")";
    }
}
