package dev.parallax.engine.operator.filter;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LongValueSet against a java.util set, for values that make a bitmap and values that must be hashed. */
class LongValueSetTest {
    private static void assertSameMembership(long[] values, long[] probes) {
        Set<Long> expected = new HashSet<>();
        for (long value : values) {
            expected.add(value);
        }
        LongValueSet set = LongValueSet.of(values, values.length);
        assertEquals(values.length, set.sourceCount());
        for (long probe : probes) {
            assertEquals(expected.contains(probe), set.contains(probe), "contains " + probe);
        }
        for (long value : values) {
            assertTrue(set.contains(value), "contains its own " + value);
        }
    }

    @Test
    void aNarrowRangeIncludingNegativeValuesAndDuplicates() {
        Random random = new Random(1);
        long[] values = new long[500];
        for (int index = 0; index < values.length; index++) {
            values[index] = random.nextInt(3000) - 1000;
        }
        long[] probes = new long[10000];
        for (int index = 0; index < probes.length; index++) {
            probes[index] = random.nextInt(6000) - 3000;
        }
        assertSameMembership(values, probes);
        assertSameMembership(values, new long[]{Long.MIN_VALUE, Long.MAX_VALUE, -1001, 2000, 1999});
    }

    @Test
    void aWideRangeIsHashedAndKeepsTheExtremeValues() {
        Random random = new Random(2);
        long[] values = new long[300];
        for (int index = 0; index < values.length; index++) {
            values[index] = random.nextLong();
        }
        values[0] = Long.MIN_VALUE;
        values[1] = Long.MAX_VALUE;
        values[2] = 0;
        long[] probes = new long[5000];
        for (int index = 0; index < probes.length; index++) {
            probes[index] = index % 2 == 0 ? values[random.nextInt(values.length)] : random.nextLong();
        }
        assertSameMembership(values, probes);
        assertSameMembership(new long[]{Long.MAX_VALUE, 7}, new long[]{Long.MIN_VALUE, Long.MAX_VALUE, 7, 8, -1});
    }

    @Test
    void anEmptySetContainsNothing() {
        LongValueSet set = LongValueSet.of(new long[0], 0);
        assertFalse(set.contains(0));
        assertFalse(set.contains(Long.MIN_VALUE));
    }
}
