package dev.parallax.engine.index;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.vector.Batch;

import java.util.Objects;

/**
 * A unique index that passes every call to another one and runs a test's hook once, at the next
 * call of a chosen kind: it stops a reader or a writer at an exact point (a reader between its
 * lookup and its read, a writer inside its step before the publish) so that a race can be played
 * out in a fixed order. Thread-safe as its delegate is.
 */
public final class HookedUniqueIndex implements UniqueIndex {
    /** Where the hook runs. */
    public enum Point {
        /** After a {@link #get} found its answer, before it returns it. */
        AFTER_GET,
        /** After a {@link #putIfAbsent} entered its key (or found it present), before it returns. */
        AFTER_PUT
    }

    private final UniqueIndex delegate;
    private Point point;
    private Runnable hook;

    public HookedUniqueIndex(UniqueIndex delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** Runs {@code action} once, at the next call reaching {@code at} (on the calling thread). */
    public synchronized void once(Point at, Runnable action) {
        this.point = at;
        this.hook = action;
    }

    private void reach(Point at) {
        Runnable action;
        synchronized (this) {
            if (hook == null || point != at) {
                return;
            }
            action = hook;
            hook = null;
        }
        action.run();
    }

    @Override
    public IndexDefinition definition() {
        return delegate.definition();
    }

    @Override
    public void renameKeyColumn(int keyPosition, String newName) {
        delegate.renameKeyColumn(keyPosition, newName);
    }

    @Override
    public long size() {
        return delegate.size();
    }

    @Override
    public long get(Batch keys, int[] keyColumns, int position) {
        long rowId = delegate.get(keys, keyColumns, position);
        reach(Point.AFTER_GET);
        return rowId;
    }

    @Override
    public boolean putIfAbsent(Batch keys, int[] keyColumns, int position, long rowId) {
        boolean put = delegate.putIfAbsent(keys, keyColumns, position, rowId);
        reach(Point.AFTER_PUT);
        return put;
    }

    @Override
    public boolean replace(Batch keys, int[] keyColumns, int position, long expectedRowId, long newRowId) {
        return delegate.replace(keys, keyColumns, position, expectedRowId, newRowId);
    }

    @Override
    public boolean remove(Batch keys, int[] keyColumns, int position, long expectedRowId) {
        return delegate.remove(keys, keyColumns, position, expectedRowId);
    }

    @Override
    public void lookup(Batch keys, int[] keyColumns, long[] rowIdsOut) {
        delegate.lookup(keys, keyColumns, rowIdsOut);
    }

    @Override
    public void insertAll(Batch rows, int[] keyColumns, long[] rowIds) {
        delegate.insertAll(rows, keyColumns, rowIds);
    }

    @Override
    public void prepareForInserts(long keys) {
        delegate.prepareForInserts(keys);
    }

    @Override
    public ParallaxException duplicateKeyError(Batch keys, int[] keyColumns, int position) {
        return delegate.duplicateKeyError(keys, keyColumns, position);
    }

    @Override
    public long reservedBytes() {
        return delegate.reservedBytes();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
