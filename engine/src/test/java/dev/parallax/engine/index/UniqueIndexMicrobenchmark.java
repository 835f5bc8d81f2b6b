package dev.parallax.engine.index;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.type.DataType;
import java.util.List;

/**
 * Single-thread nanoseconds per operation of the long-key index (not a test: run by hand with the
 * parallax JVM flags). Keys are scrambled so lookups hit all segments; the first rounds warm up.
 */
public final class UniqueIndexMicrobenchmark {
    private UniqueIndexMicrobenchmark() {
    }

    public static void main(String[] arguments) {
        int keys = arguments.length > 0 ? Integer.parseInt(arguments[0]) : 1_000_000;
        MemoryManager memory = new MemoryManager(1L << 32);
        for (int round = 0; round < 5; round++) {
            try (UniqueIndex created = UniqueIndexes.create(IndexDefinition.primaryKey("t", List.of("id"), List.of(DataType.BIGINT))
                    .withInitialEntries(keys * 2L), memory)) {
                LongKeyIndex index = (LongKeyIndex) created;
                long start = System.nanoTime();
                for (long key = 0; key < keys; key++) {
                    index.putIfAbsent(key * 0x9E3779B97F4A7C15L, key);
                }
                long put = System.nanoTime() - start;
                start = System.nanoTime();
                long sum = 0;
                for (long key = 0; key < keys; key++) {
                    sum += index.get(key * 0x9E3779B97F4A7C15L);
                }
                long get = System.nanoTime() - start;
                start = System.nanoTime();
                for (long key = 0; key < keys; key++) {
                    index.replace(key * 0x9E3779B97F4A7C15L, key, key + 1);
                }
                long replace = System.nanoTime() - start;
                System.out.printf("round %d: putIfAbsent %.0f ns/op, get %.0f ns/op, replace %.0f ns/op (checksum %d)%n",
                        round, (double) put / keys, (double) get / keys, (double) replace / keys, sum);
            }
        }
    }
}
