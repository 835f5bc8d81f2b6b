package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.settings.Settings;

import java.util.OptionalInt;

/**
 * PostgreSQL's rules for how many workers a parallel scan gets and how much of the work each
 * participant does (optimizer/path/allpaths.c {@code compute_parallel_worker} and
 * costsize.c {@code get_parallel_divisor}). Kept in the engine so EXPLAIN, the planner and tests
 * agree on one definition.
 */
public final class ParallelDegree {
    /** PostgreSQL's block size: table sizes are counted in pages of this many bytes. */
    public static final int PAGE_BYTES = 8192;

    private ParallelDegree() {
    }

    /** Workers for a parallel scan of {@code table} under {@code settings}; 0 means no parallel scan. */
    public static int tableScanWorkers(Table table, Settings settings) {
        return tableScanWorkers(table.storage().sizeBytes(), table.parallelWorkers(),
                settings.getBytes("min_parallel_table_scan_size"), settings.getInt("max_parallel_workers_per_gather"));
    }

    /**
     * compute_parallel_worker for a heap scan: the {@code parallel_workers} reloption wins when set;
     * otherwise none below {@code min_parallel_table_scan_size}, then one worker, plus one each
     * time the table is three times larger again. Always capped by
     * {@code max_parallel_workers_per_gather}.
     */
    public static int tableScanWorkers(long sizeBytes, OptionalInt reloption, long minParallelTableScanSizeBytes,
                                       int maxParallelWorkersPerGather) {
        int workers;
        if (reloption.isPresent()) {
            workers = reloption.getAsInt();
        } else {
            long heapPages = pages(sizeBytes);
            long thresholdPages = minParallelTableScanSizeBytes / PAGE_BYTES;
            if (heapPages < thresholdPages) {
                return 0;
            }
            workers = 1;
            long threshold = Math.max(thresholdPages, 1);
            while (heapPages >= threshold * 3) {
                workers++;
                threshold *= 3;
                // PostgreSQL stops growing at INT_MAX / 3 to avoid overflowing its 32-bit threshold.
                if (threshold > Integer.MAX_VALUE / 3) {
                    break;
                }
            }
        }
        return Math.max(0, Math.min(workers, maxParallelWorkersPerGather));
    }

    /** Table size in PostgreSQL pages (8 KB), rounded up so a non-empty table has at least one page. */
    public static long pages(long sizeBytes) {
        return (sizeBytes + PAGE_BYTES - 1) / PAGE_BYTES;
    }

    /**
     * How many participants' worth of rows the work is divided by: the workers, plus the leader's
     * share when it participates (it helps less as it has more workers to feed:
     * {@code 1 - 0.3 * workers}, never negative).
     */
    public static double parallelDivisor(int workers, boolean leaderParticipation) {
        double divisor = workers;
        if (leaderParticipation) {
            double leaderContribution = 1.0 - 0.3 * workers;
            if (leaderContribution > 0) {
                divisor += leaderContribution;
            }
        }
        return divisor;
    }
}
