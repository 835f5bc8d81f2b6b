package dev.parallax.engine.index;

import net.openhft.chronicle.hash.impl.CompactOffHeapLinearHashTable;
import net.openhft.chronicle.hash.impl.HashSplitting;
import net.openhft.chronicle.hash.impl.VanillaChronicleHash;
import net.openhft.chronicle.map.ChronicleMap;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Loads the two lines a Chronicle Map lookup reads first, its segment's header (the segment lock)
 * and the key's first hash lookup slot, before the lookup itself, so that their cache misses are
 * in flight together (and with whatever the caller loaded just before, such as the partition's
 * relocation count). Chronicle reads them one after the other: it takes the segment's read lock, an
 * atomic update that waits for the header's line, and only then reads the slot. The addresses are
 * computed as Chronicle computes them ({@code VanillaChronicleMap.optimizedGet}: the key's xxHash
 * r39 split into segment index and segment hash; the slot in the segment's first tier), through
 * the public members of its implementation classes. A wrong guess would only load a useless line
 * of the map: both addresses stay inside the map's memory whatever the hash. A point select on 10M
 * rows (2,048 segments), rounds with and without it alternating in one JVM: 29 and 45 ns less CPU
 * per select in two runs (of 1,060-1,460), on 1024 partitions 0 and 20 ns.
 */
final class ProbePrefetch {
    /** The whole address space: the map's memory is Chronicle's, reached by address. */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private ProbePrefetch() {
    }

    /**
     * Loads a byte of the segment header and of the first hash lookup slot that a lookup of a key
     * hashing to {@code keyHash} in {@code map} reads, and returns their sum for the caller to store
     * (a load whose value is unused would be dropped). The caller keeps {@code map} open meanwhile.
     */
    static long touch(ChronicleMap<?, ?> map, long keyHash) {
        if (!(map instanceof VanillaChronicleHash<?, ?, ?, ?> store)) {
            return 0;
        }
        return MEMORY.get(ValueLayout.JAVA_BYTE, segmentHeaderAddress(store, keyHash))
                + MEMORY.get(ValueLayout.JAVA_BYTE, firstSlotAddress(store, keyHash));
    }

    /**
     * Writes into {@code out[from]} and {@code out[from + 1]} the addresses {@link #touch} loads, for
     * a prefetch (zeros when {@code map} is not Chronicle's vanilla map).
     */
    static void addresses(ChronicleMap<?, ?> map, long keyHash, long[] out, int from) {
        if (map instanceof VanillaChronicleHash<?, ?, ?, ?> store) {
            out[from] = segmentHeaderAddress(store, keyHash);
            out[from + 1] = firstSlotAddress(store, keyHash);
        } else {
            out[from] = 0;
            out[from + 1] = 0;
        }
    }

    /** The address of the header (lock word first) of the segment a key hashing to {@code keyHash} lives in. */
    static long segmentHeaderAddress(VanillaChronicleHash<?, ?, ?, ?> store, long keyHash) {
        return store.segmentHeaderAddress(store.hashSplitting.segmentIndex(keyHash));
    }

    /** The address of the first slot, in its segment's first tier, of a lookup of a key hashing to {@code keyHash}. */
    static long firstSlotAddress(VanillaChronicleHash<?, ?, ?, ?> store, long keyHash) {
        HashSplitting splitting = store.hashSplitting;
        CompactOffHeapLinearHashTable slots = store.hashLookup;
        return store.segmentBaseAddr(splitting.segmentIndex(keyHash)) + slots.hlPos(slots.maskUnsetKey(splitting.segmentHash(keyHash)));
    }
}
