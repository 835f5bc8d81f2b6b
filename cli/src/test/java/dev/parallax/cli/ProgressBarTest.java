package dev.parallax.cli;

import dev.parallax.engine.exec.StatementProgress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProgressBarTest {
    @Test
    void drawsFractionCountsElapsedAndRate() {
        StatementProgress.Snapshot halfway = new StatementProgress.Snapshot("dbgen", 4_330_015, 8_660_030, "rows", 2_000_000_000L);
        assertEquals("dbgen [==============>               ]  50%  4.3M/8.7M rows  2.0 s  2.2M rows/s", ProgressBar.line(halfway));
    }

    @Test
    void unknownTotalShowsCountsOnly() {
        StatementProgress.Snapshot unknown = new StatementProgress.Snapshot("COPY", 12_345, 0, "rows", 1_500_000_000L);
        assertEquals("COPY 12.3k rows  1.5 s  8230 rows/s", ProgressBar.line(unknown));
    }

    @Test
    void countsAreShortened() {
        assertEquals("999", ProgressBar.count(999));
        assertEquals("9999", ProgressBar.count(9_999));
        assertEquals("12.3k", ProgressBar.count(12_345));
        assertEquals("6.0M", ProgressBar.count(6_001_215));
    }
}
