package dev.parallax.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TimingTest {
    @Test
    void millisecondsBelowOneSecond() {
        assertEquals("Time: 0.714 ms", Timing.format(0.714));
        assertEquals("Time: 999.999 ms", Timing.format(999.999));
    }

    @Test
    void clockFormFromOneSecondOn() {
        assertEquals("Time: 1103.374 ms (00:01.103)", Timing.format(1103.374));
        assertEquals("Time: 3723004.000 ms (01:02:03.004)", Timing.format(3_723_004));
        assertEquals("Time: 90061001.000 ms (1 d 01:01:01.001)", Timing.format(90_061_001));
    }
}
