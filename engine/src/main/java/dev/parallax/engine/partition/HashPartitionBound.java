package dev.parallax.engine.partition;

/**
 * A hash partition's bound, PostgreSQL's {@code FOR VALUES WITH (MODULUS m, REMAINDER r)}: the
 * partition holds the rows whose key hash, taken modulo {@code modulus} as an unsigned number,
 * equals {@code remainder}.
 */
public record HashPartitionBound(int modulus, int remainder) {
    public HashPartitionBound {
        if (modulus <= 0 || remainder < 0 || remainder >= modulus) {
            throw new IllegalArgumentException("invalid hash partition bound: modulus " + modulus + ", remainder " + remainder);
        }
    }

    /** The bound as {@code \d} and PostgreSQL's pg_get_expr print it. */
    public String text() {
        return "FOR VALUES WITH (modulus " + modulus + ", remainder " + remainder + ")";
    }
}
