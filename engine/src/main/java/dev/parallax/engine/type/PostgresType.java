package dev.parallax.engine.type;

/**
 * The PostgreSQL built-in types Parallax's types are, with PostgreSQL's identity for each: the
 * pg_type OID, typname, typlen, typcategory, and the name {@code format_type} prints. The catalog
 * views (pg_type, pg_attribute) and the wire protocol's type descriptions show these, so clients
 * (psql, pgJDBC) recognise the types by their real OIDs. {@code oid}, {@code name} and {@code char}
 * are listed because the catalog's own columns are described with them.
 */
public enum PostgresType {
    BOOL(16, "bool", "boolean", 1, 'B', true, false),
    CHAR(18, "char", "\"char\"", 1, 'Z', true, false),
    NAME(19, "name", "name", 64, 'S', false, true),
    INT8(20, "int8", "bigint", 8, 'N', true, false),
    INT2(21, "int2", "smallint", 2, 'N', true, false),
    INT4(23, "int4", "integer", 4, 'N', true, false),
    TEXT(25, "text", "text", -1, 'S', false, true),
    OID(26, "oid", "oid", 4, 'N', true, false),
    FLOAT4(700, "float4", "real", 4, 'N', true, false),
    FLOAT8(701, "float8", "double precision", 8, 'N', true, false),
    UNKNOWN(705, "unknown", "unknown", -2, 'X', false, false),
    BPCHAR(1042, "bpchar", "character", -1, 'S', false, true),
    VARCHAR(1043, "varchar", "character varying", -1, 'S', false, true),
    DATE(1082, "date", "date", 4, 'D', true, false),
    TIMESTAMP(1114, "timestamp", "timestamp without time zone", 8, 'D', true, false),
    TIMESTAMPTZ(1184, "timestamptz", "timestamp with time zone", 8, 'D', true, false),
    INTERVAL(1186, "interval", "interval", 16, 'T', false, false),
    BIT(1560, "bit", "bit", -1, 'V', false, false),
    VARBIT(1562, "varbit", "bit varying", -1, 'V', false, false),
    NUMERIC(1700, "numeric", "numeric", -1, 'N', false, false),
    UUID(2950, "uuid", "uuid", 16, 'U', false, false),
    // Arrays (category A): their element types are declared above.
    INT2VECTOR(22, "int2vector", "int2vector", -1, 'A', false, false, INT2),
    OIDVECTOR(30, "oidvector", "oidvector", -1, 'A', false, false, OID),
    BOOL_ARRAY(1000, "_bool", "boolean[]", -1, 'A', false, false, BOOL),
    CHAR_ARRAY(1002, "_char", "\"char\"[]", -1, 'A', false, false, CHAR),
    NAME_ARRAY(1003, "_name", "name[]", -1, 'A', false, true, NAME),
    INT2_ARRAY(1005, "_int2", "smallint[]", -1, 'A', false, false, INT2),
    INT4_ARRAY(1007, "_int4", "integer[]", -1, 'A', false, false, INT4),
    TEXT_ARRAY(1009, "_text", "text[]", -1, 'A', false, true, TEXT),
    BPCHAR_ARRAY(1014, "_bpchar", "character[]", -1, 'A', false, true, BPCHAR),
    VARCHAR_ARRAY(1015, "_varchar", "character varying[]", -1, 'A', false, true, VARCHAR),
    INT8_ARRAY(1016, "_int8", "bigint[]", -1, 'A', false, false, INT8),
    FLOAT4_ARRAY(1021, "_float4", "real[]", -1, 'A', false, false, FLOAT4),
    FLOAT8_ARRAY(1022, "_float8", "double precision[]", -1, 'A', false, false, FLOAT8),
    OID_ARRAY(1028, "_oid", "oid[]", -1, 'A', false, false, OID),
    TIMESTAMP_ARRAY(1115, "_timestamp", "timestamp without time zone[]", -1, 'A', false, false, TIMESTAMP),
    TIMESTAMPTZ_ARRAY(1185, "_timestamptz", "timestamp with time zone[]", -1, 'A', false, false, TIMESTAMPTZ),
    DATE_ARRAY(1182, "_date", "date[]", -1, 'A', false, false, DATE),
    INTERVAL_ARRAY(1187, "_interval", "interval[]", -1, 'A', false, false, INTERVAL),
    BIT_ARRAY(1561, "_bit", "bit[]", -1, 'A', false, false, BIT),
    VARBIT_ARRAY(1563, "_varbit", "bit varying[]", -1, 'A', false, false, VARBIT),
    NUMERIC_ARRAY(1231, "_numeric", "numeric[]", -1, 'A', false, false, NUMERIC),
    UUID_ARRAY(2951, "_uuid", "uuid[]", -1, 'A', false, false, UUID);

    /** PostgreSQL's VARHDRSZ, added to character lengths and numeric precision in type modifiers. */
    private static final int VARHDRSZ = 4;
    /** The OID of PostgreSQL's default collation, pg_attribute.attcollation of collatable columns. */
    public static final long DEFAULT_COLLATION_OID = 100;

    private final int oid;
    private final String typeName;
    private final String formattedName;
    private final int length;
    private final char category;
    private final boolean byValue;
    private final boolean collatable;
    private final PostgresType element;

