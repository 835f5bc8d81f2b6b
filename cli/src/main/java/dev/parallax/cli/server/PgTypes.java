package dev.parallax.cli.server;

import dev.parallax.engine.type.DataType;

/**
 * PostgreSQL's type identity for each Parallax type, as RowDescription and ParameterDescription
 * carry it: the pg_type OID, typlen and the type modifier (atttypmod) clients use for precision,
 * scale and lengths.
 */
final class PgTypes {
    static final int BOOL = 16;
    static final int BYTEA = 17;
    static final int INT8 = 20;
    static final int INT2 = 21;
    static final int INT4 = 23;
    static final int TEXT = 25;
    static final int OID = 26;
    static final int FLOAT4 = 700;
    static final int FLOAT8 = 701;
    static final int UNKNOWN = 705;
    static final int BPCHAR = 1042;
    static final int VARCHAR = 1043;
    static final int DATE = 1082;
    static final int TIME = 1083;
    static final int TIMESTAMP = 1114;
    static final int TIMESTAMPTZ = 1184;
    static final int INTERVAL = 1186;
    static final int BIT = 1560;
    static final int VARBIT = 1562;
    static final int NUMERIC = 1700;
    static final int UUID = 2950;
    /** PostgreSQL's VARHDRSZ, added to character lengths and numeric precision in type modifiers. */
    private static final int VARHDRSZ = 4;

    private PgTypes() {
    }

    static int oid(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> BOOL;
            case SMALLINT -> INT2;
            case INTEGER -> INT4;
            case BIGINT -> INT8;
            case DECIMAL -> NUMERIC;
            case REAL -> FLOAT4;
            case DOUBLE -> FLOAT8;
            case DATE -> DATE;
            case TIMESTAMP -> TIMESTAMP;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> INTERVAL;
            case CHAR -> BPCHAR;
            case VARCHAR -> VARCHAR;
            // An untyped NULL or literal is reported as text, as PostgreSQL 10+ resolves unknown outputs.
            case TEXT, NULL -> TEXT;
            case BIT -> BIT;
            case VARBIT -> VARBIT;
        };
    }

    /** pg_type.typlen: the fixed width in bytes, or -1 for variable-length types. */
    static short length(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> 1;
            case SMALLINT -> 2;
            case INTEGER, REAL, DATE -> 4;
            case BIGINT, DOUBLE, TIMESTAMP -> 8;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> 16;
            case DECIMAL, CHAR, VARCHAR, TEXT, NULL, BIT, VARBIT -> -1;
        };
    }

    /** atttypmod: -1 when the type has no modifier. */
    static int modifier(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> ((type.precision() << 16) | type.scale()) + VARHDRSZ;
            case CHAR, VARCHAR -> type.length() == DataType.UNBOUNDED ? -1 : type.length() + VARHDRSZ;
            case BIT, VARBIT -> type.length() == DataType.UNBOUNDED ? -1 : type.length();
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DATE, TIMESTAMP, INTERVAL_YEAR_MONTH,
                 INTERVAL_DAY_TIME, TEXT, NULL -> -1;
        };
    }
}
