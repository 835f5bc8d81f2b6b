package dev.parallax.engine.type;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.ColumnVector;

/**
 * PostgreSQL's text input and output of values, for every type: what psql prints, what COPY reads
 * and writes, what casts to and from text do. (Body being written by the expressions work.)
 */
public final class ValueText {
    private ValueText() {
    }

    /**
     * Parses {@code text} as a value of {@code type}, returning the engine representation (Long,
     * Double, byte[]); errors are 22P02 "invalid input syntax for type integer: \"x\"" and the like,
     * 22003 for out-of-range values, 22001 for too-long strings.
     */
    public static Object parse(DataType type, String text) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "text input is not wired yet for " + type);
    }

    /** Appends the text form of the (non-null) value at {@code position}, exactly as PostgreSQL prints it. */
    public static void append(StringBuilder out, ColumnVector vector, int position) {
        throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "text output is not wired yet for " + vector.type());
    }

    /** The text form of the value at {@code position}, or null for SQL NULL. */
    public static String format(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        append(out, vector, position);
        return out.toString();
    }
}
