package dev.parallax.planner.query;

import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/** A storage that only reports a size and row count: enough for planning. */
record FakeStorage(List<DataType> columnTypes, long rowCount, long sizeBytes) implements TableStorage {
    @Override
    public void append(Batch batch) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public int pageCount() {
        return (int) (sizeBytes / 8192);
    }

    @Override
    public ScanCursor openScan(int chunkPages) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public int readPage(int pageIndex, int[] columns, Batch target) {
        throw new UnsupportedOperationException("planning only");
    }

    @Override
    public void close() {
    }
}
