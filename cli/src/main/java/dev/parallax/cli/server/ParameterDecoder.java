package dev.parallax.cli.server;

import dev.parallax.engine.type.PostgresType;
import dev.parallax.engine.type.ValueObjects;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Turns Bind parameter values into the Java values {@code PreparedQuery.execute} takes. Text values
 * stay strings (the session parses them with PostgreSQL's input rules for the parameter's type);
 * binary values are decoded by the type the client declared in Parse, or else the type the planner
 * inferred, as PostgreSQL's receive functions read them.
 */
final class ParameterDecoder {
    private ParameterDecoder() {
    }

    /** The Java value of one parameter; {@code oid} is the type whose binary layout {@code value} has. */
    static Object decode(byte[] value, boolean binary, int oid, int parameterNumber) {
        if (value == null) {
            return null;
        }
        if (!binary) {
            return new String(value, StandardCharsets.UTF_8);
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        return switch (oid) {
            case PgTypes.BOOL -> {
                expectLength(value, 1, parameterNumber);
                yield value[0] != 0;
            }
            case PgTypes.INT2 -> {
                expectLength(value, 2, parameterNumber);
                yield buffer.getShort();
            }
            case PgTypes.INT4 -> {
                expectLength(value, 4, parameterNumber);
                yield buffer.getInt();
            }
            case PgTypes.INT8 -> {
                expectLength(value, 8, parameterNumber);
                yield buffer.getLong();
            }
            case PgTypes.FLOAT4 -> {
                expectLength(value, 4, parameterNumber);
                yield buffer.getFloat();
            }
            case PgTypes.FLOAT8 -> {
                expectLength(value, 8, parameterNumber);
                yield buffer.getDouble();
            }
            case PgTypes.DATE -> {
                expectLength(value, 4, parameterNumber);
                yield LocalDate.ofEpochDay(buffer.getInt() + ValueEncoder.POSTGRES_EPOCH_DAYS);
            }
            case PgTypes.TIMESTAMP, PgTypes.TIMESTAMPTZ -> {
                expectLength(value, 8, parameterNumber);
                yield ValueObjects.timestamp(buffer.getLong() + ValueEncoder.POSTGRES_EPOCH_MICROS);
            }
            case PgTypes.NUMERIC -> numeric(buffer, parameterNumber);
            case PgTypes.TEXT, PgTypes.VARCHAR, PgTypes.BPCHAR, PgTypes.UNKNOWN -> new String(value, StandardCharsets.UTF_8);
            case PgTypes.UUID -> {
                expectLength(value, 16, parameterNumber);
                yield new java.util.UUID(buffer.getLong(), buffer.getLong()).toString();
            }
            case PgTypes.BYTEA -> value;
            default -> {
                PostgresType type = PostgresType.byOid(oid);
                if (oid == PgTypes.UUID_ARRAY || type != null && type.element() != null) {
                    yield array(buffer, oid == PgTypes.UUID_ARRAY ? PgTypes.UUID : type.element().oid(), parameterNumber);
                }
                throw new ParameterFormatException("0A000",
                        "binary format of parameter $" + parameterNumber + " of type " + oid + " is not supported; send it as text");
            }
        };
    }

    /**
     * An array in array_send's layout (dimensions, a has-nulls flag, the element type, then per
     * dimension its length and lower bound, then each element as a length and its bytes, -1 for
     * NULL), as its elements' Java values. PostgreSQL's array_recv checks the same things.
     */
    private static Object[] array(ByteBuffer buffer, int elementOid, int parameterNumber) {
        if (buffer.remaining() < 12) {
            throw invalid(parameterNumber);
        }
        int dimensions = buffer.getInt();
        int flags = buffer.getInt();
        int sentElementOid = buffer.getInt();
        if (dimensions < 0 || dimensions > 6) {
            throw new ParameterFormatException("22023", "invalid number of dimensions: " + dimensions);
        }
        if ((flags & ~1) != 0) {
            throw new ParameterFormatException("22P03", "invalid array flags");
        }
        if (sentElementOid != elementOid) {
            throw new ParameterFormatException("42804", "wrong element type");
        }
        if (dimensions == 0) {
            return new Object[0];
        }
        if (dimensions > 1) {
            throw new ParameterFormatException("0A000", "multidimensional arrays are not supported");
        }
        if (buffer.remaining() < 8) {
            throw invalid(parameterNumber);
        }
        int count = buffer.getInt();
        int lowerBound = buffer.getInt();
        // Every element takes at least its 4-byte length: a larger count is a lie, not a big array.
        if (count < 0 || count > buffer.remaining() / 4) {
            throw invalid(parameterNumber);
        }
        if (lowerBound != 1) {
            throw new ParameterFormatException("0A000", "binary array parameter $" + parameterNumber
                    + " has lower bound " + lowerBound + "; send arrays not starting at 1 as text");
        }
        Object[] elements = new Object[count];
        for (int index = 0; index < count; index++) {
            if (buffer.remaining() < 4) {
                throw invalid(parameterNumber);
            }
            int length = buffer.getInt();
            if (length == -1) {
                continue;
            }
            if (length < 0 || length > buffer.remaining()) {
                throw invalid(parameterNumber);
            }
            byte[] element = new byte[length];
            buffer.get(element);
            elements[index] = decode(element, true, elementOid, parameterNumber);
        }
        if (buffer.hasRemaining()) {
            throw invalid(parameterNumber);
        }
        return elements;
    }

    private static Object numeric(ByteBuffer buffer, int parameterNumber) {
        if (buffer.remaining() < 8) {
            throw invalid(parameterNumber);
        }
        int digits = buffer.getShort();
        int weight = buffer.getShort();
        int sign = buffer.getShort() & 0xFFFF;
        int displayScale = buffer.getShort();
        if (digits < 0 || buffer.remaining() != 2 * digits || displayScale < 0) {
            throw invalid(parameterNumber);
        }
        if (sign == 0xC000) {
            return "NaN";
        }
        BigInteger unscaled = BigInteger.ZERO;
        BigInteger base = BigInteger.valueOf(10_000);
        for (int index = 0; index < digits; index++) {
            int digit = buffer.getShort();
            if (digit < 0 || digit >= 10_000) {
                throw invalid(parameterNumber);
            }
            unscaled = unscaled.multiply(base).add(BigInteger.valueOf(digit));
        }
        // The digits are base-10000 groups; the last one has weight (weight - digits + 1).
        BigDecimal result = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - digits + 1));
        if (sign == 0x4000) {
            result = result.negate();
        } else if (sign != 0) {
            throw invalid(parameterNumber);
        }
        return result.setScale(Math.max(displayScale, 0), java.math.RoundingMode.HALF_UP);
    }

    private static void expectLength(byte[] value, int length, int parameterNumber) {
        if (value.length != length) {
            throw invalid(parameterNumber);
        }
    }

    private static ParameterFormatException invalid(int parameterNumber) {
        return new ParameterFormatException("22P03", "incorrect binary data format in bind parameter " + parameterNumber);
    }

    /** A parameter the client sent in a form we cannot read; a statement error (not FATAL). */
    static final class ParameterFormatException extends RuntimeException {
        private final String state;

        ParameterFormatException(String state, String message) {
            super(message);
            this.state = state;
        }

        String state() {
            return state;
        }
    }
}
