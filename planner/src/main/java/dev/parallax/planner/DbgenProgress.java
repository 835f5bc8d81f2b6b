package dev.parallax.planner;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.tpch.TpchLoader;
import dev.parallax.engine.tpch.TpchProgressListener;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Sums the per-table progress of CALL dbgen into the statement's progress (rows of all eight
 * tables), and lets a cancelled statement stop generating at the next batch.
 */
final class DbgenProgress implements TpchProgressListener {
    private final ExecutionContext context;
    private final ConcurrentMap<String, long[]> tables = new ConcurrentHashMap<>();

    DbgenProgress(ExecutionContext context, double scaleFactor) {
        this.context = context;
        // Seed every table with its expected rows so the total is right from the start (the
        // generator reports a table's expected rows only once it starts it).
        TpchLoader.expectedRows(scaleFactor).forEach((table, rows) -> tables.put(table, new long[] {0, rows}));
    }

    @Override
    public void progress(String table, long rowsDone, long rowsExpected) {
        context.checkCancelled();
        tables.put(table, new long[] {rowsDone, rowsExpected});
        long done = 0;
        long expected = 0;
        for (long[] counts : tables.values()) {
            done += counts[0];
            expected += counts[1];
        }
        context.progress().update("dbgen", done, expected, "rows");
    }
}
