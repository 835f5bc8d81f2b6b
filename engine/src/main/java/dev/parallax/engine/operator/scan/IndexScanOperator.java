package dev.parallax.engine.operator.scan;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.operator.ValueComparison;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.sort.ValueOrder;
import dev.parallax.engine.storage.OpenSnapshot;
import dev.parallax.engine.storage.SnapshotUse;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Reads the rows of an {@link OrderedIndex} range in key order. On the first call it brings a
 * stale index up to date (appended rows merged in, or a rebuild with {@code maintenance_work_mem}),
 * then finds the range with
 * binary searches over the index's positions, reading each probed key through its row id (a
 * handful of single-row reads: log2(entries) per bound), and then fetches the rows of the range a
 * batch of row ids at a time with {@link TableStorage#readRows}, keeping only the rows the scan's
 * snapshot sees (the index keeps entries of deleted rows). Rows are read lazily, so a Limit above
 * stops the scan after the batches it needs.
 *
 * <p>A backward scan walks the same range from its end, so rows come descending with NULL keys
 * first.
 *
 * <p>Bounds are resolved values in the engine's representation of the key type (Long, Double,
 * byte[]); a NULL bound matches no row. NULL keys sort last in the index: a scan with a bound stops
 * before them, a scan without bounds returns them last.
 */
public final class IndexScanOperator implements Operator {
    /** A bound value meaning "this end is open". */
    public static final Object OPEN = new Object();

    private final ExecutionContext context;
    private final OrderedIndex index;
    private final TableStorage storage;
    private final int[] columns;
    private final int[] keyColumn;
    private final TypeKind keyKind;
    private final Object lower;
    private final boolean lowerInclusive;
    private final Object upper;
    private final boolean upperInclusive;
    private final boolean backward;
    private final Batch batch;
    private final Batch keyBatch;
    private final long[] rowIds;
    private boolean positioned;
    /** The hold on the index from the first batch until close. */
    private OrderedIndex.Reader reader;
    /** Keeps VACUUM from renumbering the slots the index's row ids address, from the first batch until close. */
    private OpenSnapshot rowIdHold;
    private long position;
    private long end;

    /**
     * @param lower a bound value, null for a NULL bound (no rows), or {@link #OPEN}
     * @param upper likewise
     */
    public IndexScanOperator(ExecutionContext context, OrderedIndex index, int[] columns, Object lower, boolean lowerInclusive,
                             Object upper, boolean upperInclusive, boolean backward, Batch batch) {
        this.context = context;
        this.index = index;
        this.storage = index.table().storage();
        this.columns = columns.clone();
        int keyColumnIndex = index.keyColumns()[0];
        this.keyColumn = new int[] {keyColumnIndex};
        DataType keyType = index.table().columns().get(keyColumnIndex).type();
        this.keyKind = keyType.kind();
        this.lower = lower;
        this.lowerInclusive = lowerInclusive;
        this.upper = upper;
        this.upperInclusive = upperInclusive;
        this.backward = backward;
        this.batch = batch;
        this.keyBatch = Batch.create(List.of(keyType), 1);
        this.rowIds = new long[Batch.DEFAULT_CAPACITY];
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        if (!positioned) {
            position();
            positioned = true;
        }
        while (position < end) {
            int count = (int) Math.min(rowIds.length, end - position);
            if (backward) {
                // The range shrinks from its end: [position, end) stays the part not yet returned.
                for (int offset = 0; offset < count; offset++) {
                    rowIds[offset] = index.rowId(end - 1 - offset);
                }
                end -= count;
            } else {
                for (int offset = 0; offset < count; offset++) {
                    rowIds[offset] = index.rowId(position + offset);
                }
                position += count;
            }
            // Entries of rows deleted before this scan, or appended after it, are not its rows.
            int visible = storage.retainVisible(rowIds, 0, count, rowIdHold.snapshot());
            if (visible > 0) {
                storage.readRows(rowIds, 0, visible, columns, batch);
                return batch;
            }
        }
        return null;
    }

    private void position() {
        // Held until close: brings a stale index up to date (the first scan after inserts) and keeps
        // other sessions from rebuilding or dropping it under this scan.
        Settings settings = context.settings();
        // Registered before the index is checked: a compaction either happened before (the index
        // is then stale and rebuilt) or waits until close.
        rowIdHold = storage.openSnapshot(SnapshotUse.ROW_IDS);
        reader = index.openReader(SortOptions.forMaintenance(settings), context.workers(),
                settings.getInt("max_parallel_maintenance_workers"), settings.getInt("max_parallel_workers"));
        long entries = index.entryCount();
        if (lower == OPEN && upper == OPEN) {
            position = 0;
            end = entries;
            return;
        }
        if (lower == null || upper == null) {
            position = 0;
            end = 0;
            return;
        }
        long nonNullEnd = firstNull(entries);
        position = lower == OPEN ? 0 : firstAbove(0, nonNullEnd, lower, !lowerInclusive);
        end = upper == OPEN ? nonNullEnd : firstAbove(position, nonNullEnd, upper, upperInclusive);
        if (end < position) {
            end = position;
        }
    }

    /** The first position in {@code [0, entries)} whose key is NULL, or {@code entries}: NULLs sort last. */
    private long firstNull(long entries) {
        long low = 0;
        long high = entries;
        while (low < high) {
            long middle = (low + high) >>> 1;
            if (readKey(middle).column(0).isNull(0)) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /**
     * The first position in {@code [low, high)} (non-NULL keys, ascending) whose key is greater
     * than {@code bound} ({@code strictly}) or at least {@code bound}, or {@code high}.
     */
    private long firstAbove(long low, long high, Object bound, boolean strictly) {
        while (low < high) {
            long middle = (low + high) >>> 1;
            int order = compareKey(readKey(middle).column(0), bound);
            if (strictly ? order > 0 : order >= 0) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    private Batch readKey(long indexPosition) {
        rowIds[0] = index.rowId(indexPosition);
        storage.readRows(rowIds, 0, 1, keyColumn, keyBatch);
        return keyBatch;
    }

    /** Compares the key at position 0 of {@code key} with {@code bound}, in PostgreSQL's order for the key type. */
    private int compareKey(ColumnVector key, Object bound) {
        return switch (keyKind.vectorKind()) {
            case LONG -> Long.compare(((LongVector) key).values()[0], (Long) bound);
            case DOUBLE -> ValueOrder.compareDoubles(((DoubleVector) key).values()[0], (Double) bound);
            case BYTES -> {
                BytesVector bytes = (BytesVector) key;
                byte[] value = (byte[]) bound;
                int keyLength = bytes.length(0);
                int boundLength = value.length;
                if (keyKind == TypeKind.CHAR) {
                    // char(n) compares without its trailing blanks, as PostgreSQL's bpchar does.
                    keyLength = withoutTrailingBlanks(bytes.data(), bytes.offset(0), keyLength);
                    boundLength = withoutTrailingBlanks(value, 0, boundLength);
                }
                yield ValueComparison.compare(keyKind, bytes.data(), bytes.offset(0), keyLength, value, 0, boundLength);
            }
        };
    }

    private static int withoutTrailingBlanks(byte[] data, int offset, int length) {
        while (length > 0 && data[offset + length - 1] == ' ') {
            length--;
        }
        return length;
    }

    @Override
    public void close() {
        // Pages and the index belong to the table; the batches are on-heap. Only the holds are released.
        try {
            if (reader != null) {
                reader.close();
            }
        } finally {
            if (rowIdHold != null) {
                rowIdHold.close();
            }
        }
    }
}
