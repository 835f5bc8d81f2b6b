package dev.parallax.engine.operator;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** An on-heap {@link TableStorage} for operator tests: pages of {@code rowsPerPage} rows, optional failure on one page. */
public final class InMemoryTableStorage implements TableStorage {
    private final List<DataType> types;
    private final int rowsPerPage;
    private final List<Batch> pages = new CopyOnWriteArrayList<>();
    private volatile int failingPage = -1;

    public InMemoryTableStorage(List<DataType> types, int rowsPerPage) {
        this.types = List.copyOf(types);
        this.rowsPerPage = rowsPerPage;
    }

    /** Makes reading page {@code page} throw 22012, as if a worker's expression failed there. */
    public void failOnPage(int page) {
        this.failingPage = page;
    }

    @Override
    public List<DataType> columnTypes() {
        return types;
    }

    @Override
    public synchronized void append(Batch batch) {
        Batch rows = BatchCopier.compact(batch);
        List<Batch> added = new ArrayList<>();
        int[] positions = new int[rowsPerPage];
        for (int first = 0; first < rows.rowCount(); first += rowsPerPage) {
            int count = Math.min(rowsPerPage, rows.rowCount() - first);
            for (int index = 0; index < count; index++) {
                positions[index] = first + index;
            }
            Batch page = Batch.create(types, rowsPerPage);
            BatchCopier.gather(rows, positions, 0, count, page);
            added.add(page);
        }
        pages.addAll(added);
    }

    @Override
    public int pageCount() {
        return pages.size();
    }

    @Override
    public long rowCount() {
        return pages.stream().mapToLong(Batch::rowCount).sum();
    }

    @Override
    public long sizeBytes() {
        return (long) pages.size() * 8192;
    }

    @Override
    public ScanCursor openScan(int chunkPages) {
        int pageCount = pages.size();
        int chunk = chunkPages == 0 ? 2 : chunkPages;
        AtomicInteger next = new AtomicInteger();
        return () -> {
            int first = next.getAndAdd(chunk);
            if (first >= pageCount) {
                return ScanCursor.EXHAUSTED;
            }
            return ScanCursor.chunk(first, Math.min(chunk, pageCount - first));
        };
    }

    @Override
    public int readPage(int pageIndex, int[] columns, Batch target) {
        if (pageIndex == failingPage) {
            throw new ParallaxException(SqlState.DIVISION_BY_ZERO, "division by zero");
        }
        Batch page = pages.get(pageIndex);
        int[] positions = new int[page.rowCount()];
        for (int index = 0; index < positions.length; index++) {
            positions[index] = index;
        }
        Batch projected = new Batch(java.util.Arrays.stream(columns).mapToObj(page::column).toArray(dev.parallax.engine.vector.ColumnVector[]::new));
        projected.setRowCount(page.rowCount());
        BatchCopier.gather(projected, positions, 0, positions.length, target);
        return page.rowCount();
    }

    @Override
    public void close() {
        pages.clear();
    }
}
