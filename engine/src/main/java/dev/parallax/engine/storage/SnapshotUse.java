package dev.parallax.engine.storage;

/**
 * What a reader holding an {@link OpenSnapshot} does with it, and so what VACUUM must leave alone
 * while it is open.
 */
public enum SnapshotUse {
    /**
     * Reads pages with the snapshot (a sequential scan): VACUUM removes no row that died after the
     * snapshot was taken, compacts none of the snapshot's partly covered last page (renumbering its
     * slots would shift rows appended later into the part the snapshot covers), and does not shorten
     * the table below the snapshot's page count (a page added again under a covered index would be
     * read as part of the snapshot).
     */
    SCAN,
    /**
     * Also holds row ids (an ordered index scan reads rows by the ids its index recorded, and the
     * index may have been built after the snapshot, over pages it does not cover): on top of
     * {@link #SCAN}'s limits, VACUUM compacts no page of the table while it is open.
     */
    ROW_IDS
}
