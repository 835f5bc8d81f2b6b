package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.index.WholeIndexEmptying;
import dev.parallax.engine.storage.ExclusiveAccess;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * TRUNCATE of one or more tables (partitions, never a partitioned parent: it holds no rows) at
 * once: every page goes back to the allocator and every key leaves the unique indexes, as VACUUM
 * FULL's rewrite with no row kept ({@link PagedTableStorage#truncate}); an index that loses every
 * key is replaced by an empty one instead ({@link WholeIndexEmptying}). PostgreSQL gives the table
 * a new empty file under an ACCESS EXCLUSIVE lock; here the tables are held as that lock holds
 * them: no VACUUM running on them (their vacuum locks), no statement holding row ids (their row id
 * locks), no scan open and no writer writing ({@link ExclusiveAccess}). Each is taken for a round of
 * {@value #ROUND_MILLIS} ms at most and all are let go when one is not had in time, as VACUUM FULL's
 * rounds do, so a statement that scans one table and then pins or writes another finishes first
 * instead of deadlocking with the truncate. Scans and writers that come meanwhile wait for the
 * truncate and then see the empty tables. Pages a point read may still be reading are freed once it
 * is done ({@link PagedTableStorage#reclaimRetiredPages}).
 */
public final class TableTruncation {
    /** How long one round waits for each lock before letting go of all and trying again. */
    static final long ROUND_MILLIS = 20;

    private TableTruncation() {
    }

    /**
     * Empties {@code tables}, all in one step; between rounds calls {@code checkCancelled}, which
     * throws to give up (57014), leaving every table as it was. Returns the pages freed.
     */
    public static long truncate(List<Table> tables, Runnable checkCancelled) {
        Objects.requireNonNull(checkCancelled, "checkCancelled");
        List<PagedTableStorage> storages = new ArrayList<>(tables.size());
        for (Table table : tables) {
            if (!(table.storage() instanceof PagedTableStorage storage)) {
                throw new IllegalArgumentException("not a table with pages: " + table.name());
            }
            storages.add(storage);
        }
        long[] pages = new long[1];
        while (true) {
            checkCancelled.run();
            if (tryRound(tables, storages, pages)) {
                break;
            }
            // Let the statements that waited for this round run before the next.
            Thread.yield();
        }
        for (PagedTableStorage storage : storages) {
            storage.reclaimRetiredPages();
        }
        return pages[0];
    }

    /**
     * Empties the tables, which the caller holds. An index whose every key goes (a table's own, or
     * a partitioned table's shared one with all its partitions here) gets an empty map in place of
     * its keys, while the first table is emptied ({@link WholeIndexEmptying}); only the keys of other
     * indexes are removed row by row. TRUNCATE of 2M rows with a bigint primary key (\timing in the
     * parallax shell, insert and truncate five times in a JVM, two JVMs per build alternating, load
     * average 7-11 on 2 cores): median 1,607 ms removing each key (4.3-4.5 s the first time in a
     * JVM), 9 ms emptying the index whole; 16 hash partitions all truncated: 1,789 ms vs 12 ms.
     */
    private static void truncateHeld(List<Table> tables, List<PagedTableStorage> storages, long[] pages) {
        List<UniqueIndex> indexes = new ArrayList<>();
        for (Table table : tables) {
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                indexes.add(constraint.index());
            }
        }
        try (WholeIndexEmptying emptying = WholeIndexEmptying.prepare(indexes)) {
            for (int index = 0; index < tables.size(); index++) {
                PagedTableStorage storage = storages.get(index);
                List<UniqueConstraint> keyByKey = new ArrayList<>();
                for (UniqueConstraint constraint : tables.get(index).uniqueConstraints()) {
                    if (!emptying.emptiesWhole(constraint.index())) {
                        keyByKey.add(constraint);
                    }
                }
                Batch scratch = keyByKey.isEmpty() ? null : Batch.create(storage.columnTypes(), Batch.DEFAULT_CAPACITY);
                pages[0] += storage.truncate(scratch, keyByKey.isEmpty() ? null : new UniqueKeyRewriter(keyByKey), emptying::emptyAll);
            }
        }
    }

    /** One round: every lock, then the truncation; false, having changed nothing, when a lock was not had in time. */
    private static boolean tryRound(List<Table> tables, List<PagedTableStorage> storages, long[] pages) {
        List<ReentrantLock> vacuumLocks = new ArrayList<>(tables.size());
        List<RowIdLock> rowIdLocks = new ArrayList<>(tables.size());
        long[] stamps = new long[tables.size()];
        try {
            for (Table table : tables) {
                ReentrantLock vacuumLock = table.maintenance().vacuumLock();
                if (!vacuumLock.tryLock(ROUND_MILLIS, TimeUnit.MILLISECONDS)) {
                    return false;
                }
                vacuumLocks.add(vacuumLock);
            }
            for (int index = 0; index < tables.size(); index++) {
                RowIdLock rowIds = tables.get(index).rowIdLock();
                long stamp = rowIds.tryLockForCompaction(ROUND_MILLIS);
                if (stamp == 0) {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException();
                    }
                    return false;
                }
                stamps[index] = stamp;
                rowIdLocks.add(rowIds);
            }
            return ExclusiveAccess.tryOnce(storages, () -> truncateHeld(tables, storages, pages));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        } finally {
            for (int index = rowIdLocks.size() - 1; index >= 0; index--) {
                rowIdLocks.get(index).unlockAfterCompaction(stamps[index]);
            }
            for (int index = vacuumLocks.size() - 1; index >= 0; index--) {
                vacuumLocks.get(index).unlock();
            }
        }
    }
}
