package dev.parallax.engine.index;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import java.util.List;

/**
 * The canonical byte encoding of a key: two keys encode to the same bytes exactly when PostgreSQL's
 * equality calls them equal. Per column: long-held values as 8 big-endian bytes; doubles likewise
 * after folding -0 into 0 and every NaN into one (PostgreSQL treats NaNs as equal); variable-width
 * values as a length prefix and their bytes, CHAR(n) without trailing blanks (PostgreSQL's bpchar
 * equality ignores them). The length prefix keeps multi-column keys unambiguous. Also formats keys
 * for error details. Immutable; shared by all threads.
 */
final class KeyEncoder {
    private static final int FIXED = 0;
    private static final int FLOATING = 1;
    private static final int VARIABLE = 2;
    private static final int BLANK_PADDED = 3;
    private static final byte BLANK = ' ';

    /** Names for messages; replaced by {@link #renamed} (the key's types never change). */
    private volatile IndexDefinition definition;
    private final int[] encodings;

    KeyEncoder(IndexDefinition definition) {
        this.definition = definition;
        List<DataType> types = definition.columnTypes();
        this.encodings = new int[types.size()];
        for (int column = 0; column < encodings.length; column++) {
            TypeKind kind = types.get(column).kind();
            encodings[column] = switch (kind.vectorKind()) {
                case LONG -> FIXED;
                case DOUBLE -> FLOATING;
                case BYTES -> kind == TypeKind.CHAR ? BLANK_PADDED : VARIABLE;
            };
        }
    }

    /**
     * Encodes the key at {@code position} into {@code out}; returns false (leaving {@code out}
     * undefined) when a key column is NULL. Primary keys turn that into an error, see {@link #checkNotNull}.
     */
    boolean encode(Batch batch, int[] keyColumns, int position, KeyBytes out) {
        out.clear();
        for (int column = 0; column < encodings.length; column++) {
            ColumnVector vector = batch.column(keyColumns[column]);
            if (vector.isNull(position)) {
                return false;
            }
            switch (encodings[column]) {
                case FIXED -> out.putLong(((LongVector) vector).get(position));
                case FLOATING -> out.putLong(canonicalBits(((DoubleVector) vector).get(position)));
                case VARIABLE -> {
                    BytesVector bytes = (BytesVector) vector;
                    int length = bytes.length(position);
                    out.putLength(length);
                    out.putBytes(bytes.data(), bytes.offset(position), length);
                }
                default -> {
                    BytesVector bytes = (BytesVector) vector;
                    byte[] data = bytes.data();
                    int offset = bytes.offset(position);
                    int length = bytes.length(position);
                    while (length > 0 && data[offset + length - 1] == BLANK) {
                        length--;
                    }
                    out.putLength(length);
                    out.putBytes(data, offset, length);
                }
            }
        }
        return true;
    }

    private static long canonicalBits(double value) {
        if (value == 0.0) {
            return 0L;
        }
        return Double.doubleToLongBits(value);
    }

    /** Whether a key column at {@code position} is NULL (such a key is never indexed). */
    boolean hasNull(Batch batch, int[] keyColumns, int position) {
        for (int column = 0; column < encodings.length; column++) {
            if (batch.column(keyColumns[column]).isNull(position)) {
                return true;
            }
        }
        return false;
    }

    /** For primary keys: throws PostgreSQL's 23502 naming the first NULL key column at {@code position}. */
    void checkNotNull(Batch batch, int[] keyColumns, int position) {
        for (int column = 0; column < encodings.length; column++) {
            if (batch.column(keyColumns[column]).isNull(position)) {
                throw nullViolation(column);
            }
        }
    }

    /** Takes the names of {@code renamed}, a definition of the same key under other names. */
    void renamed(IndexDefinition renamed) {
        if (!renamed.columnTypes().equals(definition.columnTypes())) {
            throw new IllegalArgumentException("a rename changes names only: " + renamed.columnTypes());
        }
        definition = renamed;
    }

    ParallaxException nullViolation(int column) {
        return ParallaxException.of(SqlState.NOT_NULL_VIOLATION,
                "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                definition.columnNames().get(column), definition.relationName());
    }

    /** PostgreSQL's 23505 for the key at {@code position}: message and {@code Key (cols)=(values) already exists.} */
    ParallaxException duplicate(Batch batch, int[] keyColumns, int position) {
        StringBuilder detail = new StringBuilder("Key ");
        ValueText.appendKey(detail, definition.columnNames(), batch, position, keyColumns);
        detail.append(" already exists.");
        return new ParallaxException(SqlState.UNIQUE_VIOLATION,
                "duplicate key value violates unique constraint \"" + definition.constraintName() + "\"",
                detail.toString(), null, 0, null);
    }

    /** A guess at the encoded size of a key, which Chronicle Map needs to size its entries. */
    double averageKeyBytes() {
        double total = 0;
        List<DataType> types = definition.columnTypes();
        for (int column = 0; column < encodings.length; column++) {
            DataType type = types.get(column);
            total += switch (encodings[column]) {
                case FIXED, FLOATING -> Long.BYTES;
                default -> 1 + (type.length() == DataType.UNBOUNDED ? 24 : Math.min(type.length(), 64));
            };
        }
        return total;
    }
}
