package dev.parallax.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PartitionUniqueIndexTest {
    private static final int[] FIRST = {0};

    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final UniqueIndex tableIndex = UniqueIndexes.create(
            IndexDefinition.primaryKey("p", List.of("id"), List.of(DataType.INTEGER)), memory);

    @AfterEach
    void close() {
        tableIndex.close();
        assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES));
    }

    private UniqueIndex share(String partition) {
        return UniqueIndexes.partitionShare(IndexDefinition.primaryKey(partition, List.of("id"), List.of(DataType.INTEGER)), tableIndex);
    }

    private static Batch keys(long... values) {
        Batch batch = Batch.create(List.of(DataType.INTEGER), values.length);
        for (int position = 0; position < values.length; position++) {
            ((LongVector) batch.column(0)).set(position, values[position]);
        }
        batch.setRowCount(values.length);
        return batch;
    }

    @Test
    void eachPartitionSeesItsOwnRowIdsAndOnlyItsOwnKeys() {
        UniqueIndex first = share("p_0");
        UniqueIndex second = share("p_1");
        long firstRow = RowIds.pack(3, 17);
        long secondRow = RowIds.pack(3, 17);
        assertTrue(first.putIfAbsent(keys(10), FIRST, 0, firstRow));
        assertTrue(second.putIfAbsent(keys(11), FIRST, 0, secondRow));
        assertEquals(firstRow, first.get(keys(10), FIRST, 0));
        assertEquals(RowIds.ABSENT, second.get(keys(10), FIRST, 0));
        assertEquals(secondRow, second.get(keys(11), FIRST, 0));
        assertEquals(RowIds.ABSENT, first.get(keys(11), FIRST, 0));
        assertEquals(firstRow, UniqueIndexes.longKeys(first).get(10));
        assertEquals(RowIds.ABSENT, UniqueIndexes.longKeys(second).get(10));
        long[] found = new long[2];
        first.lookup(keys(10, 11), FIRST, found);
        assertEquals(firstRow, found[0]);
        assertEquals(RowIds.ABSENT, found[1]);
        assertEquals(2, tableIndex.size());
        assertEquals(1, first.size());
        assertEquals(0, first.reservedBytes());
    }

    @Test
    void keysAreUniqueAcrossTheTableAndErrorsNameThePartition() {
        UniqueIndex first = share("p_0");
        UniqueIndex second = share("p_1");
        first.insertAll(keys(1, 2, 3), FIRST, new long[] {RowIds.pack(0, 0), RowIds.pack(0, 1), RowIds.pack(0, 2)});
        assertFalse(second.putIfAbsent(keys(2), FIRST, 0, RowIds.pack(0, 0)));
        ParallaxException duplicate = assertThrows(ParallaxException.class,
                () -> second.insertAll(keys(7, 3), FIRST, new long[] {RowIds.pack(0, 0), RowIds.pack(0, 1)}));
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals("duplicate key value violates unique constraint \"p_1_pkey\"", duplicate.getMessage());
        // all or nothing: 7 went in with the batch and came out with it
        assertEquals(RowIds.ABSENT, tableIndex.get(keys(7), FIRST, 0));
        assertEquals(0, second.size());
        Batch nullKey = Batch.create(List.of(DataType.INTEGER), 1);
        nullKey.column(0).setNull(0);
        nullKey.setRowCount(1);
        ParallaxException notNull = assertThrows(ParallaxException.class, () -> second.putIfAbsent(nullKey, FIRST, 0, 0));
        assertEquals("null value in column \"id\" of relation \"p_1\" violates not-null constraint", notNull.getMessage());
    }

    @Test
    void replaceAndRemoveTranslateRowIds() {
        UniqueIndex share = share("p_0");
        long before = RowIds.pack(5, 9);
        long after = RowIds.pack(2, 1);
        assertTrue(share.putIfAbsent(keys(4), FIRST, 0, before));
        assertFalse(share.replace(keys(4), FIRST, 0, after, before));
        assertTrue(share.replace(keys(4), FIRST, 0, before, after));
        assertEquals(after, share.get(keys(4), FIRST, 0));
        assertFalse(share.remove(keys(4), FIRST, 0, before));
        assertTrue(share.remove(keys(4), FIRST, 0, after));
        assertEquals(0, tableIndex.size());
    }

    @Test
    void aDroppedPartitionsTagIsReusedOnlyOnceItsKeysAreGone() {
        UniqueIndex kept = share("p_0");
        UniqueIndex dropped = share("p_1");
        assertTrue(dropped.putIfAbsent(keys(8), FIRST, 0, RowIds.pack(0, 0)));
        dropped.close();
        // its key is still in the table index: the next partition must not take its tag and see its row
        UniqueIndex next = share("p_2");
        assertEquals(RowIds.ABSENT, next.get(keys(8), FIRST, 0));
        assertTrue(next.putIfAbsent(keys(9), FIRST, 0, RowIds.pack(0, 0)));
        assertTrue(next.remove(keys(9), FIRST, 0, RowIds.pack(0, 0)));
        next.close();
        UniqueIndex reusing = share("p_3");
        assertEquals(RowIds.ABSENT, reusing.get(keys(9), FIRST, 0));
        assertEquals(RowIds.ABSENT, kept.get(keys(8), FIRST, 0));
    }

    @Test
    void rowIdsBeyondTheTagLayoutAreRefused() {
        UniqueIndex share = share("p_0");
        ParallaxException beyond = assertThrows(ParallaxException.class,
                () -> share.putIfAbsent(keys(1), FIRST, 0, RowIds.pack(0, 1 << 20)));
        assertEquals(SqlState.PROGRAM_LIMIT_EXCEEDED, beyond.state());
        assertEquals(0, tableIndex.size());
    }
}
