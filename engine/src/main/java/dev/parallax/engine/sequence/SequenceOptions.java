package dev.parallax.engine.sequence;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.Objects;

/**
 * The definition of a sequence (CREATE SEQUENCE's options after defaults are applied): its type
 * (smallint, integer or bigint), increment, bounds, start, cache size and whether it cycles.
 */
public record SequenceOptions(DataType type, long increment, long minValue, long maxValue, long start, long cache, boolean cycle) {
    public SequenceOptions {
        Objects.requireNonNull(type, "type");
    }

    /** What CREATE SEQUENCE left unsaid, as a nullable value per option; {@link #resolve} applies PostgreSQL's defaults. */
    public record Declared(DataType type, Long increment, Long minValue, Long maxValue, Long start, Long cache, Boolean cycle) {
        public static final Declared NONE = new Declared(null, null, null, null, null, null, null);
    }

    /**
     * PostgreSQL's defaults and checks (sequence.c init_params): an ascending sequence runs from 1 to
     * the type's maximum, a descending one from the type's minimum to -1, starting at its bound;
     * errors 22023 for a zero increment, bounds outside the type or crossed, a start outside the bounds.
     */
    public static SequenceOptions resolve(Declared declared) {
        DataType type = declared.type() == null ? DataType.BIGINT : declared.type();
        if (type.kind() != TypeKind.SMALLINT && type.kind() != TypeKind.INTEGER && type.kind() != TypeKind.BIGINT) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "sequence type must be smallint, integer, or bigint");
        }
        long typeMin = typeMinimum(type);
        long typeMax = typeMaximum(type);
        long increment = declared.increment() == null ? 1 : declared.increment();
        if (increment == 0) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "INCREMENT must not be zero");
        }
        long maxValue = declared.maxValue() != null ? declared.maxValue() : increment > 0 ? typeMax : -1;
        long minValue = declared.minValue() != null ? declared.minValue() : increment > 0 ? 1 : typeMin;
        String typeName = type.sqlName();
        if (maxValue < typeMin || maxValue > typeMax) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "MAXVALUE (%d) is out of range for sequence data type %s",
                    maxValue, typeName);
        }
        if (minValue < typeMin || minValue > typeMax) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "MINVALUE (%d) is out of range for sequence data type %s",
                    minValue, typeName);
        }
        if (minValue >= maxValue) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "MINVALUE (%d) must be less than MAXVALUE (%d)",
                    minValue, maxValue);
        }
        long start = declared.start() != null ? declared.start() : increment > 0 ? minValue : maxValue;
        if (start < minValue) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "START value (%d) cannot be less than MINVALUE (%d)",
                    start, minValue);
        }
        if (start > maxValue) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "START value (%d) cannot be greater than MAXVALUE (%d)",
                    start, maxValue);
        }
        long cache = declared.cache() == null ? 1 : declared.cache();
        if (cache <= 0) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "CACHE (%d) must be greater than zero", cache);
        }
        return new SequenceOptions(type, increment, minValue, maxValue, start, cache, declared.cycle() != null && declared.cycle());
    }

    private static long typeMinimum(DataType type) {
        return switch (type.kind()) {
            case SMALLINT -> Short.MIN_VALUE;
            case INTEGER -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
    }

    private static long typeMaximum(DataType type) {
        return switch (type.kind()) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }
}
