package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.vector.Batch;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * The general path: text, decimal-with-text, floating and multi-column keys stored in Chronicle Map
 * as their canonical encoding ({@link KeyEncoder}), built in a per-thread {@link KeyBytes}.
 */
public final class BytesKeyIndex extends ChronicleUniqueIndex<KeyBytes> {
    BytesKeyIndex(IndexDefinition definition, MemoryManager memory) {
        super(definition, memory);
        open();
    }

    @Override
    ChronicleMap<KeyBytes, LongCell> createMap(long entries) {
        return ChronicleMap.of(KeyBytes.class, LongCell.class)
                .name(definition.constraintName())
                .keyMarshallers(KeyBytesMarshaller.INSTANCE, KeyBytesMarshaller.INSTANCE)
                .valueMarshallers(LongCellMarshaller.INSTANCE, LongCellMarshaller.INSTANCE)
                .averageKeySize(encoder.averageKeyBytes())
                .constantValueSizeBySample(new LongCell())
                .entries(entries)
                .maxBloatFactor(BLOAT_FACTOR)
                .create();
    }

    @Override
    KeyBytes newKey() {
        return new KeyBytes(64);
    }

    @Override
    boolean loadKey(Batch keys, int[] keyColumns, int position, KeyBytes key) {
        return encoder.encode(keys, keyColumns, position, key);
    }
}
