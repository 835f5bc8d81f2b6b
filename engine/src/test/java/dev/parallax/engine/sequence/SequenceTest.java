package dev.parallax.engine.sequence;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SequenceTest {
    private static Sequence sequence(SequenceOptions.Declared declared) {
        return new Sequence("s", SequenceOptions.resolve(declared), null, null);
    }

    @Test
    void threadsTakingSingleValuesAndBatchesGetEveryValueExactlyOnce() throws Exception {
        Sequence sequence = sequence(SequenceOptions.Declared.NONE);
        int threads = 8;
        int rounds = 2_000;
        int batch = 37;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                results.add(pool.submit(() -> {
                    long[] taken = new long[rounds * (batch + 1)];
                    long[] values = new long[batch];
                    int count = 0;
                    start.await();
                    for (int round = 0; round < rounds; round++) {
                        taken[count++] = sequence.next();
                        sequence.next(batch, values);
                        for (int index = 1; index < batch; index++) {
                            assertTrue(values[index] > values[index - 1], "a batch's values ascend");
                        }
                        System.arraycopy(values, 0, taken, count, batch);
                        count += batch;
                    }
                    return taken;
                }));
            }
            start.countDown();
            int total = threads * rounds * (batch + 1);
            BitSet seen = new BitSet(total + 1);
            for (Future<long[]> result : results) {
                for (long value : result.get()) {
                    assertTrue(value >= 1 && value <= total, "value " + value + " within 1.." + total);
                    assertTrue(!seen.get((int) value), "value " + value + " handed out twice");
                    seen.set((int) value);
                }
            }
            assertEquals(total, seen.cardinality());
            assertEquals(total, sequence.lastValueOrNull());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void exhaustionCyclingSetvalAndRestartFollowPostgreSql() {
        Sequence bounded = sequence(new SequenceOptions.Declared(null, 5L, 0L, 30L, 10L, null, null));
        long[] values = new long[5];
        bounded.next(5, values);
        assertArrayEquals(new long[] {10, 15, 20, 25, 30}, values);
        ParallaxException exhausted = assertThrows(ParallaxException.class, bounded::next);
        assertEquals(SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED, exhausted.state());
        assertEquals("nextval: reached maximum value of sequence \"s\" (30)", exhausted.getMessage());

        Sequence cycling = sequence(new SequenceOptions.Declared(DataType.SMALLINT, null, null, 3L, null, null, true));
        long[] cycled = new long[5];
        cycling.next(5, cycled);
        assertArrayEquals(new long[] {1, 2, 3, 1, 2}, cycled);

        Sequence descending = sequence(new SequenceOptions.Declared(null, -1L, null, null, null, null, null));
        assertEquals(-1, descending.next());
        assertEquals(-2, descending.next());

        Sequence plain = sequence(SequenceOptions.Declared.NONE);
        assertNull(plain.lastValueOrNull());
        plain.set(50, false);
        assertEquals(50, plain.next());
        ParallaxException outOfBounds = assertThrows(ParallaxException.class, () -> plain.set(0, true));
        assertEquals(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, outOfBounds.state());
        plain.restart(7L);
        assertNull(plain.lastValueOrNull());
        assertEquals(7, plain.next());
    }

    @Test
    void optionsAreCheckedAsPostgreSqlChecksThem() {
        assertEquals("START value (40000) cannot be greater than MAXVALUE (32767)", assertThrows(ParallaxException.class,
                () -> SequenceOptions.resolve(new SequenceOptions.Declared(DataType.SMALLINT, null, null, null, 40000L, null, null)))
                .getMessage());
        assertEquals("INCREMENT must not be zero", assertThrows(ParallaxException.class,
                () -> SequenceOptions.resolve(new SequenceOptions.Declared(null, 0L, null, null, null, null, null))).getMessage());
        SequenceOptions descending = SequenceOptions.resolve(new SequenceOptions.Declared(null, -1L, null, null, null, null, null));
        assertEquals(Long.MIN_VALUE, descending.minValue());
        assertEquals(-1, descending.maxValue());
        assertEquals(-1, descending.start());
    }
}
