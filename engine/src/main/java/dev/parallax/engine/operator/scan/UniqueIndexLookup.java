package dev.parallax.engine.operator.scan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.index.LongKeyLookup;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the row of one key through a unique index and reads its columns: the work of a point
 * query. Holds its key batch and output batch and reuses them on every call, so a
 * lookup allocates nothing beyond what the index and the page read do (a single long-held key
 * column goes straight to {@link LongKeyLookup#get(long)}). Used by one thread at a time.
 */
public final class UniqueIndexLookup {
    private final TableStorage storage;
    private final UniqueIndex index;
    private final LongKeyLookup longIndex;
    /** {@link #longIndex}'s scratch, kept here: this lookup skips finding the thread's (see UniqueIndex#newPointScratch). */
    private final Object pointScratch;
    private final int[] columns;
    private final Batch keys;
    private final int[] keyColumns;
    private final Batch output;

    public UniqueIndexLookup(Table table, UniqueConstraint constraint, int[] columns) {
        this.storage = table.storage();
        this.index = constraint.index();
        this.longIndex = UniqueIndexes.longKeys(index);
        this.pointScratch = longIndex == null ? null : longIndex.newPointScratch();
        this.columns = columns.clone();
        List<DataType> keyTypes = new ArrayList<>();
        for (int column : constraint.keyColumns()) {
            keyTypes.add(table.columns().get(column).type());
        }
        this.keyColumns = new int[keyTypes.size()];
        for (int key = 0; key < keyColumns.length; key++) {
            keyColumns[key] = key;
        }
        List<DataType> outputTypes = new ArrayList<>();
        for (int column : columns) {
            outputTypes.add(table.columns().get(column).type());
        }
        this.keys = Batch.create(keyTypes, 1);
        this.output = Batch.create(outputTypes, 1);
    }

    /**
     * The row whose key equals {@code keyValues} (engine representation, in key order), as a batch
     * of one row valid until the next call; null when there is none or a value is NULL.
     */
    public Batch lookup(Object[] keyValues) {
        if (longIndex != null) {
            return keyValues[0] == null ? null : lookupLong(((Number) keyValues[0]).longValue());
        }
        keys.reset();
        for (int key = 0; key < keyValues.length; key++) {
            if (keyValues[key] == null) {
                return null;
            }
            set(keys.column(key), keyValues[key]);
        }
        keys.setRowCount(1);
        while (true) {
            long relocations = storage.relocations();
            long abandoned = storage.abandonedSteps();
            long rowId = index.get(keys, keyColumns, 0);
            Batch found = readRow(storage, rowId, relocations, abandoned, columns, output);
            if (unchanged(storage, relocations, abandoned)) {
                return found;
            }
            Thread.onSpinWait();
        }
    }

    /** As {@link #lookup(Object[])} for a single long-held key column, without an array. */
    public Batch lookupLong(long key) {
        while (true) {
            long relocations = storage.relocations();
            long abandoned = storage.abandonedSteps();
            long rowId = longIndex != null ? longIndex.get(key, pointScratch) : lookupBoxed(key);
            Batch found = readRow(storage, rowId, relocations, abandoned, columns, output);
            if (unchanged(storage, relocations, abandoned)) {
                return found;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Reads the row {@code rowId} names in {@code storage} into {@code output}; null when the key is absent, or when
     * its entry names a slot not published yet: a writer entered a new key (an insert, or an
     * update giving a row a new key) and has not published the row, so the key does not exist yet
     * (entries of keys an update keeps move to the new version only after its publish). A key a
     * running statement gives up (a delete, an update changing the key) reads as absent from the
     * moment its step removes the entry, a little before the publish. Neither answer holds unless
     * {@link #unchanged} confirms it afterwards.
     */
    static Batch readRow(TableStorage storage, long rowId, long relocationsBefore, long abandonedBefore, int[] columns, Batch output) {
        if (rowId == RowIds.ABSENT) {
            return null;
        }
        try {
            if (!storage.readPublishedRow(rowId, columns, output)) {
                return null;
            }
        } catch (IndexOutOfBoundsException movedAway) {
            // A published slot stays readable until a compaction renumbers it, which the caller sees.
            if (unchanged(storage, relocationsBefore, abandonedBefore)) {
                throw movedAway;
            }
            return null;
        }
        return output;
    }

    /**
     * True when the row id the caller looked up and read stayed meaningful: no VACUUM compaction ran
     * or was under way (it renumbers slots: the id may address another row by now, or none), and no
     * write step was abandoned (its slots go to later rows, and its index entries were transient:
     * {@link TableStorage#abandonedSteps()}) since the caller read {@code relocationsBefore} and
     * {@code abandonedBefore}. Otherwise the caller looks the key up again; compactions are one page
     * each and abandoned steps are over, so a retry is rare and short.
     */
    static boolean unchanged(TableStorage storage, long relocationsBefore, long abandonedBefore) {
        return (relocationsBefore & 1) == 0 && storage.relocations() == relocationsBefore
                && storage.abandonedSteps() == abandonedBefore;
    }

    /** Whether {@link #lookupLong} takes the index's unboxed path. */
    public boolean hasLongKey() {
        return longIndex != null;
    }

    private long lookupBoxed(long key) {
        keys.reset();
        ((LongVector) keys.column(0)).set(0, key);
        keys.setRowCount(1);
        return index.get(keys, keyColumns, 0);
    }

    static void set(ColumnVector vector, Object value) {
        switch (vector) {
            case LongVector longs -> longs.set(0, ((Number) value).longValue());
            case DoubleVector doubles -> doubles.set(0, ((Number) value).doubleValue());
            case BytesVector bytes -> bytes.set(0, (byte[]) value);
        }
    }
}
