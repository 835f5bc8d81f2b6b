package dev.parallax.engine.operator.dml;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Appends its input to a table, all or nothing: the input is collected fully first (an error
 * while producing it leaves the table untouched) and then handed to the storage in one append,
 * which itself appends all rows or none. Emits one BIGINT row: the number of rows inserted.
 */
public final class InsertOperator implements Operator {
    private final Operator input;
    private final TableStorage storage;
    private final List<DataType> columnTypes;
    private boolean done;

    public InsertOperator(Operator input, TableStorage storage, List<DataType> columnTypes) {
        this.input = input;
        this.storage = storage;
        this.columnTypes = columnTypes;
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        Batch rows = BatchCopier.emptyLike(columnTypes, Batch.DEFAULT_CAPACITY);
        int rowCount = 0;
        Batch batch;
        while ((batch = input.next()) != null) {
            BatchCopier.appendLiveRows(batch, rows, rowCount);
            rowCount += batch.selectedCount();
        }
        rows.setRowCount(rowCount);
        if (rowCount > 0) {
            storage.append(rows);
        }
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, rowCount);
        result.setRowCount(1);
        return result;
    }

    @Override
    public void close() {
        input.close();
    }
}
