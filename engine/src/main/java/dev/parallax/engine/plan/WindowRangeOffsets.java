package dev.parallax.engine.plan;

import java.util.Objects;

import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

/**
 * The offsets of a {@link WindowFrame#RANGE} frame's PRECEDING / FOLLOWING bounds, over its one
 * order key: {@code keyType} (smallint, integer, bigint, numeric, real, double precision, date or
 * timestamp), sorted {@code descending} or not with NULLs first or last. {@code start} and
 * {@code end} are the offsets of the bounds that have one (null for the others): non-negative
 * values of a numeric type for numeric keys, intervals for dates and timestamps, as PostgreSQL's
 * in_range functions take them.
 */
public record WindowRangeOffsets(DataType keyType, boolean descending, boolean nullsFirst, Literal start, Literal end) {
    public WindowRangeOffsets {
        Objects.requireNonNull(keyType, "keyType");
        if (start == null && end == null) {
            throw new IllegalArgumentException("a RANGE frame without offsets needs none");
        }
        checkOffset(keyType, start);
        checkOffset(keyType, end);
    }

    private static void checkOffset(DataType keyType, Literal offset) {
        if (offset == null) {
            return;
        }
        if (offset.isNull()) {
            throw new IllegalArgumentException("a RANGE offset cannot be NULL");
        }
        TypeKind kind = offset.type().kind();
        boolean fits = switch (keyType.kind()) {
            case SMALLINT, INTEGER, BIGINT -> kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
            case DECIMAL -> kind.isNumeric() && kind != TypeKind.REAL && kind != TypeKind.DOUBLE;
            case REAL, DOUBLE -> kind.isNumeric();
            case DATE, TIMESTAMP -> kind == TypeKind.INTERVAL_YEAR_MONTH || kind == TypeKind.INTERVAL_DAY_TIME;
            default -> false;
        };
        if (!fits) {
            throw new IllegalArgumentException("no RANGE offset of type " + offset.type() + " over a key of type " + keyType);
        }
    }
}
