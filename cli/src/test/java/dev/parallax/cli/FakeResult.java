package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;

/**
 * A result made by hand: columns, rows given as PostgreSQL text (null for NULL) and parsed with
 * {@link ValueText#parse}, delivered as one batch whose selection skips a filler row so printers
 * are seen to honour selections. A result without columns carries only a command tag.
 */
final class FakeResult implements Result {
    private final List<ResultColumn> columns;
    private final List<String[]> rows;
    private final String commandTag;
    private final List<String> notices = new ArrayList<>();
    private boolean delivered;
    boolean closed;

    private FakeResult(List<ResultColumn> columns, List<String[]> rows, String commandTag) {
        this.columns = columns;
        this.rows = rows;
        this.commandTag = commandTag;
    }

    static FakeResult rows(List<ResultColumn> columns, String[]... rows) {
        return new FakeResult(columns, List.of(rows), "SELECT " + rows.length);
    }

    static FakeResult tag(String commandTag) {
        return new FakeResult(List.of(), List.of(), commandTag);
    }

    FakeResult withNotice(String notice) {
        notices.add(notice);
        return this;
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean hasRows() {
        return !columns.isEmpty() || commandTag.startsWith("SELECT");
    }

    @Override
    public Batch nextBatch() {
        if (delivered || !hasRows()) {
            return null;
        }
        delivered = true;
        // Position 0 holds a filler row that the selection leaves out.
        int positions = rows.size() + 1;
        ColumnVector[] vectors = new ColumnVector[columns.size()];
        for (int column = 0; column < vectors.length; column++) {
            DataType type = columns.get(column).type();
            vectors[column] = ColumnVector.create(type, positions);
            vectors[column].setNull(0);
            for (int row = 0; row < rows.size(); row++) {
                String text = rows.get(row)[column];
                if (text == null) {
                    vectors[column].setNull(row + 1);
                } else {
                    store(vectors[column], row + 1, ValueText.parse(type, text));
                }
            }
        }
        Batch batch = new Batch(vectors);
        batch.setRowCount(positions);
        int[] selection = new int[rows.size()];
        for (int row = 0; row < selection.length; row++) {
            selection[row] = row + 1;
        }
        batch.setSelection(selection, selection.length);
        return batch;
    }

    private static void store(ColumnVector vector, int position, Object value) {
        switch (vector) {
            case LongVector longs -> longs.set(position, (Long) value);
            case DoubleVector doubles -> doubles.set(position, (Double) value);
            case BytesVector bytes -> bytes.set(position, (byte[]) value);
        }
    }

    @Override
    public String commandTag() {
        return commandTag;
    }

    @Override
    public long rowCount() {
        return rows.size();
    }

    @Override
    public List<String> notices() {
        return notices;
    }

    @Override
    public void close() {
        closed = true;
    }
}
