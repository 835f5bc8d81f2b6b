package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

/** Assigns dense group ids (0, 1, 2… in order of first appearance) to the group keys of rows. Used by one thread. */
interface GroupKeyTable {
    /**
     * Writes into {@code groupIds[i]} the group of the i-th live row of {@code batch}, creating
     * groups for keys not seen before. {@code groupIds} holds at least {@code batch.selectedCount()} entries.
     */
    void groupIds(Batch batch, int[] groupIds);

    /**
     * Writes into {@code groupIds[i]} the group of the i-th live row of {@code batch}, or -1 when
     * its key has no group; creates nothing. Used once a hash aggregation spills: rows of groups
     * in memory are still aggregated there, rows of new groups go to a partition file.
     */
    void findGroupIds(Batch batch, int[] groupIds);

    /** Heap bytes the table holds (keys, slots), for the aggregation's memory bound. */
    long memoryBytes();

    /** Groups created so far. */
    int groupCount();

    /** Writes the keys of groups {@code firstGroup ..} into {@code out[key]} at positions {@code 0 .. count-1}. */
    void writeKeys(int firstGroup, int count, ColumnVector[] out);
}
