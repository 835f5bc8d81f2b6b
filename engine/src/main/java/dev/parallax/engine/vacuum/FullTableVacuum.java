package dev.parallax.engine.vacuum;

import dev.parallax.engine.catalog.RowIdLock;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableRewrite;
import dev.parallax.engine.vector.Batch;

import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * VACUUM FULL of one table: every live row is copied, in table order, into fresh pages packed as a
 * fresh load packs them, the old pages go back to the allocator, and the unique indexes are
 * rewritten to the new row ids ({@link PagedTableStorage#rewriteCompactly}); ordered indexes turn
 * stale (the relocation count moved) and are rebuilt on their next use, or by the caller at once.
 *
 * <p>Rows move between pages, so the rewrite needs the table to itself, as PostgreSQL's ACCESS
 * EXCLUSIVE lock gives it: no scan open ({@link PagedTableStorage#openSnapshot}) and no statement
 * holding row ids ({@link RowIdLock}). It takes both in short rounds and lets go between rounds,
 * so a statement that scans the table and then pins its row ids (an INSERT ... SELECT from the
 * same table with ON CONFLICT) is never deadlocked, only waited for. Scans that start while the
 * rewrite runs wait for it to end. Cancelling stops the wait or the copy and leaves the table as it
 * was.
 */
public final class FullTableVacuum {
    /** How long one round waits for pins, then for open scans, before letting go and trying again. */
    static final long ROUND_MILLIS = 20;

    private FullTableVacuum() {
    }

    /**
     * Rewrites {@code table} compactly; a table whose storage is not paged (a system view) is left
     * alone and reported with zeros, a cancelled one too (unchanged). Records the run in the
     * table's maintenance activity.
     */
    public static VacuumReport vacuum(Table table, VacuumProgress progress, BooleanSupplier cancelled) {
        Objects.requireNonNull(table, "table");
        long start = System.nanoTime();
        if (!(table.storage() instanceof PagedTableStorage storage)) {
            return new VacuumReport(table.name(), 0, 0, 0, 0, 0, table.storage().rowCount(), 0, System.nanoTime() - start, 0, 0);
        }
        ThreadCpuTime cpuStart = ThreadCpuTime.now();
        table.maintenance().vacuumLock().lock();
        try {
            long heldBefore = storage.sizeBytes() / storage.layout().pageSizeBytes();
            UniqueKeyRewriter indexes = new UniqueKeyRewriter(table.uniqueConstraints());
            TableRewrite rewrite = rewrite(table, storage, indexes, progress, cancelled);
            if (rewrite == null) {
                return new VacuumReport(table.name(), 0, 0, heldBefore, 0, 0, storage.rowCount(), 0, System.nanoTime() - start, 0, 0);
            }
            storage.reclaimRetiredPages();
            table.maintenance().recordVacuum(Instant.now(), false);
            ThreadCpuTime cpu = ThreadCpuTime.now().since(cpuStart);
            return new VacuumReport(table.name(), rewrite.pagesBefore(), Math.max(0, heldBefore - rewrite.pagesAfter()),
                    rewrite.pagesAfter(), rewrite.rowsRemoved(), 0, rewrite.rowsKept(), indexes.entriesMoved(),
                    System.nanoTime() - start, cpu.userNanos(), cpu.systemNanos());
        } finally {
            table.maintenance().vacuumLock().unlock();
        }
    }

    /** Rounds of: row ids, then open scans, then the rewrite; null when cancelled first. */
    private static TableRewrite rewrite(Table table, PagedTableStorage storage, UniqueKeyRewriter indexes, VacuumProgress progress,
                                        BooleanSupplier cancelled) {
        RowIdLock rowIds = table.rowIdLock();
        Batch scratch = Batch.create(storage.columnTypes(), Batch.DEFAULT_CAPACITY);
        while (!cancelled.getAsBoolean()) {
            long stamp = rowIds.tryLockForCompaction(ROUND_MILLIS);
            if (stamp != 0) {
                try {
                    int pages = storage.pageCount();
                    TableRewrite rewrite = storage.rewriteCompactly(scratch, indexes, ROUND_MILLIS,
                            done -> progress.pagesVacuumed(table.name(), done, pages), cancelled);
                    if (rewrite != null) {
                        return rewrite;
                    }
                } finally {
                    rowIds.unlockAfterCompaction(stamp);
                }
            }
            if (Thread.currentThread().isInterrupted()) {
                return null;
            }
            // Let the statements that waited for this round run before the next.
            LockSupport.parkNanos(1_000_000L);
        }
        return null;
    }
}
