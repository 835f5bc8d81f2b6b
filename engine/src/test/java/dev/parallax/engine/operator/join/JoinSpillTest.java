package dev.parallax.engine.operator.join;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hash joins whose build side outgrows {@code work_mem × hash_mem_multiplier} (64kB here) run as
 * Grace hash joins over partition files: every join type, one and two keys, residual conditions,
 * NULL keys and duplicates must give the answer of the in-memory join, serially and under a Gather
 * with a shared or cooperatively built table, with all memory returned; a key shared by every
 * build row (a partition that splitting cannot shrink) still joins; the temporary files are gone
 * after success and after a failure.
 */
class JoinSpillTest {
    private static final WorkerPool WORKERS = new WorkerPool(4, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;
    private static final List<DataType> TYPES = List.of(DataType.INTEGER, DataType.TEXT, DataType.BIGINT);

    @TempDir
    Path temporary;

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    /** Rows (k integer, t text, v bigint): keys from a domain of {@code keys} values, about 1 in 10 NULL. */
    private static List<List<Object>> rows(int count, int keys, long seed) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Long key = random.nextInt(10) == 0 ? null : (long) random.nextInt(keys);
            String text = random.nextInt(12) == 0 ? null : "text value " + random.nextInt(keys / 4);
            rows.add(row(key, text, (long) random.nextInt(100)));
        }
        return rows;
    }

    private static Table table(String name, List<List<Object>> rows) {
        return TestExecution.table(name, List.of("k", "t", "v"), TYPES, 64, rows);
    }

    private static SeqScanNode scan(Table table, boolean parallel) {
        return new SeqScanNode(table, new int[]{0, 1, 2}, parallel, ESTIMATE);
    }

    private static Settings settings(String workMem) {
        Settings settings = new Settings();
        settings.set("parallel_scan_chunk_pages", "1");
        settings.set("work_mem", workMem);
        settings.set("hash_mem_multiplier", "1");
        return settings;
    }

    private static Expr residual() {
        return new Call(Function.LESS_THAN, DataType.BOOLEAN, new ColumnRef(2, DataType.BIGINT), new ColumnRef(5, DataType.BIGINT));
    }

    private static int[] output(JoinType joinType) {
        return joinType.emitsPairs() ? new int[]{0, 1, 2, 3, 4, 5} : new int[]{2, 0, 1};
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<Map.Entry<String, List<Object>>> keyed = new ArrayList<>();
        for (List<Object> row : rows) {
            keyed.add(Map.entry(row.toString(), row));
        }
        keyed.sort(Map.Entry.comparingByKey());
        return keyed.stream().map(Map.Entry::getValue).toList();
    }

    private static List<List<Object>> run(PlanNode plan, String workMem) {
        ExecutionContext context = TestExecution.context(WORKERS, settings(workMem));
        List<List<Object>> rows = sorted(TestExecution.run(plan, context));
        assertEquals(0, context.memory().allocatedBytes(MemoryTag.HASH_TABLES), "hash table memory returned");
        return rows;
    }

    @Test
    void everyJoinTypeGivesTheInMemoryAnswerWhenTheBuildSpills() {
        List<List<Object>> probeRows = rows(4000, 2000, 1);
        List<List<Object>> buildRows = rows(3000, 2000, 2);
        Table probe = table("p", probeRows);
        Table build = table("b", buildRows);
        for (JoinType joinType : JoinType.values()) {
            for (int[] keys : List.of(new int[]{0}, new int[]{0, 1})) {
                for (boolean withResidual : new boolean[]{false, true}) {
                    HashJoinNode join = new HashJoinNode(scan(probe, false), scan(build, false), joinType, keys, keys,
                            withResidual ? residual() : null, output(joinType), false, ESTIMATE);
                    String description = joinType + " on " + Arrays.toString(keys) + (withResidual ? " with residual" : "");
                    assertEquals(run(join, "1GB"), run(join, "64kB"), description);
                }
            }
        }
    }

    @Test
    void sharedAndCooperativeBuildsSpillUnderAGather() {
        List<List<Object>> probeRows = rows(4000, 2000, 3);
        List<List<Object>> buildRows = rows(3000, 2000, 4);
        Table probe = table("p", probeRows);
        Table build = table("b", buildRows);
        for (JoinType joinType : List.of(JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI)) {
            for (boolean cooperative : new boolean[]{false, true}) {
                int[] keys = {0};
                HashJoinNode join = new HashJoinNode(scan(probe, true), scan(build, cooperative), joinType, keys, keys,
                        residual(), output(joinType), cooperative, ESTIMATE);
                GatherNode gather = new GatherNode(join, 3, false, ESTIMATE);
                assertEquals(run(gather, "1GB"), run(gather, "64kB"), joinType + (cooperative ? " parallel hash" : " shared hash"));
            }
        }
    }

    @Test
    void oneKeyForEveryBuildRowStillJoins() {
        List<List<Object>> probeRows = new ArrayList<>();
        List<List<Object>> buildRows = new ArrayList<>();
        for (long index = 0; index < 4000; index++) {
            buildRows.add(row(7L, "same key " + index, index));
            probeRows.add(row(index % 400 == 0 ? 7L : index + 1000, "p", index));
        }
        HashJoinNode join = new HashJoinNode(scan(table("p", probeRows), false), scan(table("b", buildRows), false),
                JoinType.INNER, new int[]{0}, new int[]{0}, null, new int[]{2, 5}, false, ESTIMATE);
        List<List<Object>> rows = run(join, "64kB");
        assertEquals(10 * 4000, rows.size());
        assertEquals(run(join, "1GB"), rows);
    }

    @Test
    void temporaryFilesAreRemovedAfterSuccessAndFailure() {
        List<List<Object>> probeRows = rows(3000, 3000, 5);
        List<List<Object>> buildRows = rows(5000, 3000, 6);
        ExecutionContext context = TestExecution.context(WORKERS, settings("64kB"));
        HashSpillOptions options = new HashSpillOptions(64 * 1024, temporary);

        TemporaryDirectory directory = new TemporaryDirectory(temporary, "hash");
        JoinOperator join = join(context, probeRows, buildRows, -1);
        join.enableSpill(options, directory, true, 0);
        Batch first = join.next();
        assertNotNull(first);
        assertNotNull(directory.pathOrNull(), "the build spilled");
        assertTrue(join.statistics().batches() > 1);
        join.close();
        assertEquals(0, temporaryEntries());

        TemporaryDirectory failing = new TemporaryDirectory(temporary, "hash");
        JoinOperator failingJoin = join(context, probeRows, buildRows, 2);
        failingJoin.enableSpill(options, failing, true, 0);
        assertThrows(IllegalStateException.class, () -> {
            while (failingJoin.next() != null) {
                // Drain until the probe input fails.
            }
        });
        assertNotNull(failing.pathOrNull(), "the build spilled before the failure");
        failingJoin.close();
        assertEquals(0, temporaryEntries());
    }

    /** An inner join over batches of the given rows; the probe input fails before batch {@code failAt} (-1: never). */
    private static JoinOperator join(ExecutionContext context, List<List<Object>> probeRows, List<List<Object>> buildRows, int failAt) {
        return new JoinOperator(context, new RowsOperator(probeRows, failAt), new RowsOperator(buildRows, -1), JoinType.INNER,
                new int[]{0}, new int[]{0}, null, null, new int[]{0, 1, 2, 3, 4, 5}, TYPES, TYPES, null, false);
    }

    private long temporaryEntries() {
        try (Stream<Path> entries = Files.list(temporary)) {
            return entries.count();
        } catch (IOException failure) {
            throw new AssertionError(failure);
        }
    }

    /** Batches of 500 rows; fails instead of returning batch {@code failAt}. */
    private static final class RowsOperator implements Operator {
        private final List<List<Object>> rows;
        private final int failAt;
        private int nextBatch;

        RowsOperator(List<List<Object>> rows, int failAt) {
            this.rows = rows;
            this.failAt = failAt;
        }

        @Override
        public Batch next() {
            if (nextBatch == failAt) {
                throw new IllegalStateException("probe input failed");
            }
            int from = nextBatch * 500;
            if (from >= rows.size()) {
                return null;
            }
            nextBatch++;
            return TestExecution.batch(TYPES, rows.subList(from, Math.min(rows.size(), from + 500)));
        }

        @Override
        public void close() {
        }
    }
}
