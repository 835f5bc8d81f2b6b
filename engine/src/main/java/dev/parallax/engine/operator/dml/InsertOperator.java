package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.StagedPages;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;

/**
 * Appends its input to a table, all or nothing: no row becomes visible before the input is
 * exhausted (an error while producing it leaves the table untouched), and the storage publishes
 * all rows or none. Emits one BIGINT row: the number of rows inserted.
 * <p>
 * Past one chunk of rows, a table without unique constraints that is not partitioned gets the
 * rows written straight into pages of their own as they come ({@link StagedPages}), published
 * together at the end: one copy of each value instead of two (collected, then written). Otherwise,
 * and for small inserts (which thus fill the table's last page instead of starting one), the rows
 * are collected and handed to the storage in one append, which
 * enforces the unique constraints with the rows' final ids or routes them to partitions
 * ({@link TableAppender}). When a Gather is right below, {@link ParallelInsertOperator} runs instead
 * and its participants write.
 * <p>
 * Collected rows go into chunks of at most {@link #CHUNK_ROWS} rows that the storage writes
 * one after the other, never in one growing batch: doubling one batch's byte heap copied every
 * value again at each doubling (43% of the samples of {@code insert ... select} of 10M 60-byte
 * texts, JFR on SortQueryBenchmark.repeatedTextIntoTable) and capped an insert at 2 GB of text.
 * Only the first chunk starts small and grows (a one-row INSERT allocates little); every later
 * chunk is allocated at its full size, its byte heaps sized after the chunk before, since the
 * growth copies of each chunk were still 13% of the same profile.
 * <p>
 * Values reach the table through PostgreSQL's assignment conversion (a too-long varchar or a
 * bit string of the wrong length is an error, not truncated as an explicit cast would), and
 * NOT NULL columns are checked here, on the converted rows, so INSERT ... SELECT is covered too.
 */
public final class InsertOperator implements Operator {
    /** Rows per collected chunk: large enough that the per-chunk work of the append is negligible. */
    static final int CHUNK_ROWS = 16 * Batch.DEFAULT_CAPACITY;

    private final Operator input;
    private final Table table;
    private final List<DataType> columnTypes;
    private final AssignedRows assignment;
    private final ExecutionContext context;
    private boolean done;

    public InsertOperator(Operator input, List<DataType> inputTypes, Table table, ExecutionContext context) {
        this.input = input;
        this.table = table;
        this.columnTypes = table.columnTypes();
        this.context = context;
        this.assignment = new AssignedRows(inputTypes, table, context);
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        long rowCount = insert(staged(table));
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, rowCount);
        result.setRowCount(1);
        return result;
    }

    /**
     * The storage to stage rows for ({@link StagedPages}), or null when the rows must be collected
     * and appended in one guarded step: unique constraints need the rows' final ids before the
     * rows are published, and a partitioned table routes rows to several storages.
     */
    static PagedTableStorage staged(Table table) {
        return !table.isPartitioned() && table.uniqueConstraints().isEmpty()
                && table.storage() instanceof PagedTableStorage storage ? storage : null;
    }

    /**
     * Collects the input in chunks; once a full chunk is collected and {@code stageable} is not
     * null, writes the chunks and the rest of the input into staged pages instead. A small insert
     * is appended after the table's rows on its last page; only a large one starts pages of its own.
     */
    private long insert(PagedTableStorage stageable) {
        List<Batch> chunks = new ArrayList<>();
        Batch chunk = null;
        int chunkRows = 0;
        long rowCount = 0;
        StagedPages stage = null;
        try {
            Batch batch;
            while ((batch = input.next()) != null) {
                context.checkCancelled();
                Batch assigned = assignment.convert(batch);
                int count = assigned.selectedCount();
                if (count == 0) {
                    continue;
                }
                rowCount += count;
                if (stage != null) {
                    stage.write(assigned);
                    continue;
                }
                if (chunk == null || chunkRows + count > CHUNK_ROWS) {
                    if (chunk != null) {
                        chunk.setRowCount(chunkRows);
                        if (stageable != null) {
                            stage = stageable.stage();
                            for (Batch collected : chunks) {
                                stage.write(collected);
                            }
                            chunks.clear();
                            chunk = null;
                            stage.write(assigned);
                            continue;
                        }
                        chunk = chunkLike(chunk, Math.max(count, CHUNK_ROWS));
                    } else {
                        chunk = BatchCopier.emptyLike(columnTypes, Math.max(count, Batch.DEFAULT_CAPACITY));
                    }
                    chunks.add(chunk);
                    chunkRows = 0;
                }
                BatchCopier.appendLiveRows(assigned, chunk, chunkRows);
                chunkRows += count;
            }
            if (stage != null) {
                stageable.publishStaged(List.of(stage));
            } else if (chunk != null) {
                chunk.setRowCount(chunkRows);
                TableAppender.appendAll(table, chunks);
            }
            return rowCount;
        } finally {
            if (stage != null) {
                stage.close();
            }
        }
    }

    /**
     * An empty chunk of {@code rows} positions whose byte heaps hold what {@code full}'s held, with
     * an eighth more room, so that a chunk of values like the last one's never grows.
     */
    private Batch chunkLike(Batch full, int rows) {
        ColumnVector[] columns = new ColumnVector[columnTypes.size()];
        for (int column = 0; column < columns.length; column++) {
            DataType type = columnTypes.get(column);
            if (full.column(column) instanceof BytesVector bytes) {
                long heapBytes = (long) bytes.usedBytes() * rows / Math.max(1, full.rowCount());
                columns[column] = new BytesVector(type, rows, (int) Math.min(Integer.MAX_VALUE - 8, heapBytes + heapBytes / 8));
            } else {
                columns[column] = ColumnVector.create(type, rows);
            }
        }
        return new Batch(columns);
    }

    @Override
    public void close() {
        input.close();
    }
}
