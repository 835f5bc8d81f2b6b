package dev.parallax.planner.query.function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import java.util.List;

/**
 * The PostgreSQL functions Parallax adds to Calcite's standard operators, and the operator table
 * the validator uses. Function names resolve case-insensitively (PostgreSQL folds them like any
 * identifier), while table and column names stay case-sensitive after folding.
 */
public final class ParallaxFunctions {
    /** {@code B'0101'} after the rewrite: BINARY(n) with n the number of bits. */
    public static final SqlFunction BIT_STRING = SqlBasicFunction.create("pg_bit_string",
            ParallaxFunctions::bitStringType, OperandTypes.CHARACTER, SqlFunctionCategory.SYSTEM);
    /** An integer literal of more than 18 digits after the rewrite: a bigint when it fits one. */
    public static final SqlFunction BIGINT_LITERAL = SqlBasicFunction.create("pg_bigint_literal",
            ReturnTypes.BIGINT, OperandTypes.CHARACTER, SqlFunctionCategory.SYSTEM);
    public static final SqlFunction BIT_AND = bitFunction("pg_bit_and");
    public static final SqlFunction BITAND = bitFunction("bitand");
    public static final SqlFunction BIT_OR = bitFunction("pg_bit_or");
    public static final SqlFunction BIT_XOR = bitFunction("pg_bit_xor");
    /** {@code <<} and {@code >>} after the rewrite: an integer or bit string shifted by an integer count, of the first argument's type. */
    public static final SqlFunction SHIFT_LEFT = shiftFunction("pg_shift_left");
    public static final SqlFunction SHIFT_RIGHT = shiftFunction("pg_shift_right");
    /**
     * PostgreSQL's prefix operators {@code |/ x}, {@code ||/ x} and {@code @ x} after the rewrite:
     * sqrt, cbrt and abs under names of their own, so that their columns stay unnamed (?column?).
     */
    public static final SqlFunction SQUARE_ROOT = SqlBasicFunction.create("pg_square_root", ReturnTypes.DOUBLE_NULLABLE,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
    public static final SqlFunction CUBE_ROOT = SqlBasicFunction.create("pg_cube_root", ReturnTypes.DOUBLE_NULLABLE,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
    public static final SqlFunction ABSOLUTE_VALUE = SqlBasicFunction.create("pg_absolute_value", ReturnTypes.ARG0_NULLABLE,
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
    /**
     * PostgreSQL's {@code a ^ b} after the rewrite: power under a name of its own, typed as Calcite's
     * POWER, so that its column stays unnamed (?column?) while {@code power(a, b)} is named power.
     */
    public static final SqlFunction POWER_OPERATOR = SqlBasicFunction.create("pg_power",
            SqlStdOperatorTable.POWER.getReturnTypeInference(), SqlStdOperatorTable.POWER.getOperandTypeChecker(),
            SqlFunctionCategory.NUMERIC);
    public static final SqlFunction BIT_NOT = SqlBasicFunction.create("pg_bit_not", ReturnTypes.ARG0_NULLABLE,
            OperandTypes.or(OperandTypes.INTEGER, OperandTypes.BINARY), SqlFunctionCategory.NUMERIC);
    /** PostgreSQL's {@code length(text)}: characters, as {@code char_length} (Calcite has no such function). */
    public static final SqlFunction LENGTH = SqlBasicFunction.create("length",
            ReturnTypes.INTEGER_NULLABLE, OperandTypes.CHARACTER, SqlFunctionCategory.STRING);
    public static final SqlFunction MD5 = SqlBasicFunction.create("md5",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.STRING, SqlFunctionCategory.STRING);
    /**
     * now() and transaction_timestamp(): the transaction's start; statement_timestamp(): the statement's;
     * timestamps with time zone.
     */
    public static final SqlFunction NOW = statementStart("now");
    public static final SqlFunction TRANSACTION_TIMESTAMP = statementStart("transaction_timestamp");
    public static final SqlFunction STATEMENT_TIMESTAMP = statementStart("statement_timestamp");
    public static final SqlFunction CLOCK_TIMESTAMP = SqlBasicFunction.create("clock_timestamp",
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6), OperandTypes.NILADIC, SqlFunctionCategory.TIMEDATE)
            .withDeterministic(false);
    /**
     * timezone(zone, value), which {@code value AT TIME ZONE zone} is written as: a timestamp with time zone
     * (or a date, read as one) gives a timestamp, a timestamp gives a timestamp with time zone.
     */
    public static final SqlFunction TIMEZONE = SqlBasicFunction.create("timezone",
            ((org.apache.calcite.sql.type.SqlReturnTypeInference) binding -> binding.getTypeFactory().createSqlType(
                    binding.getOperandType(1).getSqlTypeName() == SqlTypeName.TIMESTAMP
                            ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP, 6))
                    .andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.TIMESTAMP),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATE)),
            SqlFunctionCategory.TIMEDATE);
    /**
     * CURRENT_TIMESTAMP [(p)] is PostgreSQL's timestamp with time zone; Calcite's is a timestamp, so this one
     * replaces it ({@link #REPLACED}), found by the validator when it turns the bare word into a call.
     */
    public static final SqlFunction CURRENT_TIMESTAMP = new org.apache.calcite.sql.fun.SqlAbstractTimeFunction(
            "CURRENT_TIMESTAMP", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
    };
    public static final SqlFunction RANDOM = SqlBasicFunction.create("random",
            ReturnTypes.DOUBLE, OperandTypes.NILADIC, SqlFunctionCategory.NUMERIC).withDeterministic(false);
    public static final SqlFunction GEN_RANDOM_UUID = SqlBasicFunction.create("gen_random_uuid",
            ReturnTypes.explicit(SqlTypeName.UUID), OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM).withDeterministic(false);
    public static final SqlFunction GENERATE_SERIES = new GenerateSeriesFunction();
    /**
     * Sequence functions: nextval / currval (name or regclass OID) and lastval return bigint, setval
     * (name, value[, is_called]) the value. Not deterministic, so nothing folds or merges two calls.
     */
    public static final SqlFunction NEXTVAL = SqlBasicFunction.create("nextval", ReturnTypes.BIGINT_NULLABLE,
            OperandTypes.or(OperandTypes.CHARACTER, OperandTypes.INTEGER), SqlFunctionCategory.SYSTEM).withDeterministic(false);
    public static final SqlFunction CURRVAL = SqlBasicFunction.create("currval", ReturnTypes.BIGINT_NULLABLE,
            OperandTypes.or(OperandTypes.CHARACTER, OperandTypes.INTEGER), SqlFunctionCategory.SYSTEM).withDeterministic(false);
    public static final SqlFunction LASTVAL = SqlBasicFunction.create("lastval", ReturnTypes.BIGINT,
            OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM).withDeterministic(false);
    public static final SqlFunction SETVAL = SqlBasicFunction.create("setval", ReturnTypes.BIGINT_NULLABLE,
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN),
                    OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN)),
            SqlFunctionCategory.SYSTEM).withDeterministic(false);
    /** PostgreSQL's {@code version()}: constant for a session, replaced by a literal when planned. */
    public static final SqlFunction VERSION = sessionFunction("version");
    /** PostgreSQL's {@code current_database()}: constant for a session, replaced by a literal when planned. */
    public static final SqlFunction CURRENT_DATABASE = sessionFunction("current_database");
    /**
     * PostgreSQL's {@code current_schema()} with parentheses; Calcite's niladic
     * {@code CURRENT_SCHEMA} covers the form without them.
     */
    public static final SqlFunction CURRENT_SCHEMA = sessionFunction("current_schema");
    /**
     * PostgreSQL's {@code pg_reload_conf()}: true, as PostgreSQL answers once it signalled the reload;
     * ALTER SYSTEM applies at once in Parallax, so there is nothing to read again.
     */
    public static final SqlFunction PG_RELOAD_CONF = SqlBasicFunction.create("pg_reload_conf", ReturnTypes.BOOLEAN,
            OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM);
    /** PostgreSQL's {@code date_trunc(field, timestamp)}; a date argument is widened to a timestamp. */
    /**
     * date_trunc(field, value): a timestamp for a timestamp (and a date, which Calcite casts to one where
     * PostgreSQL would read it as a timestamp with time zone), a timestamp with time zone for one.
     */
    public static final SqlFunction DATE_TRUNC = SqlBasicFunction.create("date_trunc",
            ((org.apache.calcite.sql.type.SqlReturnTypeInference) binding -> {
                SqlTypeName valueType = binding.getOperandType(1).getSqlTypeName();
                return binding.getTypeFactory().createSqlType(valueType == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE : SqlTypeName.TIMESTAMP, 6);
            }).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER, org.apache.calcite.sql.type.SqlTypeFamily.TIMESTAMP),
            SqlFunctionCategory.TIMEDATE);

    /** {@code array_length(array, dimension)}, {@code array_lower}, {@code array_upper}: integers, NULL beyond dimension 1. */
    public static final SqlFunction ARRAY_LENGTH = arrayDimensionFunction("array_length");
    public static final SqlFunction ARRAY_LOWER = arrayDimensionFunction("array_lower");
    public static final SqlFunction ARRAY_UPPER = arrayDimensionFunction("array_upper");
    /**
     * {@code array_to_string(array, separator[, null text])}; also over the text form of the
     * catalog's array columns still held as text (pg_database.datacl), which
     * CatalogFunctionExpander takes apart.
     */
    public static final SqlFunction ARRAY_TO_STRING = SqlBasicFunction.create("array_to_string",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)),
            SqlFunctionCategory.STRING);

    /**
     * {@code x op ANY (array)} and {@code x op ALL (array)} after the rewrite: {@code pg_equal_any(x,
     * array)} and the like, one per engine function of the same name ({@code Function.EQUAL_ANY}...).
     * The array may be a quoted literal, typed as an array of x's type (ParallaxValidator).
     */
    public static final List<SqlFunction> QUANTIFIED_COMPARISONS = java.util.stream.Stream.of(
                    "equal", "not_equal", "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal")
            .flatMap(comparison -> java.util.stream.Stream.of(comparison + "_any", comparison + "_all"))
            .map(name -> (SqlFunction) SqlBasicFunction.create("pg_" + name, ReturnTypes.BOOLEAN_FORCE_NULLABLE,
                    OperandTypes.or(OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.ARRAY),
                            OperandTypes.family(SqlTypeFamily.ANY, SqlTypeFamily.CHARACTER)), SqlFunctionCategory.SYSTEM)
                    .withOperandTypeInference(ParallaxFunctions::inferQuantifiedOperands))
            .toList();
    /** {@code ARRAY(query)} after the rewrite: the aggregated array, or an empty one for no row. */
    public static final SqlFunction ARRAY_OR_EMPTY = SqlBasicFunction.create("pg_array_or_empty",
            ReturnTypes.ARG0.andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NOT_NULLABLE), OperandTypes.ARRAY,
            SqlFunctionCategory.SYSTEM);
    /** An array's text form, what {@code array::text} becomes (Calcite casts no array to a string). */
    public static final SqlFunction ARRAY_TEXT = SqlBasicFunction.create("pg_array_text",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.ARRAY, SqlFunctionCategory.STRING);

    /** PostgreSQL's {@code lpad(text, integer[, text])}: text, whatever the argument's type (no numeric length). */
    public static final SqlFunction LPAD = padFunction("lpad");
    /** PostgreSQL's {@code rpad(text, integer[, text])}. */
    public static final SqlFunction RPAD = padFunction("rpad");

    /** PostgreSQL's {@code concat(variadic "any")}: text, never NULL (NULL values are skipped). */
    public static final SqlFunction CONCAT = SqlBasicFunction.create("concat",
            ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.ONE_OR_MORE, SqlFunctionCategory.STRING)
            .withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    /** PostgreSQL's {@code concat_ws(text, variadic "any")}: NULL when the separator is. */
    public static final SqlFunction CONCAT_WS = SqlBasicFunction.create("concat_ws",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE),
            OperandTypes.ONE_OR_MORE, SqlFunctionCategory.STRING)
            .withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);

    /** PostgreSQL's {@code greatest(value, ...)}: the arguments' common type; NULLs ignored (the engine's GREATEST). */
    public static final SqlFunction GREATEST = SqlBasicFunction.create("greatest",
            ((SqlReturnTypeInference) ParallaxFunctions::commonArgumentType).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            new CommonTypeArguments(), SqlFunctionCategory.SYSTEM)
            .withOperandTypeInference(org.apache.calcite.sql.type.InferTypes.FIRST_KNOWN);
    /** PostgreSQL's {@code least(value, ...)}. */
    public static final SqlFunction LEAST = SqlBasicFunction.create("least",
            ((SqlReturnTypeInference) ParallaxFunctions::commonArgumentType).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            new CommonTypeArguments(), SqlFunctionCategory.SYSTEM)
            .withOperandTypeInference(org.apache.calcite.sql.type.InferTypes.FIRST_KNOWN);
    /** PostgreSQL's {@code split_part(text, text, integer)}. */
    public static final SqlFunction SPLIT_PART = SqlBasicFunction.create("split_part",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
            SqlFunctionCategory.STRING);
    /** PostgreSQL's {@code to_char(timestamp or date or number, text)}. */
    public static final SqlFunction TO_CHAR = SqlBasicFunction.create("to_char",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.DATE, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.TIMESTAMP, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.CHARACTER)),
            SqlFunctionCategory.STRING);
    /** PostgreSQL's {@code make_date(year integer, month integer, day integer)}. */
    public static final SqlFunction MAKE_DATE = SqlBasicFunction.create("make_date", ReturnTypes.DATE_NULLABLE,
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER), SqlFunctionCategory.TIMEDATE);
    /** PostgreSQL's {@code make_timestamp(year, month, day, hour, min integer, sec double precision)}. */
    public static final SqlFunction MAKE_TIMESTAMP = SqlBasicFunction.create("make_timestamp",
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 6).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER,
                    SqlTypeFamily.INTEGER, SqlTypeFamily.NUMERIC), SqlFunctionCategory.TIMEDATE);
    /**
     * PostgreSQL's {@code make_interval(years, months, weeks, days, hours, mins integer, secs double
     * precision)}, every argument optional (0) and nameable ({@code make_interval(days => 3)}); see
     * {@link MakeIntervalArguments} for its type.
     */
    public static final SqlFunction MAKE_INTERVAL = SqlBasicFunction.create("make_interval",
            MakeIntervalArguments::type,
            OperandTypes.operandMetadata(java.util.Collections.nCopies(7, SqlTypeFamily.NUMERIC),
                    factory -> MakeIntervalArguments.types(factory), index -> MakeIntervalArguments.NAMES.get(index), index -> true),
            SqlFunctionCategory.TIMEDATE);
    /**
     * PostgreSQL's {@code to_timestamp(text, text)} and {@code to_timestamp(double precision)} (Unix
     * epoch seconds): a timestamp (in UTC), as Parallax has no timestamp with time zone.
     */
    public static final SqlFunction TO_TIMESTAMP = SqlBasicFunction.create("to_timestamp",
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP, 6).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    new CheckedArguments(1, "(<DOUBLE>)", ParallaxFunctions::isEpochSeconds)),
            SqlFunctionCategory.TIMEDATE);
    /** PostgreSQL's {@code to_date(text, text)}. */
    public static final SqlFunction TO_DATE = SqlBasicFunction.create("to_date", ReturnTypes.DATE_NULLABLE,
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.TIMEDATE);
    /**
     * PostgreSQL 15's {@code regexp_replace(text, text, text[, flags text])} and
     * {@code regexp_replace(text, text, text, start integer[, n integer[, flags text]])}.
     */
    public static final SqlFunction REGEXP_REPLACE = SqlBasicFunction.create("regexp_replace",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER,
                            SqlTypeFamily.INTEGER),
                    OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER,
                            SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER)),
            SqlFunctionCategory.STRING);
    /**
     * {@code string_agg(value, separator)} after the rewrite: {@code pg_string_agg(array_agg(value),
     * separator)}, array_to_string under a name of its own so that the column is named string_agg.
     */
    /**
     * A decorrelated scalar subquery's value where it is used: (value, row count of its correlation
     * group), 21000 when the count is above one. Only the planner writes it (ScalarSubqueryRowChecks);
     * it is not in the operator table, so no query can call it.
     */
    public static final SqlFunction SCALAR_SUBQUERY_VALUE = SqlBasicFunction.create("pg_scalar_subquery_value",
            ReturnTypes.ARG0, OperandTypes.ANY_ANY, SqlFunctionCategory.SYSTEM);
    public static final SqlFunction STRING_AGGREGATE = SqlBasicFunction.create("pg_string_agg",
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);

    /**
     * PostgreSQL's {@code log(x)} (base 10, as log10) and {@code log(base, x)}. Calcite's library
     * LOG takes its arguments the other way round (BigQuery's log(x, base)).
     */
    public static final SqlFunction LOG = SqlBasicFunction.create("log", ReturnTypes.DOUBLE_NULLABLE,
            OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.NUMERIC_NUMERIC), SqlFunctionCategory.NUMERIC);
    /** PostgreSQL's {@code pi()} with parentheses; Calcite's PI is the niladic form without them. */
    public static final SqlFunction PI = SqlBasicFunction.create("pi", ReturnTypes.DOUBLE, OperandTypes.NILADIC,
            SqlFunctionCategory.NUMERIC);
    /**
     * PostgreSQL's {@code sign}: double precision for integers and doubles (sign(integer) resolves to
     * sign(double precision)), numeric of scale 0 for numeric (Calcite keeps the argument's type).
     */
    public static final SqlFunction SIGN = SqlBasicFunction.create("sign",
            ((SqlReturnTypeInference) ParallaxFunctions::signType).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.NUMERIC, SqlFunctionCategory.NUMERIC);
    /** PostgreSQL's {@code div(numeric, numeric)}: the quotient truncated toward zero, numeric of scale 0. */
    public static final SqlFunction DIV = SqlBasicFunction.create("div",
            ReturnTypes.explicit(factory -> factory.createSqlType(SqlTypeName.DECIMAL, 18, 0)).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
            OperandTypes.family(SqlTypeFamily.EXACT_NUMERIC, SqlTypeFamily.EXACT_NUMERIC), SqlFunctionCategory.NUMERIC);
    /** PostgreSQL's {@code width_bucket(operand, low, high, count)}: an integer. */
    public static final SqlFunction WIDTH_BUCKET = SqlBasicFunction.create("width_bucket", ReturnTypes.INTEGER_NULLABLE,
            OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.NUMERIC, SqlTypeFamily.INTEGER),
            SqlFunctionCategory.NUMERIC);
    /** PostgreSQL's {@code num_nulls(variadic "any")} and {@code num_nonnulls}: how many arguments are (not) NULL. */
    public static final SqlFunction NUM_NULLS = SqlBasicFunction.create("num_nulls", ReturnTypes.INTEGER,
            OperandTypes.ONE_OR_MORE, SqlFunctionCategory.SYSTEM).withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    public static final SqlFunction NUM_NONNULLS = SqlBasicFunction.create("num_nonnulls", ReturnTypes.INTEGER,
            OperandTypes.ONE_OR_MORE, SqlFunctionCategory.SYSTEM).withOperandTypeInference(ParallaxFunctions::inferUnknownAsText);
    /** PostgreSQL's {@code gcd} and {@code lcm} of integers: integer, or bigint when an argument is one. */
    public static final SqlFunction GCD = integerPairFunction("gcd");
    public static final SqlFunction LCM = integerPairFunction("lcm");

    /**
     * PostgreSQL's {@code GROUPING(a, ...)}: an integer bit mask (Calcite's standard one is a bigint).
     * Of kind GROUPING, so Calcite validates and converts it as its own.
     */
    public static final SqlFunction GROUPING = new org.apache.calcite.sql.fun.SqlAbstractGroupFunction("GROUPING", SqlKind.GROUPING,
            ReturnTypes.INTEGER, null, OperandTypes.ONE_OR_MORE, SqlFunctionCategory.SYSTEM) {
    };

    private static final SqlOperatorTable PARALLAX = SqlOperatorTables.chain(SqlOperatorTables.of(QUANTIFIED_COMPARISONS),
            SqlOperatorTables.of(StatisticsAggregates.ALL), SqlOperatorTables.of(OrderedSetAggregates.ALL), SqlOperatorTables.of(
            ExtractFunctions.EXTRACT, ExtractFunctions.DATE_PART,
            RoundingFunctions.ROUND, RoundingFunctions.TRUNC,
            ARRAY_TEXT, ARRAY_OR_EMPTY, ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER, ARRAY_TO_STRING,
            BIT_STRING, BIGINT_LITERAL, BIT_AND, BITAND, BIT_OR, BIT_XOR, BIT_NOT, LENGTH, MD5, NOW, TRANSACTION_TIMESTAMP, STATEMENT_TIMESTAMP,
            CURRENT_TIMESTAMP, TIMEZONE, CLOCK_TIMESTAMP, RANDOM, GEN_RANDOM_UUID, GENERATE_SERIES, DATE_TRUNC,
            NEXTVAL, CURRVAL, LASTVAL, SETVAL,
            VERSION, CURRENT_DATABASE, CURRENT_SCHEMA, PG_RELOAD_CONF,
            // Found by name, syntax and kind (OTHER) when Calcite re-resolves a call to them.
            DateArithmetic.DATE_MINUS, DateArithmetic.DATE_PLUS_DAYS,
            // PostgreSQL's case-insensitive LIKE (the engine lower-cases both sides).
            org.apache.calcite.sql.fun.SqlLibraryOperators.ILIKE, org.apache.calcite.sql.fun.SqlLibraryOperators.NOT_ILIKE,
            // PostgreSQL's boolean aggregates (every, the standard's name for bool_and, is a standard operator).
            org.apache.calcite.sql.fun.SqlLibraryOperators.BOOL_AND, org.apache.calcite.sql.fun.SqlLibraryOperators.BOOL_OR,
            org.apache.calcite.sql.fun.SqlLibraryOperators.REPEAT, org.apache.calcite.sql.fun.SqlLibraryOperators.ARRAY_AGG,
            LPAD, RPAD, CONCAT, CONCAT_WS, GREATEST, LEAST, SPLIT_PART, STRING_AGGREGATE, REGEXP_REPLACE, TO_CHAR,
            MAKE_DATE, MAKE_TIMESTAMP, MAKE_INTERVAL, TO_TIMESTAMP, TO_DATE,
            GROUPING, LOG, PI, SIGN, DIV, WIDTH_BUCKET, NUM_NULLS, NUM_NONNULLS, GCD, LCM, SHIFT_LEFT, SHIFT_RIGHT, SQUARE_ROOT, CUBE_ROOT, ABSOLUTE_VALUE, POWER_OPERATOR));

    /** Calcite's standard operators Parallax replaces by its own of the same name, left out of the operator table. */
    private static final java.util.Set<SqlOperator> REPLACED = java.util.Set.of(SqlStdOperatorTable.ROUND, SqlStdOperatorTable.SIGN,
            SqlStdOperatorTable.CURRENT_TIMESTAMP,
            SqlStdOperatorTable.GROUPING,
            SqlStdOperatorTable.STDDEV, SqlStdOperatorTable.STDDEV_SAMP, SqlStdOperatorTable.STDDEV_POP,
            SqlStdOperatorTable.VARIANCE, SqlStdOperatorTable.VAR_SAMP, SqlStdOperatorTable.VAR_POP);

    /** Parallax's functions first, then Calcite's standard ones; names case-insensitive. */
    public static final SqlOperatorTable OPERATOR_TABLE = new CaseInsensitiveTable(
            SqlOperatorTables.chain(PARALLAX, CatalogFunctions.TABLE, ArrayFunctions.TABLE, StringFunctions.TABLE,
                    SqlStdOperatorTable.instance()));

    private ParallaxFunctions() {
    }

    /** A niladic function of the statement's or transaction's start, a timestamp with time zone (dynamic: never folded into a cached plan). */
    private static SqlFunction statementStart(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6),
                OperandTypes.NILADIC, SqlFunctionCategory.TIMEDATE).withDynamic(true);
    }

    private static SqlFunction arrayDimensionFunction(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.INTEGER).andThen(
                        org.apache.calcite.sql.type.SqlTypeTransforms.FORCE_NULLABLE),
                OperandTypes.family(SqlTypeFamily.ARRAY, SqlTypeFamily.INTEGER), SqlFunctionCategory.SYSTEM);
    }

    private static SqlFunction shiftFunction(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.ARG0_NULLABLE,
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                        OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.INTEGER)),
                SqlFunctionCategory.NUMERIC);
    }

    private static SqlFunction integerPairFunction(String name) {
        return SqlBasicFunction.create(name, ((SqlReturnTypeInference) ParallaxFunctions::integerPairType).andThen(
                        org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER), SqlFunctionCategory.NUMERIC);
    }

    /** gcd/lcm exist for integer and bigint: smallint arguments give integer. */
    private static RelDataType integerPairType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType common = factory.leastRestrictive(binding.collectOperandTypes());
        boolean bigint = common != null && common.getSqlTypeName() == SqlTypeName.BIGINT;
        return factory.createSqlType(bigint ? SqlTypeName.BIGINT : SqlTypeName.INTEGER);
    }

    private static RelDataType signType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        return binding.getOperandType(0).getSqlTypeName() == SqlTypeName.DECIMAL
                ? factory.createSqlType(SqlTypeName.DECIMAL, 1, 0) : factory.createSqlType(SqlTypeName.DOUBLE);
    }

    private static SqlFunction sessionFunction(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.NILADIC,
                SqlFunctionCategory.SYSTEM);
    }

    private static SqlFunction padFunction(String name) {
        return SqlBasicFunction.create(name,
                ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
                        OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER)),
                SqlFunctionCategory.STRING);
    }

    private static SqlFunction bitFunction(String name) {
        return SqlBasicFunction.create(name, ((SqlReturnTypeInference) ParallaxFunctions::bitOperationType).andThen(
                        org.apache.calcite.sql.type.SqlTypeTransforms.TO_NULLABLE),
                OperandTypes.or(OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                        OperandTypes.family(SqlTypeFamily.BINARY, SqlTypeFamily.BINARY)),
                SqlFunctionCategory.NUMERIC);
    }

    /**
     * A parameter in {@code x = ANY ($1)} is an array of x's type, and in {@code $1 = ANY (array)}
     * the array's element type, as PostgreSQL infers them (pgJDBC's {@code setArray} for
     * {@code where id = any(?)} relies on it).
     */
    private static void inferQuantifiedOperands(org.apache.calcite.sql.SqlCallBinding binding, RelDataType returnType,
                                                RelDataType[] operandTypes) {
        RelDataType unknown = binding.getValidator().getUnknownType();
        RelDataType value = org.apache.calcite.sql.type.SqlTypeUtil.deriveType(binding, binding.operand(0));
        RelDataType array = org.apache.calcite.sql.type.SqlTypeUtil.deriveType(binding, binding.operand(1));
        RelDataTypeFactory factory = binding.getTypeFactory();
        if (array.equals(unknown) && !value.equals(unknown)) {
            // A string's array is text[] (PostgreSQL compares text), not char(n)[] of a literal's length.
            RelDataType element = org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(value)
                    ? factory.createSqlType(SqlTypeName.VARCHAR) : value;
            array = factory.createTypeWithNullability(factory.createArrayType(element, -1), true);
        } else if (value.equals(unknown) && array.getComponentType() != null) {
            value = factory.createTypeWithNullability(array.getComponentType(), true);
        }
        operandTypes[0] = value;
        operandTypes[1] = array;
    }

    /** A NULL or a parameter as an "any" argument of concat, concat_ws, format or quote_literal is text. */
    static void inferUnknownAsText(org.apache.calcite.sql.SqlCallBinding binding, RelDataType returnType,
                                           RelDataType[] operandTypes) {
        RelDataType unknown = binding.getValidator().getUnknownType();
        RelDataTypeFactory factory = binding.getTypeFactory();
        for (int index = 0; index < operandTypes.length; index++) {
            RelDataType type = org.apache.calcite.sql.type.SqlTypeUtil.deriveType(binding, binding.operand(index));
            operandTypes[index] = type.equals(unknown) || type.getSqlTypeName() == SqlTypeName.NULL
                    ? factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.VARCHAR), true) : type;
        }
    }

    /**
     * PostgreSQL's bit operators return their operands' type: bit strings of equal length (the
     * engine raises 22026 on different lengths at run time), so BINARY operands give BINARY of the
     * longer length even where the least restrictive type, with ragged types made varying, would
     * be VARBINARY; a bit varying operand gives VARBINARY; integers their least restrictive type.
     */
    private static RelDataType bitOperationType(SqlOperatorBinding binding) {
        List<RelDataType> operands = binding.collectOperandTypes();
        boolean allBits = true;
        int bits = 1;
        for (RelDataType operand : operands) {
            allBits &= operand.getSqlTypeName() == SqlTypeName.BINARY;
            bits = Math.max(bits, operand.getPrecision());
        }
        if (allBits) {
            return binding.getTypeFactory().createSqlType(SqlTypeName.BINARY, bits);
        }
        return binding.getTypeFactory().leastRestrictive(operands);
    }

    /**
     * greatest/least's type: PostgreSQL's common type of the arguments. Quoted literals are of
     * unknown type and take the other arguments' type ({@code least(x, 'NaN')} with x double
     * precision); all strings give text, unless a character(n) argument is not a literal. No
     * common type: 42804 "GREATEST types integer and text cannot be matched".
     */
    private static RelDataType commonArgumentType(SqlOperatorBinding binding) {
        RelDataTypeFactory factory = binding.getTypeFactory();
        RelDataType common = null;
        boolean unknownLiterals = false;
        boolean characterColumn = false;
        for (int index = 0; index < binding.getOperandCount(); index++) {
            RelDataType type = binding.getOperandType(index);
            boolean unknownLiteral = type.getSqlTypeName() == SqlTypeName.CHAR && binding.isOperandLiteral(index, false);
            unknownLiterals |= unknownLiteral;
            characterColumn |= type.getSqlTypeName() == SqlTypeName.CHAR && !unknownLiteral;
            if (type.getSqlTypeName() == SqlTypeName.NULL || unknownLiteral) {
                continue;
            }
            RelDataType next = common == null ? type : factory.leastRestrictive(List.of(common, type));
            // Calcite finds a least restrictive type of date and integer; PostgreSQL has no common type for them.
            if (next == null || common != null && !SqlTypeUtil.isComparable(common, type)
                    && !(SqlTypeUtil.isDatetime(common) && SqlTypeUtil.isDatetime(type))) {
                throw dev.parallax.engine.error.ParallaxException.of(dev.parallax.engine.error.SqlState.DATATYPE_MISMATCH,
                        "%s types %s and %s cannot be matched", binding.getOperator().getName().toUpperCase(java.util.Locale.ROOT),
                        postgresName(common), postgresName(type));
            }
            common = next;
        }
        if (common == null) {
            // Only unknown literals and NULLs: PostgreSQL resolves unknown to text.
            return factory.createSqlType(SqlTypeName.VARCHAR);
        }
        if (unknownLiterals && SqlTypeUtil.inCharFamily(common)) {
            return characterColumn ? factory.leastRestrictive(binding.collectOperandTypes()) : factory.createSqlType(SqlTypeName.VARCHAR);
        }
        return common;
    }

    private static String postgresName(RelDataType type) {
        return dev.parallax.planner.query.schema.TypeMapping.toEngine(type).nameWithoutModifier();
    }

    private static RelDataType bitStringType(SqlOperatorBinding binding) {
        String digits = binding.getOperandLiteralValue(0, String.class);
        int bits = digits == null ? 1 : digits.length();
        return binding.getTypeFactory().createSqlType(SqlTypeName.BINARY, Math.max(bits, 1));
    }

    /**
     * {@code generate_series(start, stop[, step])} in FROM: one column named generate_series, over
     * integers or over timestamps with an interval step ({@link SeriesArguments}).
     */
    private static final class GenerateSeriesFunction extends SqlFunction implements SqlTableFunction {
        GenerateSeriesFunction() {
            super("generate_series", SqlKind.OTHER_FUNCTION, ReturnTypes.CURSOR, null,
                    OperandTypes.or(OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER),
                            timestampSeriesArguments()),
                    SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION);
        }

        @Override
        public SqlReturnTypeInference getRowTypeInference() {
            return binding -> {
                RelDataTypeFactory factory = binding.getTypeFactory();
                if (binding instanceof org.apache.calcite.sql.SqlCallBinding call
                        && SeriesArguments.isTimestampForm(call.operands(), binding.collectOperandTypes())) {
                    return factory.builder().add("generate_series",
                            factory.createTypeWithNullability(SeriesArguments.timestampType(factory, binding.collectOperandTypes()), false)).build();
                }
                RelDataType type = factory.leastRestrictive(binding.collectOperandTypes());
                if (type == null || type.getSqlTypeName() == SqlTypeName.SMALLINT || type.getSqlTypeName() == SqlTypeName.TINYINT) {
                    type = factory.createSqlType(SqlTypeName.INTEGER);
                }
                return factory.builder().add("generate_series", factory.createTypeWithNullability(type, false)).build();
            };
        }
    }

    /**
     * Arguments a predicate accepts, {@code count} of them, shown as {@code signature} in Calcite's
     * messages: for forms Calcite's families cannot say without its coercion getting in the way.
     */
    private record CheckedArguments(int count, String signature,
                                    java.util.function.Predicate<org.apache.calcite.sql.SqlCallBinding> accepts)
            implements org.apache.calcite.sql.type.SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(org.apache.calcite.sql.SqlCallBinding binding, boolean throwOnFailure) {
            boolean accepted = accepts.test(binding);
            if (!accepted && throwOnFailure) {
                throw binding.newValidationSignatureError();
            }
            return accepted;
        }

        @Override
        public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
            return org.apache.calcite.sql.type.SqlOperandCountRanges.of(count);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + signature;
        }
    }

    /** generate_series's timestamp form in FROM, as {@link SeriesArguments} accepts it (a method: GENERATE_SERIES is built before any constant below). */
    private static CheckedArguments timestampSeriesArguments() {
        return new CheckedArguments(3, "(<TIMESTAMP>, <TIMESTAMP>, <INTERVAL>)",
                binding -> SeriesArguments.isTimestampForm(binding.operands(), binding.collectOperandTypes()));
    }

    /**
     * to_timestamp's one argument, double precision seconds: any number, or a quoted literal (read as
     * double precision by the engine's cast, as PostgreSQL resolves the unknown literal; Calcite's
     * coercion to its numeric family would make it a decimal of too small a precision).
     */
    private static boolean isEpochSeconds(org.apache.calcite.sql.SqlCallBinding binding) {
        RelDataType type = binding.getOperandType(0);
        return SqlTypeUtil.isNumeric(type) || type.getSqlTypeName() == SqlTypeName.NULL
                || SqlTypeUtil.inCharFamily(type) && binding.operand(0) instanceof org.apache.calcite.sql.SqlCharStringLiteral;
    }

    /** Arguments that must have a common type ({@link #commonArgumentType}), any number of them: greatest, least. */
    private static final class CommonTypeArguments implements org.apache.calcite.sql.type.SqlOperandTypeChecker {
        @Override
        public boolean checkOperandTypes(org.apache.calcite.sql.SqlCallBinding binding, boolean throwOnFailure) {
            commonArgumentType(binding);
            return true;
        }

        @Override
        public org.apache.calcite.sql.SqlOperandCountRange getOperandCountRange() {
            return org.apache.calcite.sql.type.SqlOperandCountRanges.from(1);
        }

        @Override
        public String getAllowedSignatures(SqlOperator operator, String operatorName) {
            return operatorName + "(<ANY>, ...)";
        }
    }

    /**
     * Looks functions up ignoring case, without the standard operators Parallax replaces
     * ({@link #REPLACED}: with both found, the parser would leave the call unresolved and the
     * validator find neither); other names are the validator's business.
     */
    private record CaseInsensitiveTable(SqlOperatorTable delegate) implements SqlOperatorTable {
        @Override
        public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
                                            List<SqlOperator> operators, SqlNameMatcher nameMatcher) {
            delegate.lookupOperatorOverloads(name, category, syntax, operators, SqlNameMatchers.withCaseSensitive(false));
            operators.removeIf(REPLACED::contains);
        }

        @Override
        public List<SqlOperator> getOperatorList() {
            return delegate.getOperatorList().stream().filter(operator -> !REPLACED.contains(operator)).toList();
        }
    }

}
