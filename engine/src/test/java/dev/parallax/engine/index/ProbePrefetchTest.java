package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.type.DataType;
import net.openhft.chronicle.algo.hashing.LongHashFunction;
import net.openhft.chronicle.hash.impl.CompactOffHeapLinearHashTable;
import net.openhft.chronicle.hash.impl.VanillaChronicleHash;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProbePrefetchTest {
    /**
     * The prefetch loads the lines Chronicle's own lookup reads only if it computes the same
     * addresses: for every key, Chronicle's probe sequence started at the computed slot (its
     * segment's first tier) must reach the key's entry before an empty slot, and the segment header
     * must be the one of that segment; the same for the addresses a prefetch is handed
     * ({@link LongKeyIndex#probeLineAddresses}), which hashes the key itself.
     */
    @Test
    void prefetchedSlotStartsTheProbeThatFindsEachKey() {
        MemoryManager memory = new MemoryManager(1L << 30);
        int keys = 200_000;
        try (UniqueIndex created = UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT))
                .withInitialEntries(keys * 2L), memory)) {
            LongKeyIndex index = (LongKeyIndex) created;
            for (long key = 0; key < keys; key++) {
                assertTrue(index.putIfAbsent(key * 0x9E3779B97F4A7C15L, key));
            }
            VanillaChronicleHash<?, ?, ?, ?> store = (VanillaChronicleHash<?, ?, ?, ?>) index.currentMap();
            CompactOffHeapLinearHashTable slots = store.hashLookup;
            int foundAtFirstSlot = 0;
            long[] lines = new long[2];
            for (long key = 0; key < keys; key++) {
                long hash = LongHashFunction.xx_r39().hashLong(key * 0x9E3779B97F4A7C15L);
                int segment = store.hashSplitting.segmentIndex(hash);
                assertEquals(store.segmentHeaderAddress(segment), ProbePrefetch.segmentHeaderAddress(store, hash));
                index.probeLineAddresses(key * 0x9E3779B97F4A7C15L, lines, 0);
                assertEquals(store.segmentHeaderAddress(segment), lines[0]);
                assertEquals(ProbePrefetch.firstSlotAddress(store, hash), lines[1]);
                long searchKey = slots.maskUnsetKey(store.hashSplitting.segmentHash(hash));
                long base = store.segmentBaseAddr(segment);
                long position = ProbePrefetch.firstSlotAddress(store, hash) - base;
                long first = position;
                while (true) {
                    long entry = slots.readEntry(base, position);
                    assertFalse(slots.empty(entry), "key " + key + " not on the probe from the prefetched slot");
                    if (slots.key(entry) == searchKey) {
                        break;
                    }
                    position = slots.step(position);
                    assertTrue(position != first, "probe wrapped around");
                }
                if (position == first) {
                    foundAtFirstSlot++;
                }
                assertEquals(key, index.get(key * 0x9E3779B97F4A7C15L));
            }
            // At a fill of a half, linear probing finds most keys in their first slot.
            assertTrue(foundAtFirstSlot > keys / 2, foundAtFirstSlot + " of " + keys + " in their first slot");
        }
        assertEquals(0, memory.allocatedBytes());
    }
}
