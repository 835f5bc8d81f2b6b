package dev.parallax.planner.query.function;

import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.schema.TypeMapping;
import dev.parallax.planner.query.validate.PostgresValidationError;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.type.SqlOperandCountRanges;
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's {@code extract(field FROM value)} and {@code date_part('field', value)} over dates,
 * timestamps and intervals. Since PostgreSQL 14 extract is numeric, with the scale PostgreSQL gives
 * each field: 6 for second and epoch (0 for a date's epoch), 3 for millisecond, 0 for every other
 * field ({@code extract(epoch from timestamp '2024-01-01 00:00:01.5')} is 1704067201.500000);
 * date_part stays double precision (1704067201.5) and reads a date as a timestamp. The dialect
 * rewrite writes extract as {@code pg_extract('field', value)} (Calcite's EXTRACT is a bigint and
 * knows no plural field names); both take the field as PostgreSQL's spellings ({@code years},
 * {@code msec}, {@code microseconds}) and run as the engine's EXTRACT of the field's one name.
 * Numerics have at most 18 digits in Parallax, so the result is numeric(18, scale) where
 * PostgreSQL's is numeric without a modifier.
 */
public final class ExtractFunctions {
    /** PostgreSQL's field spellings (its datetime token tables, names cut to 10 characters as it cuts them) to the engine's. */
    private static final Map<String, String> FIELDS = Map.ofEntries(
            Map.entry("c", "century"), Map.entry("cent", "century"), Map.entry("centuries", "century"), Map.entry("century", "century"),
            Map.entry("d", "day"), Map.entry("day", "day"), Map.entry("days", "day"),
            Map.entry("dec", "decade"), Map.entry("decade", "decade"), Map.entry("decades", "decade"), Map.entry("decs", "decade"),
            Map.entry("h", "hour"), Map.entry("hour", "hour"), Map.entry("hours", "hour"), Map.entry("hr", "hour"), Map.entry("hrs", "hour"),
            Map.entry("m", "minute"), Map.entry("min", "minute"), Map.entry("mins", "minute"), Map.entry("minute", "minute"),
            Map.entry("minutes", "minute"),
            Map.entry("microsecon", "microsecond"), Map.entry("us", "microsecond"), Map.entry("usec", "microsecond"),
            Map.entry("usecond", "microsecond"), Map.entry("useconds", "microsecond"), Map.entry("usecs", "microsecond"),
            Map.entry("mil", "millennium"), Map.entry("millennia", "millennium"), Map.entry("millennium", "millennium"),
            Map.entry("mils", "millennium"),
            Map.entry("millisecon", "millisecond"), Map.entry("ms", "millisecond"), Map.entry("msec", "millisecond"),
            Map.entry("msecond", "millisecond"), Map.entry("mseconds", "millisecond"), Map.entry("msecs", "millisecond"),
            Map.entry("mon", "month"), Map.entry("mons", "month"), Map.entry("month", "month"), Map.entry("months", "month"),
            Map.entry("qtr", "quarter"), Map.entry("quarter", "quarter"),
            Map.entry("s", "second"), Map.entry("sec", "second"), Map.entry("second", "second"), Map.entry("seconds", "second"),
            Map.entry("secs", "second"),
            Map.entry("w", "week"), Map.entry("week", "week"), Map.entry("weeks", "week"),
            Map.entry("y", "year"), Map.entry("year", "year"), Map.entry("years", "year"), Map.entry("yr", "year"), Map.entry("yrs", "year"),
            Map.entry("dow", "dow"), Map.entry("doy", "doy"), Map.entry("epoch", "epoch"), Map.entry("isodow", "isodow"),
            Map.entry("isoyear", "isoyear"));

    /** {@code pg_extract('field', value)}: numeric, named extract. */
    public static final SqlFunction EXTRACT = SqlBasicFunction.create("pg_extract", ExtractFunctions::extractType,
            new FieldAndValue("pg_catalog.extract"), SqlFunctionCategory.TIMEDATE);

    /** {@code date_part('field', value)}: double precision. */
    public static final SqlFunction DATE_PART = SqlBasicFunction.create("date_part", ExtractFunctions::datePartType,
            new FieldAndValue("date_part"), SqlFunctionCategory.TIMEDATE);

    private ExtractFunctions() {
    }

    /** The engine's name of a PostgreSQL field spelling; an unknown one as written (the engine refuses it with PostgreSQL's error). */
    public static String field(String written) {
        String lower = written.toLowerCase(Locale.ROOT);
        String known = FIELDS.get(lower.length() > 10 ? lower.substring(0, 10) : lower);
        return known != null ? known : lower;
    }

    /** The field of a call of either function: its first operand, a character literal. */
    public static String field(SqlOperatorBinding binding) {
        return field(binding.getOperandLiteralValue(0, String.class));
    }

    private static RelDataType extractType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType value = binding.getOperandType(1);
        int scale = switch (field(binding)) {
            case "second" -> 6;
            case "epoch" -> value.getSqlTypeName() == SqlTypeName.DATE ? 0 : 6;
            case "millisecond" -> 3;
            default -> 0;
        };
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DECIMAL, 18, scale), value.isNullable());
    }

    private static RelDataType datePartType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        return factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DOUBLE), binding.getOperandType(1).isNullable());
    }

    /**
     * A field written as a constant and a date, timestamp or interval (or an untyped NULL);
     * otherwise 42883 "function pg_catalog.extract(unknown, integer) does not exist" as PostgreSQL
     * resolves it, or 0A000 for a field computed per row, which Parallax does not take.
     */
    private record FieldAndValue(String postgresName) implements SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(SqlCallBinding binding, boolean throwOnFailure) {
            SqlNode field = binding.operand(0);
            RelDataType value = binding.getOperandType(1);
            boolean temporal = SqlTypeUtil.isDatetime(value) || SqlTypeUtil.isInterval(value) || value.getSqlTypeName() == SqlTypeName.NULL;
            if (temporal && field instanceof SqlCharStringLiteral) {
                return true;
            }
            if (!throwOnFailure) {
                return false;
            }
            if (temporal && SqlTypeUtil.inCharFamily(binding.getOperandType(0))) {
                throw PostgresValidationError.at(binding.getCall().getParserPosition(), SqlState.FEATURE_NOT_SUPPORTED,
                        postgresName + " of a field that is not a constant is not supported yet", null);
            }
            String fieldType = field instanceof SqlCharStringLiteral ? "unknown" : TypeMapping.toEngine(binding.getOperandType(0)).nameWithoutModifier();
            String valueType = value.getSqlTypeName() == SqlTypeName.NULL || binding.operand(1) instanceof SqlCharStringLiteral
                    ? "unknown" : TypeMapping.toEngine(value).nameWithoutModifier();
            throw PostgresValidationError.at(binding.getCall().getParserPosition(), SqlState.UNDEFINED_FUNCTION,
                    "function " + postgresName + "(" + fieldType + ", " + valueType + ") does not exist",
                    "No function matches the given name and argument types. You might need to add explicit type casts.");
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return SqlOperandCountRanges.of(2);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<CHARACTER>, <DATETIME>)";
        }
    }
}
