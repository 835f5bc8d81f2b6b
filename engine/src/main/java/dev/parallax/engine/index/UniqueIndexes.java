package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.type.VectorKind;

/**
 * Creates unique indexes, choosing the layout by key: one long-held column gets {@link LongKeyIndex},
 * anything else {@link BytesKeyIndex}. Loading this class switches Chronicle's analytics off
 * ({@link ChronicleSettings}) before any Chronicle class initializes.
 */
public final class UniqueIndexes {
    static {
        ChronicleSettings.apply();
    }

    private UniqueIndexes() {
    }

    /** A new empty index for {@code definition}, its memory reserved with tag INDEXES (53200 when over budget). */
    public static UniqueIndex create(IndexDefinition definition, MemoryManager memory) {
        if (definition.columnCount() == 1 && definition.columnTypes().getFirst().vectorKind() == VectorKind.LONG) {
            return new LongKeyIndex(definition, memory);
        }
        return new BytesKeyIndex(definition, memory);
    }

    /**
     * A partition's constraint {@code definition} whose keys live in {@code tableIndex}, the index
     * its partitioned table made with {@link #create} over the same key types (see
     * {@link PartitionUniqueIndex}). Holds no memory of its own.
     */
    public static UniqueIndex partitionShare(IndexDefinition definition, UniqueIndex tableIndex) {
        if (!(tableIndex instanceof ChronicleUniqueIndex<?> chronicle)) {
            throw new IllegalArgumentException("not a table index made by UniqueIndexes.create: " + tableIndex.definition().constraintName());
        }
        return new PartitionUniqueIndex(definition, chronicle);
    }

    /**
     * The unboxed point lookup of {@code index} (itself, or for a partition's share a lookup in its
     * table's index that answers with the partition's row ids) when it is keyed by one long-held
     * column; null otherwise. Made once per lookup, not per call.
     */
    public static LongKeyLookup longKeys(UniqueIndex index) {
        return switch (index) {
            case LongKeyIndex longKeys -> longKeys;
            case PartitionUniqueIndex share -> share.longKeys();
            default -> null;
        };
    }
}
