package dev.parallax.planner.result;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A small result computed up front whose columns are all text: SHOW, SHOW ALL and EXPLAIN.
 * Returned as one batch.
 */
public final class TextRowsResult implements Result {
    private final List<ResultColumn> columns;
    private final List<String[]> rows;
    private final String commandTag;
    private final List<String> notices;
    private boolean delivered;
    private long rowCount;

    /** {@code rows} hold one String (or null for SQL NULL) per column; every column is text. */
    public TextRowsResult(List<String> columnNames, List<String[]> rows, String commandTag, List<String> notices) {
        this(columnNames.stream().map(name -> new ResultColumn(name, DataType.TEXT)).toArray(ResultColumn[]::new), rows,
                commandTag, notices);
    }

    private TextRowsResult(ResultColumn[] columns, List<String[]> rows, String commandTag, List<String> notices) {
        this.columns = List.of(columns);
        for (String[] row : rows) {
            if (row.length != columns.length) {
                throw new IllegalArgumentException("row has " + row.length + " values for " + columns.length + " columns");
            }
        }
        this.rows = List.copyOf(rows);
        this.commandTag = Objects.requireNonNull(commandTag, "commandTag");
        this.notices = List.copyOf(notices);
    }

    /**
     * Rows already formatted as text, delivered under {@code columns} as declared (e.g. a query's own
     * columns, so printers still align numbers right); the values stay text. Tag {@code SELECT n}.
     */
    public static TextRowsResult typed(List<ResultColumn> columns, List<String[]> rows) {
        return new TextRowsResult(columns.toArray(ResultColumn[]::new), rows, "SELECT " + rows.size(), List.of());
    }

    /** One text column, one row per line: EXPLAIN's {@code QUERY PLAN}. */
    public static TextRowsResult lines(String columnName, List<String> lines, String commandTag) {
        List<String[]> rows = new ArrayList<>(lines.size());
        for (String line : lines) {
            rows.add(new String[] {line});
        }
        return new TextRowsResult(List.of(columnName), rows, commandTag, List.of());
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
        if (delivered || rows.isEmpty()) {
            delivered = true;
            return null;
        }
        delivered = true;
        // Text vectors whatever the declared types: the values are formatted text (ValueText reads bytes as text).
        Batch batch = Batch.create(columns.stream().map(column -> DataType.TEXT).toList(), rows.size());
        for (int row = 0; row < rows.size(); row++) {
            String[] values = rows.get(row);
            for (int column = 0; column < values.length; column++) {
                BytesVector vector = (BytesVector) batch.column(column);
                if (values[column] == null) {
                    vector.setNull(row);
                } else {
                    vector.set(row, values[column].getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        batch.setRowCount(rows.size());
        rowCount = rows.size();
        return batch;
    }

    /** The command tag: SHOW and EXPLAIN carry no row count, unlike SELECT. */
    @Override
    public String commandTag() {
        return commandTag;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public List<String> notices() {
        return notices;
    }

    @Override
    public void close() {
        delivered = true;
    }
}
