package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;

/**
 * Resolves PostgreSQL type names, with their spellings and modifiers, to engine types:
 * integer/int/int4, bigint/int8, smallint/int2, boolean/bool, numeric/decimal(p[,s]),
 * real/float4, double precision/float8/float[(p)], date, timestamp [(p)] [with[out] time zone], timestamptz[(p)],
 * char/character[(n)], varchar/character varying[(n)], text, bit[(n)], bit varying/varbit[(n)], uuid.
 * NUMERIC without a precision is rejected: Parallax holds decimals exactly as scaled longs and
 * needs to know the scale (at most 18 digits).
 */
public final class TypeNameParser {
    private TypeNameParser() {
    }

    /**
     * The type a whole type name spells ({@code int4}, {@code character varying(10)}, {@code text[]}),
     * e.g. a JDBC {@code createArrayOf} element type name; 42704 for an unknown name, 42601 for
     * anything after it.
     */
    public static DataType parse(String typeName) {
        TokenCursor cursor = new TokenCursor(typeName);
        DataType type = parse(cursor);
        cursor.expectEnd();
        return type;
    }

    static DataType parse(TokenCursor cursor) {
        Token start = cursor.peek();
        if (!start.isName()) {
            throw cursor.syntaxError(start);
        }
        String name = cursor.name();
        if (name.equals("pg_catalog") && cursor.acceptSymbol(".")) {
            name = cursor.name();
        }
        DataType type = switch (name) {
            case "integer", "int", "int4" -> DataType.INTEGER;
            case "bigint", "int8" -> DataType.BIGINT;
            case "smallint", "int2" -> DataType.SMALLINT;
            case "boolean", "bool" -> DataType.BOOLEAN;
            case "real", "float4" -> DataType.REAL;
            case "float8" -> DataType.DOUBLE;
            case "double" -> {
                cursor.expect("precision");
                yield DataType.DOUBLE;
            }
            case "float" -> floatType(cursor);
            case "numeric", "decimal", "dec" -> decimal(cursor, start);
            case "date" -> DataType.DATE;
            case "timestamp" -> timestamp(cursor);
            case "timestamptz" -> DataType.timestamp(timestampPrecision(cursor), true);
            case "text" -> DataType.TEXT;
            case "varchar" -> DataType.varchar(optionalLength(cursor, "varchar", DataType.UNBOUNDED));
            case "char", "character", "bpchar" -> {
                if (cursor.accept("varying")) {
                    yield DataType.varchar(optionalLength(cursor, "varchar", DataType.UNBOUNDED));
                }
                yield DataType.charType(optionalLength(cursor, "char", name.equals("bpchar") ? DataType.UNBOUNDED : 1));
            }
            case "bit" -> {
                if (cursor.accept("varying")) {
                    yield DataType.varbit(optionalLength(cursor, "varbit", DataType.UNBOUNDED));
                }
                yield DataType.bit(optionalLength(cursor, "bit", 1));
            }
            case "varbit" -> DataType.varbit(optionalLength(cursor, "varbit", DataType.UNBOUNDED));
            case "uuid" -> DataType.UUID;
            default -> throw new ParallaxException(SqlState.UNDEFINED_OBJECT,
                    "type \"" + name + "\" does not exist", null, null, start.position(), null);
        };
        if (cursor.acceptSymbol("[")) {
            // type[] and type[n]: one dimension; PostgreSQL does not enforce the size either.
            if (!cursor.peek().isSymbol("]")) {
                integer(cursor);
            }
            if (!cursor.acceptSymbol("]")) {
                throw cursor.syntaxError(cursor.peek());
            }
            if (cursor.peek().isSymbol("[")) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                        "multidimensional arrays are not supported: Parallax arrays have one dimension",
                        null, null, cursor.peek().position(), null);
            }
            return DataType.array(type);
        }
        return type;
    }

    private static DataType floatType(TokenCursor cursor) {
        if (!cursor.peek().isSymbol("(")) {
            return DataType.DOUBLE;
        }
        cursor.next();
        Token precisionToken = cursor.peek();
        int precision = integer(cursor);
        cursor.expectSymbol(")");
        if (precision < 1) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "precision for type float must be at least 1 bit",
                    null, null, precisionToken.position(), null);
        }
        if (precision > 53) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "precision for type float must be less than 54 bits",
                    null, null, precisionToken.position(), null);
        }
        // PostgreSQL: float(1..24) is real, float(25..53) is double precision.
        return precision <= 24 ? DataType.REAL : DataType.DOUBLE;
    }

    private static DataType decimal(TokenCursor cursor, Token start) {
        if (!cursor.acceptSymbol("(")) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "numeric without a precision is not supported", null,
                    "Parallax stores numeric values exactly with at most " + DataType.MAX_DECIMAL_PRECISION
                            + " digits: declare numeric(p, s) with p <= " + DataType.MAX_DECIMAL_PRECISION + ".",
                    start.position(), null);
        }
        Token precisionToken = cursor.peek();
        int precision = integer(cursor);
        int scale = 0;
        if (cursor.acceptSymbol(",")) {
            scale = integer(cursor);
        }
        cursor.expectSymbol(")");
        if (precision < 1 || precision > 1000) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "NUMERIC precision " + precision + " must be between 1 and 1000", null, null, precisionToken.position(), null);
        }
        if (scale < 0 || scale > precision) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "NUMERIC scale " + scale + " must be between 0 and precision " + precision, null, null, precisionToken.position(), null);
        }
        try {
            return DataType.decimal(precision, scale);
        } catch (ParallaxException unsupported) {
            throw unsupported.withPosition(precisionToken.position());
        }
    }

    private static DataType timestamp(TokenCursor cursor) {
        int precision = timestampPrecision(cursor);
        if (cursor.accept("without")) {
            cursor.expect("time");
            cursor.expect("zone");
        } else if (cursor.accept("with")) {
            cursor.expect("time");
            cursor.expect("zone");
            return DataType.timestamp(precision, true);
        }
        return DataType.timestamp(precision, false);
    }

    /**
     * An optional {@code (p)} after timestamp or timestamptz: the fractional digits values are rounded
     * to, {@link DataType#UNBOUNDED} when absent. Negative is 22023; above 6 is taken as 6, PostgreSQL's
     * maximum (PostgreSQL also warns "TIMESTAMP(7) precision reduced to maximum allowed, 6").
     */
    private static int timestampPrecision(TokenCursor cursor) {
        if (!cursor.acceptSymbol("(")) {
            return DataType.UNBOUNDED;
        }
        Token precisionToken = cursor.peek();
        int precision = integer(cursor);
        cursor.expectSymbol(")");
        if (precision < 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "TIMESTAMP(" + precision + ") precision must not be negative", null, null, precisionToken.position(), null);
        }
        return Math.min(precision, DataType.MAX_TIMESTAMP_PRECISION);
    }

    private static int optionalLength(TokenCursor cursor, String typeName, int absent) {
        if (!cursor.acceptSymbol("(")) {
            return absent;
        }
        Token lengthToken = cursor.peek();
        int length = integer(cursor);
        cursor.expectSymbol(")");
        if (length < 1) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "length for type " + typeName + " must be at least 1", null, null, lengthToken.position(), null);
        }
        if (length > 10_485_760) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "length for type " + typeName + " cannot exceed 10485760", null, null, lengthToken.position(), null);
        }
        return length;
    }

    private static int integer(TokenCursor cursor) {
        boolean negative = cursor.acceptSymbol("-");
        Token token = cursor.peek();
        if (token.kind() != TokenKind.NUMBER || !token.value().chars().allMatch(Character::isDigit)) {
            throw cursor.syntaxError(token);
        }
        cursor.next();
        try {
            int value = Integer.parseInt(token.value());
            return negative ? -value : value;
        } catch (NumberFormatException tooLarge) {
            throw cursor.syntaxError(token);
        }
    }
}
