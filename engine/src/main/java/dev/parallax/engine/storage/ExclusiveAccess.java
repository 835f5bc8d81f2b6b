package dev.parallax.engine.storage;

import java.util.List;

/**
 * PostgreSQL's ACCESS EXCLUSIVE lock on a table and its partitions, as ALTER TABLE takes it: no scan
 * open, none opening, no writer writing, on every storage at once
 * ({@link PagedTableStorage#exclusivelyWithoutScans}, taken in list order). A round waits
 * {@value #ROUND_MILLIS} ms for each storage's scans; when one is still open, every storage is let
 * go and the round repeats, so that statements holding a snapshot of one partition while they wait
 * for another (or for a write lock) finish first instead of deadlocking (VACUUM FULL's rounds).
 */
public final class ExclusiveAccess {
    static final long ROUND_MILLIS = 20;

    private ExclusiveAccess() {
    }

    /**
     * Runs {@code action} once, holding every storage of {@code storages} exclusively; between rounds
     * calls {@code checkCancelled}, which throws to give up (e.g. 57014 on a cancelled statement).
     */
    public static void run(List<PagedTableStorage> storages, Runnable checkCancelled, Runnable action) {
        while (true) {
            checkCancelled.run();
            if (holdFrom(storages, 0, action)) {
                return;
            }
            // Let the statements that waited for this round run before the next.
            Thread.yield();
        }
    }

    /**
     * One round: runs {@code action} holding every storage of {@code storages} exclusively and
     * returns true, or returns false, having run nothing and let go of every storage, when a
     * storage's scans were still open after {@value #ROUND_MILLIS} ms. For callers that hold
     * other locks for the round (TRUNCATE's row id locks) and must let go of them too between rounds.
     */
    public static boolean tryOnce(List<PagedTableStorage> storages, Runnable action) {
        return holdFrom(storages, 0, action);
    }

    /** Holds {@code storages[from..]} and runs {@code action}; false, having run nothing, when a round timed out. */
    private static boolean holdFrom(List<PagedTableStorage> storages, int from, Runnable action) {
        if (from == storages.size()) {
            action.run();
            return true;
        }
        boolean[] ran = new boolean[1];
        boolean held = storages.get(from).exclusivelyWithoutScans(ROUND_MILLIS, () -> ran[0] = holdFrom(storages, from + 1, action));
        return held && ran[0];
    }
}
