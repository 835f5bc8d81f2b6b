package dev.parallax.engine.operator.scan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.StatementProgress;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Scans report the statement's progress once per claimed chunk: pages claimed of the table's pages. */
class SeqScanProgressTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 4);

    @AfterAll
    static void stopWorkers() {
        WORKERS.close();
    }

    /** Ten rows, two per page: five pages. */
    private static Table table() {
        List<List<Object>> rows = new ArrayList<>();
        for (long value = 0; value < 10; value++) {
            rows.add(List.of(value));
        }
        return TestExecution.table("lineitem", List.of("a"), List.of(DataType.BIGINT), 2, rows);
    }

    @Test
    void serialScanReportsPagesPerChunk() {
        Table table = table();
        ExecutionContext context = TestExecution.context(WORKERS, new Settings());
        SeqScanOperator scan = new SeqScanOperator(context, table.storage(), new int[]{0}, table.storage().openScan(2),
                Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY), table.name());
        assertEquals("", context.progress().snapshot().phase());
        scan.next();
        StatementProgress.Snapshot first = context.progress().snapshot();
        assertEquals(List.of("scan lineitem", 2L, 5L, "pages"), List.of(first.phase(), first.done(), first.total(), first.unit()));
        scan.next();
        assertEquals(2L, context.progress().snapshot().done());
        scan.next();
        assertEquals(4L, context.progress().snapshot().done());
        while (scan.next() != null) {
            // drain
        }
        assertEquals(5L, context.progress().snapshot().done());
        assertNull(scan.next());
    }

    @Test
    void parallelScanReportsPagesClaimedByAllParticipants() {
        Table table = table();
        ExecutionContext context = TestExecution.context(WORKERS, new Settings());
        GatherNode gather = new GatherNode(new SeqScanNode(table, new int[]{0}, true, PlanEstimate.UNKNOWN), 2, false,
                PlanEstimate.UNKNOWN);
        assertEquals(10, TestExecution.run(gather, context).size());
        StatementProgress.Snapshot last = context.progress().snapshot();
        assertEquals(List.of("scan lineitem", 5L, "pages"), List.of(last.phase(), last.total(), last.unit()));
        // The last claim ends at page 5; a participant racing with it may have reported last, one chunk earlier.
        long done = last.done();
        assertEquals(true, done >= 1 && done <= 5, "pages done: " + done);
    }

    @Test
    void scanWithoutTableNameReportsNothing() {
        Table table = table();
        ExecutionContext context = TestExecution.context(WORKERS, new Settings());
        SeqScanOperator scan = new SeqScanOperator(context, table.storage(), new int[]{0}, table.storage().openScan(2),
                Batch.create(List.of(DataType.BIGINT), Batch.DEFAULT_CAPACITY));
        while (scan.next() != null) {
            // drain
        }
        assertEquals("", context.progress().snapshot().phase());
    }
}
