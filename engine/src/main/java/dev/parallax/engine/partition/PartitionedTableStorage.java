package dev.parallax.engine.partition;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.storage.ScanCursor;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;
import java.util.Objects;

/**
 * The "storage" of a partitioned table, which holds no rows itself (as in PostgreSQL): its
 * partitions and their router. It has no pages; its row count and size are the sums over the
 * partitions, so cost estimates and the degree of parallelism see the whole table. Rows are never written or read here: writers route
 * them to the partitions ({@link PartitionRouter}) and the planner scans the partitions, so those
 * methods fail loudly rather than silently read nothing.
 */
public final class PartitionedTableStorage implements TableStorage {
    private final List<DataType> columnTypes;
    private volatile PartitionRouter router;

    public PartitionedTableStorage(List<DataType> columnTypes, PartitionRouter router) {
        this.columnTypes = List.copyOf(columnTypes);
        this.router = Objects.requireNonNull(router, "router");
    }

    /** The current partitions; a new router is installed on every partition added or dropped. */
    public PartitionRouter router() {
        return router;
    }

    /** Installs {@code next}; called by the catalog under its DDL lock. */
    public void setRouter(PartitionRouter next) {
        this.router = Objects.requireNonNull(next, "next");
    }

    @Override
    public List<DataType> columnTypes() {
        return columnTypes;
    }

    @Override
    public void append(Batch batch) {
        throw new IllegalStateException("rows of a partitioned table are appended to its partitions");
    }

    @Override
    public void appendAll(List<Batch> batches) {
        throw new IllegalStateException("rows of a partitioned table are appended to its partitions");
    }

    /** No pages of its own (VACUUM and ANALYZE of the parent read none; its partitions are maintained themselves). */
    @Override
    public int pageCount() {
        return 0;
    }

    @Override
    public long rowCount() {
        long rows = 0;
        for (Table partition : router.partitions()) {
            rows += partition.storage().rowCount();
        }
        return rows;
    }

    @Override
    public long sizeBytes() {
        long bytes = 0;
        for (Table partition : router.partitions()) {
            bytes += partition.storage().sizeBytes();
        }
        return bytes;
    }

    @Override
    public ScanCursor openScan(int chunkPages) {
        throw new IllegalStateException("a partitioned table is scanned through its partitions");
    }

    @Override
    public int readPage(int pageIndex, int[] columns, Batch target) {
        throw new IllegalStateException("a partitioned table is read through its partitions");
    }

    @Override
    public int readRows(long[] rowIds, int from, int count, int[] columns, Batch target) {
        throw new IllegalStateException("a partitioned table is read through its partitions");
    }

    /** Nothing to free: the catalog drops the partitions, which own the pages. */
    @Override
    public void close() {
    }
}
