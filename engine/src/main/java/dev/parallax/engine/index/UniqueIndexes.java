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
}
