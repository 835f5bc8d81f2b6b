package dev.parallax.engine.storage;

import java.util.List;

/**
 * Opens the scans of several tables (the partitions of one partitioned table, or every parallel
 * scan under one Gather) so that they show the tables as they were at one moment with respect to
 * every statement that changed several of them, as PostgreSQL's statement snapshot does: a row
 * that another statement moved from one partition into another is seen in exactly one of them,
 * and a statement changing several partitions is seen whole or not at all. Snapshots taken one
 * after the other could fall on both sides of such a statement's publishes, seeing a moved row
 * twice or not at all.
 *
 * <p>A statement publishing to several tables holds their snapshots back while it publishes
 * ({@link PagedTableStorage#holdSnapshots()}), so no snapshot falls between two of its publishes;
 * what is left is such a statement falling between two of the snapshots, which moves the
 * {@link TableStorage#groupSequence()} of a table read before it: the scans are then opened
 * again. Publishes to one table alone never cause a retry (a statement changing one partition
 * is seen or not, like a statement that committed before or after the snapshot).
 */
public final class ConsistentScans {
    /** Attempts that spin before each further one yields the processor to the writers it waits for. */
    private static final int SPINNING_ATTEMPTS = 8;

    private ConsistentScans() {
    }

    /**
     * One open cursor per storage, in order ({@link TableStorage#openScan}): the caller owns them
     * and closes each. On failure none stays open.
     */
    public static ScanCursor[] open(List<? extends TableStorage> storages, int chunkPages) {
        int count = storages.size();
        ScanCursor[] cursors = new ScanCursor[count];
        long[] groupSequences = new long[count];
        for (int attempt = 0; ; attempt++) {
            try {
                for (int index = 0; index < count; index++) {
                    TableStorage storage = storages.get(index);
                    groupSequences[index] = storage.groupSequence();
                    cursors[index] = storage.openScan(chunkPages);
                }
            } catch (RuntimeException | Error failure) {
                closeAll(cursors);
                throw failure;
            }
            // One snapshot is always consistent with itself.
            boolean consistent = true;
            for (int index = 0; index < count && consistent && count > 1; index++) {
                consistent = storages.get(index).groupSequence() == groupSequences[index];
            }
            if (consistent) {
                return cursors;
            }
            closeAll(cursors);
            if (attempt < SPINNING_ATTEMPTS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private static void closeAll(ScanCursor[] cursors) {
        for (int index = 0; index < cursors.length; index++) {
            if (cursors[index] != null) {
                cursors[index].close();
                cursors[index] = null;
            }
        }
    }
}
