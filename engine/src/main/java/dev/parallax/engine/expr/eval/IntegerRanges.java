package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.TypeKind;

/** Value ranges of the integer kinds and PostgreSQL's message when a result leaves them. */
final class IntegerRanges {
    private IntegerRanges() {
    }

    static long minimum(TypeKind kind) {
        return switch (kind) {
            case SMALLINT -> Short.MIN_VALUE;
            case INTEGER -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
    }

    static long maximum(TypeKind kind) {
        return switch (kind) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }

    static String outOfRangeMessage(TypeKind kind) {
        return switch (kind) {
            case SMALLINT -> "smallint out of range";
            case INTEGER -> "integer out of range";
            case DECIMAL -> "numeric field overflow";
            default -> "bigint out of range";
        };
    }
}
