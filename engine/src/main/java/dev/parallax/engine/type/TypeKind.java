package dev.parallax.engine.type;

/**
 * The SQL types Parallax stores and computes with, and how each is represented in a batch.
 * The representation is the contract between planner, operators and storage:
 * <ul>
 *   <li>BOOLEAN: long 0 or 1.</li>
 *   <li>SMALLINT, INTEGER, BIGINT: long (range checked against the declared type on store/cast).</li>
 *   <li>DECIMAL(p,s), p &lt;= 18: long holding value * 10^s ("scaled long").</li>
 *   <li>REAL, DOUBLE: double.</li>
 *   <li>DATE: long days since 1970-01-01.</li>
 *   <li>TIMESTAMP: long microseconds since 1970-01-01 00:00:00 (without time zone).</li>
 *   <li>TIMESTAMPTZ: long microseconds since 1970-01-01 00:00:00 UTC (timestamp with time zone: an instant, read and
 *       printed in the session's {@link SessionTimeZone}); orders, hashes and stores as TIMESTAMP does.</li>
 *   <li>INTERVAL_YEAR_MONTH: long months; INTERVAL_DAY_TIME: long microseconds.</li>
 *   <li>CHAR(n), VARCHAR(n), TEXT: UTF-8 bytes; CHAR(n) is stored blank-padded to n characters.</li>
 *   <li>BIT(n), VARBIT(n): {@link BitString} layout: bits packed most significant first, preceded by a 4-byte big-endian bit length.</li>
 *   <li>UUID: its 16 bytes in network order (PostgreSQL's pg_uuid_t), a BYTES value like BIT's. Held as bytes
 *       rather than two longs so that every BYTES path applies unchanged: unsigned byte comparison is
 *       PostgreSQL's uuid_cmp (memcmp), the sort's packed prefix is the first 8 bytes big-endian as for
 *       text, hashing for joins, GROUP BY, DISTINCT and partitions reads the bytes, and the unique index
 *       encodes them as a length-prefixed key; two longs would need a second long vector kind in every
 *       operator, page layout and index encoder.</li>
 *   <li>ARRAY: a one-dimensional array of the element type {@link DataType#element()}, as {@link ArrayValue} bytes.</li>
 *   <li>NULL: the type of an untyped NULL literal; never stored.</li>
 * </ul>
 */
public enum TypeKind {
    BOOLEAN(VectorKind.LONG, 1),
    SMALLINT(VectorKind.LONG, 2),
    INTEGER(VectorKind.LONG, 4),
    BIGINT(VectorKind.LONG, 8),
    DECIMAL(VectorKind.LONG, 8),
    REAL(VectorKind.DOUBLE, 4),
    DOUBLE(VectorKind.DOUBLE, 8),
    DATE(VectorKind.LONG, 4),
    TIMESTAMP(VectorKind.LONG, 8),
    TIMESTAMPTZ(VectorKind.LONG, 8),
    INTERVAL_YEAR_MONTH(VectorKind.LONG, 8),
    INTERVAL_DAY_TIME(VectorKind.LONG, 8),
    CHAR(VectorKind.BYTES, 0),
    VARCHAR(VectorKind.BYTES, 0),
    TEXT(VectorKind.BYTES, 0),
    BIT(VectorKind.BYTES, 0),
    VARBIT(VectorKind.BYTES, 0),
    ARRAY(VectorKind.BYTES, 0),
    UUID(VectorKind.BYTES, 0),
    NULL(VectorKind.LONG, 8);

    private final VectorKind vectorKind;
    private final int storageWidth;

    TypeKind(VectorKind vectorKind, int storageWidth) {
        this.vectorKind = vectorKind;
        this.storageWidth = storageWidth;
    }

    public VectorKind vectorKind() {
        return vectorKind;
    }

    /** Bytes per value in a page for fixed-width kinds; 0 for variable-width kinds. */
    public int storageWidth() {
        return storageWidth;
    }

    public boolean isFixedWidth() {
        return storageWidth > 0;
    }

    public boolean isNumeric() {
        return switch (this) {
            case SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE -> true;
            case BOOLEAN, DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, CHAR, VARCHAR, TEXT, BIT, VARBIT, ARRAY, UUID, NULL -> false;
        };
    }

    public boolean isText() {
        return this == CHAR || this == VARCHAR || this == TEXT;
    }

    public boolean isBitString() {
        return this == BIT || this == VARBIT;
    }
}
