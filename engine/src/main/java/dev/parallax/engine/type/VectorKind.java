package dev.parallax.engine.type;

/** Which column vector class holds values of a type while a batch is processed. */
public enum VectorKind {
    /** {@link dev.parallax.engine.vector.LongVector}: integers, booleans, scaled decimals, dates, timestamps, intervals. */
    LONG,
    /** {@link dev.parallax.engine.vector.DoubleVector}: REAL and DOUBLE PRECISION. */
    DOUBLE,
    /** {@link dev.parallax.engine.vector.BytesVector}: text (UTF-8) and bit strings. */
    BYTES
}
