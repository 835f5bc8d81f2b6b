package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.Arrays;

/** Aggregation without GROUP BY: every row is in group 0, which exists even for empty input; no hashing. */
final class SingleGroupTable implements GroupKeyTable {
    @Override
    public void groupIds(Batch batch, int[] groupIds) {
        Arrays.fill(groupIds, 0, batch.selectedCount(), 0);
    }

    @Override
    public void findGroupIds(Batch batch, int[] groupIds) {
        groupIds(batch, groupIds);
    }

    @Override
    public long memoryBytes() {
        return 0;
    }

    @Override
    public int groupCount() {
        return 1;
    }

    @Override
    public void writeKeys(int firstGroup, int count, ColumnVector[] out) {
        // No key columns.
    }
}