    PostgresType(int oid, String typeName, String formattedName, int length, char category, boolean byValue,
                 boolean collatable) {
        this(oid, typeName, formattedName, length, category, byValue, collatable, null);
    }

    PostgresType(int oid, String typeName, String formattedName, int length, char category, boolean byValue,
                 boolean collatable, PostgresType element) {
        this.element = element;
        this.oid = oid;
        this.typeName = typeName;
        this.formattedName = formattedName;
        this.length = length;
        this.category = category;
        this.byValue = byValue;
        this.collatable = collatable;
    }

    /** The PostgreSQL type a Parallax type is; an untyped NULL is text, as PostgreSQL 10+ resolves unknown outputs. */
    public static PostgresType of(DataType type) {
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
            case TIMESTAMPTZ -> TIMESTAMPTZ;
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> INTERVAL;
            case CHAR -> BPCHAR;
            case VARCHAR -> VARCHAR;
            case TEXT, NULL -> TEXT;
            case BIT -> BIT;
            case VARBIT -> VARBIT;
            case UUID -> UUID;
            case ARRAY -> type.isVector()
                    ? (type.element().kind() == TypeKind.SMALLINT ? INT2VECTOR : OIDVECTOR)
                    : arrayOf(of(type.element()));
        };
    }

    /** The array type whose elements are {@code element} (pg_type.typarray), or null. */
    public static PostgresType arrayOf(PostgresType element) {
        for (PostgresType type : values()) {
            if (type.element == element && type != INT2VECTOR && type != OIDVECTOR) {
                return type;
            }
        }
        return null;
    }

    /** pg_type.typelem: the element type of an array type, null for other types. */
    public PostgresType element() {
        return element;
    }

    /** The type with pg_type OID {@code oid}, or null. */
    public static PostgresType byOid(long oid) {
        for (PostgresType type : values()) {
            if (type.oid == oid) {
                return type;
            }
        }
        return null;
    }

    /** pg_attribute.atttypmod of a column of {@code type}: -1 when the type has no modifier. */
    public static int modifier(DataType type) {
        return switch (type.kind()) {
            case DECIMAL -> ((type.precision() << 16) | type.scale()) + VARHDRSZ;
            case CHAR, VARCHAR -> type.length() == DataType.UNBOUNDED ? -1 : type.length() + VARHDRSZ;
            case BIT, VARBIT -> type.length() == DataType.UNBOUNDED ? -1 : type.length();
            case TIMESTAMP, TIMESTAMPTZ -> type.precision();
            case ARRAY -> type.isVector() ? -1 : modifier(type.element());
            case BOOLEAN, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DATE, INTERVAL_YEAR_MONTH,
                 INTERVAL_DAY_TIME, TEXT, UUID, NULL -> -1;
        };
    }

    /**
     * PostgreSQL's {@code format_type(oid, typmod)} for this type: the SQL name with the modifier
     * ({@code character varying(20)}, {@code numeric(10,2)}); a modifier of -1 (or NULL) means none.
     */
    public String format(int typeModifier) {
        if (element != null && this != INT2VECTOR && this != OIDVECTOR) {
            return element.format(typeModifier) + "[]";
        }
        if (typeModifier < 0) {
            return switch (this) {
                // Without a modifier these print as the type names a cast would take (bit alone is quoted:
                // unquoted, the grammar would read it as bit(1)).
                case BPCHAR -> "bpchar";
                case BIT -> "\"bit\"";
                default -> formattedName;
            };
        }
        return switch (this) {
            case BPCHAR, VARCHAR -> formattedName + "(" + (typeModifier - VARHDRSZ) + ")";
            case BIT, VARBIT -> formattedName + "(" + typeModifier + ")";
            case NUMERIC -> {
                int packed = typeModifier - VARHDRSZ;
                yield "numeric(" + ((packed >> 16) & 0xffff) + "," + (packed & 0xffff) + ")";
            }
            case TIMESTAMP -> "timestamp(" + typeModifier + ") without time zone";
            case TIMESTAMPTZ -> "timestamp(" + typeModifier + ") with time zone";
            default -> formattedName;
        };
    }

    public int oid() {
        return oid;
    }

    /** pg_type.typname. */
    public String typeName() {
        return typeName;
    }

    /** pg_type.typlen: the fixed width in bytes, -1 for variable-length types, -2 for C strings. */
    public int length() {
        return length;
    }

    /** pg_type.typcategory. */
    public char category() {
        return category;
    }

    /** pg_type.typbyval. */
    public boolean byValue() {
        return byValue;
    }

    /** Whether columns of this type carry a collation (pg_type.typcollation is the default collation). */
    public boolean collatable() {
        return collatable;
    }

    /**
     * pg_attribute.attstorage of a column of this type, PostgreSQL's default: {@code p} (plain) for
     * fixed-width types, {@code m} (main) for numeric, {@code x} (extended) for other variable-length ones.
     */
    public char storage() {
        if (length > 0) {
            return 'p';
        }
        return this == NUMERIC ? 'm' : 'x';
    }

    /** psql's word for {@link #storage()} in \d+ (plain, main, extended). */
    public String storageName() {
        return switch (storage()) {
            case 'p' -> "plain";
            case 'm' -> "main";
            default -> "extended";
        };
    }
}
