package dev.parallax.engine.sort;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.spill.SpillRunReader;
import dev.parallax.engine.spill.SpillRunWriter;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Sorts a stream of batches: the reusable component behind ORDER BY, merge steps and index builds.
 *
 * <p>Rows are materialized column-wise into growable primitive arrays. Within {@code work_mem}
 * they are sorted in memory by packed 64-bit prefix keys ({@link RunSorter}); past it, each full
 * buffer is sorted and written to a temporary file as a run, and {@link #finish()} merges the runs
 * ({@link SortedStreamMerger}). With a limit, a bounded heap keeps only the first N rows
 * ({@link TopNHeap}) while they fit in {@code work_mem}. The sort is stable: rows with equal keys
 * come out in input order, whichever method ran.
 *
 * <p>Lifecycle, on one thread: {@link #add} any number of times, then {@link #finish()} once, then
 * read the returned output; {@link #close()} (or closing the output) removes the sort's temporary
 * directory and its files, also after a failure or before the output was read to the end.
 */
public final class Sorter implements AutoCloseable {
    /** A run is written before a byte heap nears Java's array limit, whatever work_mem allows. */
    private static final long MAXIMUM_BUFFER_BYTES = 1L << 30;
    private static final int MAXIMUM_BUFFER_ROWS = 1 << 28;
    /**
     * Buffered bytes past which a sort expecting many rows sizes its buffer once for them (see
     * {@link #expectInputRows}); below it the buffer grows by doubling, so small sorts never
     * allocate for an estimate.
     */
    static final long PRESIZE_AFTER_BYTES = 4L << 20;

    private final List<DataType> columnTypes;
    private final List<SortKey> keys;
    private final long limit;
    private final SortOptions options;
    private final long rowOverheadBytes;
    private final RunSorter runSorter;
    private final SpillRunWriter runWriter = new SpillRunWriter();
    private final List<Path> runFiles = new ArrayList<>();
    private final List<Long> runRowCounts = new ArrayList<>();

    private TopNHeap topN;
    private Batch buffer;
    private int bufferRows;
    /** True while the buffered rows arrived in sort order: the buffer then needs no sort. */
    private boolean bufferInOrder = true;
    private long presortedRuns;
    private long expectedInputRows;
    private boolean presized;
    private final TemporaryDirectory temporaryDirectory;
    private long inputRows;
    private long peakMemoryBytes;
    private long diskBytes;
    private SortMethod method;
    private boolean finished;
    private boolean closed;

    /**
     * @param columnTypes the types of the input batches' columns, which are also the output's
     * @param keys        the sort keys, most significant first; each names a column of {@code columnTypes}
     * @param limit       return only the first {@code limit} rows, or -1 for all
     * @param options     memory bound, prefix keys on or off, where to spill
     */
    public Sorter(List<DataType> columnTypes, List<SortKey> keys, long limit, SortOptions options) {
        this.columnTypes = List.copyOf(Objects.requireNonNull(columnTypes, "columnTypes"));
        this.keys = List.copyOf(Objects.requireNonNull(keys, "keys"));
        this.options = Objects.requireNonNull(options, "options");
        if (limit < -1) {
            throw new IllegalArgumentException("limit must be -1 (none) or at least 0: " + limit);
        }
        for (SortKey key : this.keys) {
            if (key.column() < 0 || key.column() >= this.columnTypes.size()) {
                throw new IllegalArgumentException("sort key column " + key.column() + " is not among " + this.columnTypes.size() + " columns");
            }
        }
        this.limit = limit;
        this.rowOverheadBytes = rowOverheadBytes(this.columnTypes, options.abbreviatedKeys());
        this.runSorter = new RunSorter(this.keys, options.abbreviatedKeys());
        this.temporaryDirectory = new TemporaryDirectory(options.tempDirectory(), "sort");
        if (limit > 0 && limit <= MAXIMUM_BUFFER_ROWS) {
            this.topN = new TopNHeap(this.columnTypes, this.keys, (int) limit, rowOverheadBytes);
        } else {
            this.buffer = BatchCopier.emptyLike(this.columnTypes, Batch.DEFAULT_CAPACITY);
        }
    }

    /**
     * Bytes a buffered row costs besides its variable-width values: 8 per value and 1 per null
     * flag, the row's two int slots in the sort order arrays, and with prefix keys its two longs.
     */
    private static long rowOverheadBytes(List<DataType> columnTypes, boolean abbreviatedKeys) {
        long bytes = 2L * Integer.BYTES + (abbreviatedKeys ? 2L * Long.BYTES : 0);
        for (DataType type : columnTypes) {
            bytes += type.vectorKind() == VectorKind.BYTES ? 2L * Integer.BYTES + 1 : Long.BYTES + 1;
        }
        return bytes;
    }

    /**
     * Tells the sort how many rows its input will probably have (the planner's estimate; 0 or less:
     * unknown). Once the buffered rows pass {@link #PRESIZE_AFTER_BYTES}, the buffer is sized for
     * that many rows at the width seen so far, or for as many as {@code work_mem} holds when
     * fewer, instead of doubling its arrays on the way there: the doubling copies of a byte heap
     * of hundreds of megabytes were two thirds of the time Sorter.add took (68% of its samples,
     * JFR on SortQueryBenchmark.repeatedTextIntoTable, 10M rows, work_mem 256MB). A wrong
     * estimate costs at most one allocation within {@code work_mem}; the buffer still grows past
     * it when the input is larger. Call before the first {@link #add}.
     */
    public void expectInputRows(long rows) {
        this.expectedInputRows = rows;
    }

    /** Adds the live rows of {@code batch} (its selection honoured); the batch is not kept. */
    public void add(Batch batch) {
        if (finished || closed) {
            throw new IllegalStateException("rows added after the sort finished");
        }
        int count = batch.selectedCount();
        if (count == 0) {
            return;
        }
        inputRows += count;
        if (limit == 0) {
            return;
        }
        try {
            if (topN != null) {
                topN.add(batch);
                peakMemoryBytes = Math.max(peakMemoryBytes, topN.estimatedBytes());
                if (topN.estimatedBytes() > options.workMemBytes()) {
                    leaveTopN();
                }
                return;
            }
            BatchCopier.appendLiveRows(batch, buffer, bufferRows);
            if (bufferInOrder) {
                bufferInOrder = inOrder(buffer, bufferRows == 0 ? 0 : bufferRows - 1, bufferRows + count);
            }
            bufferRows += count;
            long bytes = bufferBytes();
            peakMemoryBytes = Math.max(peakMemoryBytes, bytes);
            if (bytes > options.workMemBytes() || bytes > MAXIMUM_BUFFER_BYTES || bufferRows > MAXIMUM_BUFFER_ROWS) {
                spillBuffer();
            } else if (!presized && expectedInputRows > 0 && bytes >= PRESIZE_AFTER_BYTES) {
                presizeBuffer(bytes);
            }
        } catch (RuntimeException failure) {
            closeAfter(failure);
            throw failure;
        }
    }

    /**
     * True when rows {@code from .. end-1} of {@code rows} are in sort order, each pair of
     * neighbours compared on the full keys (PostgreSQL's qsort checks for presorted input the same
     * way). Input that arrives sorted, or whose keys are all equal (the seed's 10M copies of one
     * text: every prefix ties, so the prefix sort bought nothing and the ties cost a full
     * comparison each anyway), then needs no sort: one comparison per row, the identity order,
     * and sequential writes of its runs. Unsorted input stops the check at its first descent,
     * usually within a few rows.
     */
    private boolean inOrder(Batch rows, int from, int end) {
        if (end - from < 2) {
            return true;
        }
        RowComparator comparator = RowComparator.create(rows, keys);
        for (int row = from + 1; row < end; row++) {
            if (comparator.compare(row - 1, row) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The rows' order for a run: the identity when they arrived in order, else sorted. */
    private int[] order(Batch rows, int rowCount) {
        if (!bufferInOrder) {
            return runSorter.sort(rows, rowCount);
        }
        presortedRuns++;
        int[] order = new int[rowCount];
        for (int row = 0; row < rowCount; row++) {
            order[row] = row;
        }
        return order;
    }

    /** The heap outgrew work_mem: keep its rows (the best so far) as an ordinary buffer that may spill. */
    private void leaveTopN() {
        topN.compact();
        buffer = topN.rows();
        bufferRows = topN.rowCount();
        topN = null;
        bufferInOrder = false; // the heap's compacted rows are in no particular order
    }

    /** Sizes the buffer once for the expected rows, at most what work_mem (and the array limits) let one run hold. */
    private void presizeBuffer(long bytes) {
        presized = true;
        double bytesPerRow = (double) bytes / bufferRows;
        // The batch that passes work_mem is still buffered before the run is written: room for two more.
        long rowsInWorkMem = (long) (Math.min(options.workMemBytes(), MAXIMUM_BUFFER_BYTES) / bytesPerRow) + 2L * Batch.DEFAULT_CAPACITY;
        long rows = Math.min(Math.min(expectedInputRows + expectedInputRows / 16, rowsInWorkMem), MAXIMUM_BUFFER_ROWS);
        if (rows <= bufferRows) {
            return;
        }
        buffer.ensureCapacity((int) rows);
        for (ColumnVector column : buffer.columns()) {
            if (column instanceof BytesVector text) {
                long heapBytes = (long) ((double) text.usedBytes() / bufferRows * rows);
                text.ensureDataCapacity((int) Math.min(heapBytes + heapBytes / 16, MAXIMUM_BUFFER_BYTES + (1 << 20)));
            }
        }
    }

    private long bufferBytes() {
        long bytes = (long) bufferRows * rowOverheadBytes;
        for (ColumnVector column : buffer.columns()) {
            if (column instanceof BytesVector text) {
                bytes += text.usedBytes();
            }
        }
        return bytes;
    }

    private void spillBuffer() {
        int[] order = order(buffer, bufferRows);
        Path file = temporaryDirectory.newFile("run");
        runFiles.add(file);
        runRowCounts.add((long) bufferRows);
        diskBytes += runWriter.write(file, buffer, order, bufferRows);
        buffer.setRowCount(bufferRows);
        buffer.reset();
        bufferRows = 0;
        bufferInOrder = true;
    }

    /** Ends the input and returns the rows in order (at most {@code limit} of them). Call once. */
    public SortedOutput finish() {
        if (finished || closed) {
            throw new IllegalStateException("the sort already finished");
        }
        finished = true;
        try {
            if (topN != null) {
                method = SortMethod.TOP_N_HEAPSORT;
                topN.compact();
                Batch rows = topN.rows();
                int count = topN.rowCount();
                topN = null;
                bufferInOrder = false;
                return inMemoryOutput(rows, count);
            }
            if (runFiles.isEmpty()) {
                method = SortMethod.QUICKSORT;
                return inMemoryOutput(buffer, bufferRows);
            }
            method = SortMethod.EXTERNAL_MERGE;
            if (bufferRows > 0) {
                spillBuffer();
            }
            buffer = null;
            List<SortedOutput> readers = new ArrayList<>(runFiles.size());
            try {
                for (int run = 0; run < runFiles.size(); run++) {
                    readers.add(new RunOutput(new SpillRunReader(runFiles.get(run), runRowCounts.get(run), columnTypes)));
                }
            } catch (RuntimeException failure) {
                readers.forEach(SortedOutput::close);
                throw failure;
            }
            return new SortedStreamMerger(columnTypes, keys, readers, limit < 0 ? Long.MAX_VALUE : limit, this::close);
        } catch (RuntimeException failure) {
            closeAfter(failure);
            throw failure;
        }
    }

    private SortedOutput inMemoryOutput(Batch rows, int rowCount) {
        int[] order = order(rows, rowCount);
        long memory = (long) rowCount * rowOverheadBytes;
        for (ColumnVector column : rows.columns()) {
            if (column instanceof BytesVector text) {
                memory += text.usedBytes();
            }
        }
        peakMemoryBytes = Math.max(peakMemoryBytes, memory);
        buffer = null;
        int outputRows = limit < 0 ? rowCount : (int) Math.min(limit, rowCount);
        return new BufferedOutput(columnTypes, rows, order, outputRows, this::close);
    }

    /** What the sort did; complete once {@link #finish()} returned. */
    public SortStatistics statistics() {
        SortMethod reported = method != null ? method : (runFiles.isEmpty() ? (topN != null ? SortMethod.TOP_N_HEAPSORT : SortMethod.QUICKSORT) : SortMethod.EXTERNAL_MERGE);
        return new SortStatistics(reported, peakMemoryBytes, diskBytes, inputRows, runFiles.size(), runSorter.abandoned());
    }

    /** Runs (the in-memory sort counts as one) whose rows arrived in order and were not sorted. */
    public long presortedRuns() {
        return presortedRuns;
    }

    /** The sort's temporary directory while it exists, else null (for tests and diagnostics). */
    public Path temporaryDirectoryOrNull() {
        return temporaryDirectory.pathOrNull();
    }

    /** A sorted run read back from its file, as one input of the merge. */
    private record RunOutput(SpillRunReader reader) implements SortedOutput {
        @Override
        public Batch next() {
            return reader.next();
        }

        @Override
        public void close() {
            reader.close();
        }
    }

    private void closeAfter(RuntimeException failure) {
        try {
            close();
        } catch (RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }

    /** Drops buffered rows and deletes the temporary directory with its runs; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        buffer = null;
        topN = null;
        temporaryDirectory.close();
    }
}
