package dev.parallax.engine.operator.recursive;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's working table and intermediate table of a recursive query: the rows the current run
 * of the recursive term reads ({@link #rows()}), and the rows that run produces for the next one
 * ({@link #add}), which {@link #advance()} turns into the rows read. Rows are held on the heap as
 * compacted batch copies and charged to the memory manager (53200 past the limit), as a join's
 * build side is: a recursion that grows without bound fails there instead of exhausting the JVM.
 * Used by the one thread running the Recursive Union.
 */
public final class WorkTable implements AutoCloseable {
    private final MemoryManager memory;
    private List<Batch> rows = new ArrayList<>();
    private long rowsBytes;
    private List<Batch> next = new ArrayList<>();
    private long nextBytes;

    public WorkTable(MemoryManager memory) {
        this.memory = memory;
    }

    /** The rows the current run reads, batch after batch, each without a selection; not to be changed. */
    public List<Batch> rows() {
        return rows;
    }

    /** Copies the live rows of {@code batch} into the rows of the next run. */
    void add(Batch batch) {
        long bytes = bytes(batch);
        memory.reserve(MemoryTag.WORK_TABLES, bytes);
        nextBytes += bytes;
        next.add(BatchCopier.compact(batch));
    }

    /** Whether the current run produced no row for the next one. */
    boolean nextIsEmpty() {
        return next.isEmpty();
    }

    /** Makes the rows produced by the current run the rows the next run reads; drops the ones read. */
    void advance() {
        memory.release(MemoryTag.WORK_TABLES, rowsBytes);
        rows = next;
        rowsBytes = nextBytes;
        next = new ArrayList<>();
        nextBytes = 0;
    }

    /**
     * The bytes a copy of the live rows holds, counted as a join's build rows are: 8 per value and
     * a NULL flag per column, plus the text bytes and their offset and length.
     */
    private static long bytes(Batch batch) {
        int count = batch.selectedCount();
        long bytes = 9L * count * batch.columnCount();
        for (int column = 0; column < batch.columnCount(); column++) {
            ColumnVector vector = batch.column(column);
            if (vector instanceof BytesVector text) {
                int[] lengths = text.lengths();
                for (int index = 0; index < count; index++) {
                    bytes += 8 + lengths[batch.position(index)];
                }
            }
        }
        return bytes;
    }

    /** Drops all rows and returns their bytes to the memory manager. */
    @Override
    public void close() {
        memory.release(MemoryTag.WORK_TABLES, rowsBytes + nextBytes);
        rows = List.of();
        next = List.of();
        rowsBytes = 0;
        nextBytes = 0;
    }
}
