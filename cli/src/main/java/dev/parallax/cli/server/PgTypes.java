package dev.parallax.cli.server;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PostgresType;

/**
 * PostgreSQL's type identity for each Parallax type, as RowDescription and ParameterDescription
 * carry it: the pg_type OID, typlen and the type modifier (atttypmod) clients use for precision,
 * scale and lengths, taken from {@link PostgresType} (which the catalog views show too); and the
 * OIDs of the types clients may send parameters as.
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
    static final int UUID_ARRAY = 2951;

    private PgTypes() {
    }

    static int oid(DataType type) {
        return PostgresType.of(type).oid();
    }

    /** pg_type.typlen: the fixed width in bytes, or -1 for variable-length types. */
    static short length(DataType type) {
        return (short) PostgresType.of(type).length();
    }

    /** atttypmod: -1 when the type has no modifier. */
    static int modifier(DataType type) {
        return PostgresType.modifier(type);
    }
}
