package dev.parallax.engine.expr;

/**
 * Built-in scalar functions and operators. Semantics are PostgreSQL's: NULL in, NULL out unless
 * noted; integer and decimal overflow raise 22003; division by zero raises 22012.
 */
public enum Function {
    // Arithmetic on numbers; ADD/SUBTRACT also take DATE/TIMESTAMP with an INTERVAL or (DATE) INTEGER days.
    ADD, SUBTRACT, MULTIPLY, DIVIDE, MODULO, NEGATE, ABS,
    // Comparisons: result BOOLEAN.
    EQUAL, NOT_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
    /** IS DISTINCT FROM / IS NOT DISTINCT FROM: never NULL. */
    IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM,
    // Boolean logic with three-valued semantics (FALSE AND NULL = FALSE, TRUE OR NULL = TRUE).
    AND, OR, NOT,
    IS_NULL, IS_NOT_NULL, IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE,
    /** Pattern in argument 1 ({@code %}, {@code _}, backslash escape); LIKE on text. */
    LIKE, NOT_LIKE, ILIKE, NOT_ILIKE,
    /** POSIX regular expression in argument 1 ({@code ~}, {@code !~}, {@code ~*}, {@code !~*}): a match anywhere in the text. */
    REGEX_MATCH, NOT_REGEX_MATCH, REGEX_MATCH_INSENSITIVE, NOT_REGEX_MATCH_INSENSITIVE,
    /** {@code text [NOT] SIMILAR TO pattern [ESCAPE escape]}: the whole text matches the SQL regular expression. */
    SIMILAR_TO, NOT_SIMILAR_TO,
    /**
     * regexp_replace(source, pattern, replacement[, start[, n]][, flags]): PostgreSQL 15's forms,
     * start and n integers, the others text.
     */
    REGEXP_REPLACE,
    // Bit strings (and integers): &, |, #, ~ and bitand(a, b) as an alias of &.
    BIT_AND, BIT_OR, BIT_XOR, BIT_NOT, SHIFT_LEFT, SHIFT_RIGHT,
    // Text.
    CONCAT, SUBSTRING, UPPER, LOWER, LENGTH, CHAR_LENGTH, TRIM, POSITION, MD5, REPLACE,
    /** repeat(text, integer): the text that many times; empty for a count below 1. */
    REPEAT,
    /**
     * lpad/rpad(text, length[, fill]): the text cut or filled (with fill, default a space, repeated)
     * to length characters, the fill on the left or right; empty fill: the text only cut.
     */
    LPAD, RPAD,
    /**
     * split_part(text, delimiter, field): the field-th piece of the text split at the delimiter
     * (counted from the end when negative), empty past the last; field 0 raises 22023.
     */
    SPLIT_PART,
    /**
     * concat(value, ...) and concat_ws(separator, value, ...) of any values' output forms: NULL
     * values skipped (concat is never NULL), a NULL separator gives NULL.
     */
    CONCAT_VALUES, CONCAT_WS,
    /**
     * Text edits in characters (TextEditEvaluator): LEFT/RIGHT(text, n) the first/last n characters
     * (all but the last/first -n when negative), REVERSE, INITCAP (words: runs of letters and digits),
     * BTRIM/LTRIM/RTRIM(text[, characters]) (default a space), TRANSLATE(text, from, to),
     * OVERLAY(text, replacement, start[, count]) (count defaults to the replacement's length).
     */
    LEFT, RIGHT, REVERSE, INITCAP, BTRIM, LTRIM, RTRIM, TRANSLATE, OVERLAY,
    /**
     * Measures of text (TextMeasureEvaluator): STRPOS(text, substring) in characters (0 when absent),
     * ASCII(text) the first character's code point (0 for the empty text), OCTET_LENGTH and
     * BIT_LENGTH in bytes and bits, STARTS_WITH(text, prefix) a boolean.
     */
    STRPOS, ASCII, OCTET_LENGTH, BIT_LENGTH, STARTS_WITH,
    /**
     * CHR(integer): the character of that code point (22023 below 1; 54000 for 0, past U+10FFFF and
     * for surrogates); TO_HEX(integer or bigint): the two's complement in lower-case hexadecimal.
     */
    CHR, TO_HEX,
    /**
     * QUOTE_IDENT(text) quoted as an identifier when PostgreSQL would need it, QUOTE_LITERAL(value) as
     * a string literal (E'' when it holds a backslash), QUOTE_NULLABLE(value) the same but {@code NULL}
     * for NULL (never NULL itself).
     */
    QUOTE_IDENT, QUOTE_LITERAL, QUOTE_NULLABLE,
    /** format(format text, value, ...): PostgreSQL's %s, %I, %L, %%, positions (%2$s) and widths (%10s, %-*s). */
    FORMAT,
    /**
     * Text split into a text[]: STRING_TO_ARRAY(text, delimiter[, null text]) (a NULL delimiter splits
     * into characters, an empty one gives the whole text), REGEXP_SPLIT_TO_ARRAY(text, pattern[, flags]).
     */
    STRING_TO_ARRAY, REGEXP_SPLIT_TO_ARRAY,
    /** REGEXP_SPLIT_TO_ARRAY as the array a select-list regexp_split_to_table unnests: its errors name that function. */
    REGEXP_SPLIT_TO_TABLE,
    /**
     * to_char(value, template) of a date, timestamp or number (integer, numeric, double precision)
     * with PostgreSQL's template patterns (DateTimeTemplate, NumberTemplate).
     */
    TO_CHAR,
    // Dates and times: EXTRACT(field FROM x), first argument a TEXT literal naming the field.
    EXTRACT, DATE_TRUNC,
    /**
     * make_date(year, month, day) → DATE and make_timestamp(year, month, day, hour, minute, seconds)
     * → TIMESTAMP, integers but the DOUBLE seconds, with PostgreSQL's checks (DateTimes.makeDate/makeTimestamp).
     */
    MAKE_DATE, MAKE_TIMESTAMP,
    /**
     * make_interval(years, months, weeks, days, hours, mins BIGINT, secs DOUBLE) → INTERVAL_YEAR_MONTH
     * (the months; the planner gives no days or time then) or INTERVAL_DAY_TIME (days and time;
     * no months); 22008 "interval out of range" on overflow or non-finite seconds.
     */
    MAKE_INTERVAL,
    /**
     * to_timestamp(text, template) → TIMESTAMP and to_date(text, template) → DATE, read by
     * DateTimeTemplateInput; to_timestamp(DOUBLE) of Unix epoch seconds → TIMESTAMP.
     */
    TO_TIMESTAMP, TO_DATE,
    // Null handling.
    COALESCE, NULLIF,
    /**
     * greatest/least(value, ...) of arguments of the result type: NULL arguments ignored, NULL only
     * when all are; the first of equal values wins.
     */
    GREATEST, LEAST,
    // Math. TRUNC is PostgreSQL's trunc: toward zero, to a number of fraction digits (negative: tens...).
    ROUND, TRUNC, FLOOR, CEIL, SQRT, POWER,
    /**
     * PostgreSQL's double precision math: CBRT, EXP, LN, LOG10, LOG(base, x), DEGREES, RADIANS and
     * the trigonometric functions in radians; a logarithm of zero or a negative number raises
     * 2201E, exp's overflow and underflow 22003, an argument outside asin/acos's domain or an
     * infinite angle 22003 "input is out of range". SIGN keeps its argument's type (-1, 0, 1).
     */
    SIGN, CBRT, EXP, LN, LOG10, LOG, DEGREES, RADIANS, SIN, COS, TAN, COT, ASIN, ACOS, ATAN, ATAN2,
    /**
     * Integer math (PostgreSQL's int4/int8 functions; DIV also numeric): DIV(a, b) is a / b truncated
     * toward zero (22012 for b = 0), GCD and LCM of the absolute values (gcd(0, 0) = 0, lcm with a
     * zero = 0), 22003 when the result leaves the type's range.
     */
    DIV, GCD, LCM,
    /** width_bucket(operand, low, high, count) as PostgreSQL's double precision form (WidthBucketEvaluator). */
    WIDTH_BUCKET,
    /**
     * Arrays (one dimension): ARRAY[a, b, ...] of the arguments (cast to the element type);
     * ARRAY_ELEMENT(array, subscript) is {@code a[i]}, NULL when the subscript is out of range;
     * CARDINALITY(array) counts elements (0 for an empty array); ARRAY_LENGTH, ARRAY_LOWER and
     * ARRAY_UPPER(array, dimension) are NULL for an empty array or a dimension other than 1;
     * ARRAY_TO_STRING(array, separator[, null text]) skips NULL elements unless given a null text;
     * ARRAY_CONCAT(array, array) is {@code ||} (the result starts at the left array's lower bound);
     * STRING_AGG(array, separator) is string_agg over {@code array_agg(value)} (the planner's
     * rewrite): ARRAY_TO_STRING's text, but NULL when no element is non-NULL, as string_agg of
     * only NULLs (array_to_string gives '').
     */
    ARRAY_CONSTRUCT, ARRAY_ELEMENT, CARDINALITY, ARRAY_LENGTH, ARRAY_LOWER, ARRAY_UPPER, ARRAY_TO_STRING, STRING_AGG, ARRAY_CONCAT,
    /**
     * The final step of the ordered-set aggregates (OrderedSetEvaluator) over the values a group
     * collected ({@code pg_collect(value)}, the planner's rewrite), sorted ascending or, when the
     * last argument is true, descending: MODE(values, descending) is {@code mode() WITHIN GROUP
     * (ORDER BY value)}, PERCENTILE_CONT(values, fraction, descending) and
     * PERCENTILE_DISC(values, fraction, descending) are {@code percentile_cont(fraction) WITHIN
     * GROUP (ORDER BY value)} and percentile_disc, the fraction a double precision or an array of them.
     */
    MODE, PERCENTILE_CONT, PERCENTILE_DISC,
    /**
     * Arrays built from an array (ArrayEditEvaluator): ARRAY_APPEND(array, value),
     * ARRAY_PREPEND(value, array), ARRAY_REMOVE(array, value), ARRAY_REPLACE(array, from, to),
     * ARRAY_FILL(value, dimensions[, lower bounds]), ARRAY_SLICE(array, lower, upper) ({@code a[1:2]};
     * the planner says which bounds were omitted). Searches (ArraySearchEvaluator):
     * ARRAY_POSITION(array, value[, start]) and ARRAY_POSITIONS(array, value), IS NOT DISTINCT FROM
     * semantics; ARRAY_CONTAINS ({@code @>}), ARRAY_CONTAINED ({@code <@}) and ARRAY_OVERLAP
     * ({@code &&}) with {@code =} between elements.
     */
    ARRAY_APPEND, ARRAY_PREPEND, ARRAY_REMOVE, ARRAY_REPLACE, ARRAY_FILL, ARRAY_SLICE,
    ARRAY_POSITION, ARRAY_POSITIONS, ARRAY_CONTAINS, ARRAY_CONTAINED, ARRAY_OVERLAP,
    /**
     * {@code value op ANY (array)} and {@code value op ALL (array)}, value first: an empty array gives
     * false (ANY) or true (ALL) whatever the value; otherwise a NULL value or array gives NULL, and
     * NULL elements make an undecided result NULL.
     */
    EQUAL_ANY, NOT_EQUAL_ANY, LESS_THAN_ANY, LESS_THAN_OR_EQUAL_ANY, GREATER_THAN_ANY, GREATER_THAN_OR_EQUAL_ANY,
    EQUAL_ALL, NOT_EQUAL_ALL, LESS_THAN_ALL, LESS_THAN_OR_EQUAL_ALL, GREATER_THAN_ALL, GREATER_THAN_OR_EQUAL_ALL,
    /**
     * PostgreSQL's size functions, read from the execution's {@code RelationSizes} when evaluated:
     * TABLE_SIZE, INDEXES_SIZE, TOTAL_RELATION_SIZE(oid) and RELATION_SIZE(oid, fork) in bytes, NULL
     * for an OID no relation has (fork 'main' is the data; 'fsm', 'vm' and 'init' are empty, any other
     * name 22023); DATABASE_SIZE(name or oid): 3D000 for another name, NULL for another OID.
     * SIZE_PRETTY(bigint or numeric): the bytes in bytes/kB/MB/GB/TB/PB with PostgreSQL 15's rounding.
     */
    TABLE_SIZE, RELATION_SIZE, INDEXES_SIZE, TOTAL_RELATION_SIZE, DATABASE_SIZE, SIZE_PRETTY,
    /**
     * Volatile: RANDOM is per row. The times, PostgreSQL's: NOW (now(), current_timestamp,
     * transaction_timestamp()) is the start of the transaction, the same for every statement of a
     * BEGIN ... COMMIT block; STATEMENT_TIMESTAMP the start of the statement; CLOCK_TIMESTAMP the
     * wall clock at each call.
     */
    RANDOM, NOW, STATEMENT_TIMESTAMP, CLOCK_TIMESTAMP,
    /**
     * TIMEZONE(zone text, value): {@code value AT TIME ZONE zone}; a timestamp with time zone gives the
     * TIMESTAMP it reads as in the zone, a TIMESTAMP the TIMESTAMPTZ that local time names there.
     */
    TIMEZONE,
    /** gen_random_uuid(): a version 4 UUID from a strong random source, a new one per row. */
    GEN_RANDOM_UUID,
    /**
     * Sequences, PostgreSQL's semantics, per row: NEXTVAL(name), CURRVAL(name) and LASTVAL() return
     * BIGINT; SETVAL(name, value[, is_called]) returns the value. The name is a TEXT sequence name or
     * a BIGINT pg_class OID ({@code 's'::regclass}).
     */
    NEXTVAL, CURRVAL, SETVAL, LASTVAL,
    /**
     * SCALAR_SUBQUERY_VALUE(value, row count BIGINT) is a decorrelated scalar subquery's value: the
     * value when its correlation group had at most one row (a NULL count is an outer row that matched
     * no group), and 21000 "more than one row returned by a subquery used as an expression" when it
     * had more. The planner puts it where the value is used, so only the rows that evaluate the
     * subquery raise the error, as PostgreSQL's SubPlan does (SingleRowValueEvaluator).
     */
    SCALAR_SUBQUERY_VALUE
}
