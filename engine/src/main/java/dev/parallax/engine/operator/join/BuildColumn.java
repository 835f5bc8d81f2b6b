package dev.parallax.engine.operator.join;

import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import dev.parallax.engine.vector.Batch;

/**
 * One column of a finished hash table, its arrays per chunk resolved once so that probe loops
 * index {@code values[chunk][row]} directly. Exactly one of {@code longs}, {@code doubles},
 * {@code bytes} is non-null; {@code nulls[chunk]} is null for a chunk without NULLs in the column.
 */
record BuildColumn(long[][] longs, double[][] doubles, BytesVector[] bytes, boolean[][] nulls) {
    static BuildColumn of(Batch[] chunks, int column, ColumnVector prototype) {
        int count = chunks.length;
        boolean[][] nulls = new boolean[count][];
        for (int chunk = 0; chunk < count; chunk++) {
            ColumnVector vector = chunks[chunk].column(column);
            nulls[chunk] = vector.mayHaveNulls() ? vector.nulls() : null;
        }
        return switch (prototype) {
            case LongVector ignored -> {
                long[][] values = new long[count][];
                for (int chunk = 0; chunk < count; chunk++) {
                    values[chunk] = ((LongVector) chunks[chunk].column(column)).values();
                }
                yield new BuildColumn(values, null, null, nulls);
            }
            case DoubleVector ignored -> {
                double[][] values = new double[count][];
                for (int chunk = 0; chunk < count; chunk++) {
                    values[chunk] = ((DoubleVector) chunks[chunk].column(column)).values();
                }
                yield new BuildColumn(null, values, null, nulls);
            }
            case BytesVector ignored -> {
                BytesVector[] values = new BytesVector[count];
                for (int chunk = 0; chunk < count; chunk++) {
                    values[chunk] = (BytesVector) chunks[chunk].column(column);
                }
                yield new BuildColumn(null, null, values, nulls);
            }
        };
    }
}
