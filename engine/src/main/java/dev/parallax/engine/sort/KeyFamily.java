package dev.parallax.engine.sort;

import dev.parallax.engine.type.TypeKind;

/** How values of a sort key are compared and abbreviated; chosen once per key from its type. */
enum KeyFamily {
    /** Signed longs: integers, booleans, scaled decimals, dates, timestamps, intervals. */
    LONG,
    /** Doubles in PostgreSQL's order: -0 equals 0, NaN equals NaN and sorts above every number. */
    DOUBLE,
    /** UTF-8 text and varchar: unsigned bytes (C collation), shorter first on a common prefix; uuid's 16 bytes likewise (uuid_cmp is memcmp). */
    TEXT,
    /** char(n): as TEXT after trailing blanks are stripped (PostgreSQL's bpchar comparison). */
    BLANK_PADDED_TEXT,
    /** BitString layout: the bit bytes first, then the bit count. */
    BIT_STRING,
    /**
     * Arrays in PostgreSQL's array_cmp order (ValueOrder.compareArrays): no prefix abbreviates them,
     * every comparison is a full one.
     */
    ARRAY;

    static KeyFamily of(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, DECIMAL, DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, NULL -> LONG;
            case REAL, DOUBLE -> DOUBLE;
            case VARCHAR, TEXT, UUID -> TEXT;
            case CHAR -> BLANK_PADDED_TEXT;
            case BIT, VARBIT -> BIT_STRING;
            case ARRAY -> ARRAY;
        };
    }
}
