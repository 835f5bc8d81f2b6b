package dev.parallax.jdbc;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;
import dev.parallax.planner.ParameterBinder;

import java.util.ArrayList;
import java.util.List;

/**
 * A small result the driver computes itself (DatabaseMetaData's tables, columns, types...): Java
 * values converted once into one batch, so that {@link ParallaxResultSet} serves them with the same
 * getters as query results. Values are those {@link ParameterBinder#convert} accepts for the column
 * type (String, Integer, Short, Boolean, ...), or null.
 */
final class RowListResult implements Result {
    private final List<ResultColumn> columns;
    private final Batch batch;
    private boolean delivered;

    RowListResult(List<ResultColumn> columns, List<Object[]> rows) {
        this.columns = List.copyOf(columns);
        this.batch = Batch.create(columns.stream().map(ResultColumn::type).toList(), Math.max(1, rows.size()));
        for (int position = 0; position < rows.size(); position++) {
            Object[] row = rows.get(position);
            if (row.length != columns.size()) {
                throw new IllegalArgumentException("row has " + row.length + " values for " + columns.size() + " columns");
            }
            for (int column = 0; column < row.length; column++) {
                store(batch.column(column), position, row[column]);
            }
        }
        batch.setRowCount(rows.size());
    }

    private static void store(ColumnVector vector, int position, Object value) {
        Object engineValue = ParameterBinder.convert(vector.type(), value);
        switch (vector) {
            case LongVector longs -> {
                if (engineValue == null) {
                    longs.setNull(position);
                } else {
                    longs.set(position, (Long) engineValue);
                }
            }
            case DoubleVector doubles -> {
                if (engineValue == null) {
                    doubles.setNull(position);
                } else {
                    doubles.set(position, (Double) engineValue);
                }
            }
            case BytesVector bytes -> {
                if (engineValue == null) {
                    bytes.setNull(position);
                } else {
                    bytes.set(position, (byte[]) engineValue);
                }
            }
        }
    }

    /** A result with these column names and types and no rows. */
    static RowListResult empty(List<ResultColumn> columns) {
        return new RowListResult(columns, new ArrayList<>());
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean hasRows() {
        return true;
    }

    @Override
    public Batch nextBatch() {
        if (delivered) {
            return null;
        }
        delivered = true;
        return batch;
    }

    @Override
    public String commandTag() {
        return "SELECT " + batch.rowCount();
    }

    @Override
    public long rowCount() {
        return delivered ? batch.rowCount() : 0;
    }

    @Override
    public List<String> notices() {
        return List.of();
    }

    @Override
    public void close() {
        delivered = true;
    }
}
