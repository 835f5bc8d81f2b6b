package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
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
 * FULL's rewrite with no row kept ({@link PagedTableStorage#truncate}). PostgreSQL gives the table
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
            return ExclusiveAccess.tryOnce(storages, () -> {
                for (int index = 0; index < tables.size(); index++) {
                    PagedTableStorage storage = storages.get(index);
                    Batch scratch = Batch.create(storage.columnTypes(), Batch.DEFAULT_CAPACITY);
                    pages[0] += storage.truncate(scratch, new UniqueKeyRewriter(tables.get(index).uniqueConstraints()));
                }
            });
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
