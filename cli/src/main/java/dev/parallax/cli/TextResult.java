package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A result the shell builds itself (catalog listings of {@code \d} and friends): text columns and
 * rows given as strings (null for NULL), delivered as one batch so every printer can show it.
 */
final class TextResult implements Result {
    private final List<ResultColumn> columns;
    private final List<String[]> rows;
    private boolean delivered;

    TextResult(List<String> columnNames, List<String[]> rows) {
        this(columnNames.stream().map(name -> new ResultColumn(name, DataType.TEXT)).toArray(ResultColumn[]::new), rows);
    }

    private TextResult(ResultColumn[] columns, List<String[]> rows) {
        this.columns = List.of(columns);
        this.rows = List.copyOf(rows);
    }

    /**
     * Rows already read from a query result as text, re-delivered under the query's own columns so
     * printers align numbers as before; the values stay text (the printers only show text).
     */
    static TextResult typed(List<ResultColumn> columns, List<String[]> rows) {
        return new TextResult(columns.toArray(ResultColumn[]::new), rows);
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
        ColumnVector[] vectors = new ColumnVector[columns.size()];
        for (int column = 0; column < vectors.length; column++) {
            // Always text vectors: the printers format values with ValueText, which reads bytes as text.
            BytesVector vector = (BytesVector) ColumnVector.create(DataType.TEXT, Math.max(rows.size(), 1));
            for (int row = 0; row < rows.size(); row++) {
                String value = rows.get(row)[column];
                if (value == null) {
                    vector.setNull(row);
                } else {
                    vector.set(row, value.getBytes(StandardCharsets.UTF_8));
                }
            }
            vectors[column] = vector;
        }
        Batch batch = new Batch(vectors);
        batch.setRowCount(rows.size());
        return batch;
    }

    @Override
    public String commandTag() {
        return "SELECT " + rows.size();
    }

    @Override
    public long rowCount() {
        return rows.size();
    }

    @Override
    public List<String> notices() {
        return List.of();
    }

    @Override
    public void close() {
    }
}
