package dev.parallax.engine.operator.join;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.HashJoinNode;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.NestedLoopJoinNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static dev.parallax.engine.operator.TestExecution.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The join operator against a naive nested loop written here over Java values: every join type,
 * one and two keys (integer and text), with and without a residual condition, NULL keys and
 * duplicates on both sides, serial and under a Gather with a shared or cooperatively built table.
 */
class JoinOperatorTest {
    private static final WorkerPool WORKERS = new WorkerPool(4, 8);
    private static final PlanEstimate ESTIMATE = PlanEstimate.UNKNOWN;
    private static final List<DataType> TYPES = List.of(DataType.INTEGER, DataType.TEXT, DataType.BIGINT);

    @AfterAll
    static void closePool() {
        WORKERS.close();
    }

    /** Rows (k integer, t text, v bigint) with keys from a small domain (duplicates) and some NULLs. */
    private static List<List<Object>> rows(int count, long seed) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Long key = random.nextInt(10) == 0 ? null : (long) random.nextInt(40);
            String text = random.nextInt(12) == 0 ? null : "t" + random.nextInt(8);
            rows.add(row(key, text, (long) random.nextInt(100)));
        }
        return rows;
    }

    private static Table table(String name, List<List<Object>> rows) {
        return TestExecution.table(name, List.of("k", "t", "v"), TYPES, 7, rows);
    }

    private static SeqScanNode scan(Table table, boolean parallel) {
        return new SeqScanNode(table, new int[]{0, 1, 2}, parallel, ESTIMATE);
    }

    private static ExecutionContext context() {
        Settings settings = new Settings();
        settings.set("parallel_scan_chunk_pages", "1");
        return TestExecution.context(WORKERS, settings);
    }

    /** probe.v < build.v over the joined row. */
    private static Expr residual() {
        return new Call(Function.LESS_THAN, DataType.BOOLEAN, new ColumnRef(2, DataType.BIGINT), new ColumnRef(5, DataType.BIGINT));
    }

    private static int[] output(JoinType joinType) {
        return joinType.emitsPairs() ? new int[]{0, 1, 2, 3, 4, 5} : new int[]{2, 0, 1};
    }

    private static List<List<Object>> expected(List<List<Object>> probe, List<List<Object>> build, JoinType joinType,
                                               int[] keys, boolean withResidual) {
        List<List<Object>> result = new ArrayList<>();
        boolean[] buildMatched = new boolean[build.size()];
        for (List<Object> probeRow : probe) {
            boolean matched = false;
            for (int buildIndex = 0; buildIndex < build.size(); buildIndex++) {
                List<Object> buildRow = build.get(buildIndex);
                boolean equal = true;
                for (int key : keys) {
                    Object left = probeRow.get(key);
                    Object right = buildRow.get(key);
                    equal &= left != null && right != null && left.equals(right);
                }
                if (!equal || withResidual && !((Long) probeRow.get(2) < (Long) buildRow.get(2))) {
                    continue;
                }
                matched = true;
                buildMatched[buildIndex] = true;
                if (joinType.emitsPairs()) {
                    List<Object> joined = new ArrayList<>(probeRow);
                    joined.addAll(buildRow);
                    result.add(joined);
                }
            }
            if (joinType == JoinType.SEMI && matched || joinType == JoinType.ANTI && !matched) {
                result.add(row(probeRow.get(2), probeRow.get(0), probeRow.get(1)));
            }
            if (joinType.preservesProbe() && !matched) {
                List<Object> joined = new ArrayList<>(probeRow);
                joined.addAll(Arrays.asList(null, null, null));
                result.add(joined);
            }
        }
        if (joinType.preservesBuild()) {
            for (int buildIndex = 0; buildIndex < build.size(); buildIndex++) {
                if (!buildMatched[buildIndex]) {
                    List<Object> joined = new ArrayList<>(Arrays.asList(null, null, null));
                    joined.addAll(build.get(buildIndex));
                    result.add(joined);
                }
            }
        }
        return sorted(result);
    }

    /** Rows in the order of their text form (computed once per row), to compare multisets. */
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<java.util.Map.Entry<String, List<Object>>> keyed = new ArrayList<>();
        for (List<Object> row : rows) {
            keyed.add(java.util.Map.entry(row.toString(), row));
        }
        keyed.sort(java.util.Map.Entry.comparingByKey());
        return keyed.stream().map(java.util.Map.Entry::getValue).toList();
    }

    private static List<List<Object>> run(PlanNode plan) {
        ExecutionContext context = context();
        List<List<Object>> rows = sorted(TestExecution.run(plan, context));
        assertEquals(0, context.memory().allocatedBytes(MemoryTag.HASH_TABLES), "hash table memory returned");
        return rows;
    }

    @Test
    void everyJoinTypeMatchesTheNaiveJoinSerially() {
        List<List<Object>> probeRows = rows(300, 1);
        List<List<Object>> buildRows = rows(200, 2);
        Table probe = table("p", probeRows);
        Table build = table("b", buildRows);
        for (JoinType joinType : JoinType.values()) {
            for (int[] keys : List.of(new int[]{0}, new int[]{0, 1}, new int[]{1})) {
                for (boolean withResidual : new boolean[]{false, true}) {
                    HashJoinNode join = new HashJoinNode(scan(probe, false), scan(build, false), joinType, keys, keys,
                            withResidual ? residual() : null, output(joinType), false, ESTIMATE);
                    assertEquals(expected(probeRows, buildRows, joinType, keys, withResidual), run(join),
                            joinType + " on " + Arrays.toString(keys) + (withResidual ? " with residual" : ""));
                }
            }
        }
    }

    @Test
    void parallelProbeSharesOneTableBuiltTogetherOrByOneParticipant() {
        List<List<Object>> probeRows = rows(1500, 3);
        List<List<Object>> buildRows = rows(400, 4);
        Table probe = table("p", probeRows);
        Table build = table("b", buildRows);
        for (JoinType joinType : List.of(JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI)) {
            for (boolean cooperative : new boolean[]{false, true}) {
                for (boolean withResidual : new boolean[]{false, true}) {
                    int[] keys = {0};
                    HashJoinNode join = new HashJoinNode(scan(probe, true), scan(build, cooperative), joinType, keys, keys,
                            withResidual ? residual() : null, output(joinType), cooperative, ESTIMATE);
                    assertEquals(expected(probeRows, buildRows, joinType, keys, withResidual),
                            run(new GatherNode(join, 3, false, ESTIMATE)),
                            joinType + (cooperative ? " parallel hash" : " shared hash") + (withResidual ? " with residual" : ""));
                }
            }
        }
    }

    /**
     * With a filter (probe.v >= 20) on the probe side, an INNER, RIGHT or SEMI join hands the
     * filter its build keys; every join type must still give the naive join's rows over the
     * filtered probe rows, serially and in parallel, for a build whose keys make a bitmap (a
     * narrow range) and one whose keys are hashed (a wide range).
     */
    @Test
    void aFilteredProbeSideGetsTheBuildKeysWithoutChangingAnyJoinsRows() {
        List<List<Object>> probeRows = new ArrayList<>(rows(2000, 7));
        List<List<Object>> narrowBuild = rows(30, 8);
        List<List<Object>> wideBuild = new ArrayList<>(rows(30, 9));
        wideBuild.add(row(Long.MAX_VALUE - 5, "far", 1L));
        wideBuild.add(row(Long.MIN_VALUE, "min", 2L));
        probeRows.add(row(Long.MAX_VALUE - 5, "far probe", 50L));
        probeRows.add(row(Long.MIN_VALUE, "min probe", 60L));
        List<List<Object>> filteredProbe = probeRows.stream().filter(row -> (Long) row.get(2) >= 20).toList();
        List<DataType> types = List.of(DataType.BIGINT, DataType.TEXT, DataType.BIGINT);
        Table probe = TestExecution.table("fp", List.of("k", "t", "v"), types, 7, probeRows);
        Expr condition = new Call(Function.GREATER_THAN_OR_EQUAL, DataType.BOOLEAN, new ColumnRef(2, DataType.BIGINT),
                new dev.parallax.engine.expr.Literal(20L, DataType.BIGINT));
        for (List<List<Object>> buildRows : List.of(narrowBuild, wideBuild)) {
            Table build = TestExecution.table("fb", List.of("k", "t", "v"), types, 7, buildRows);
            for (JoinType joinType : JoinType.values()) {
                for (boolean parallel : new boolean[]{false, true}) {
                    int[] keys = {0};
                    PlanNode probeSide = new FilterNode(new SeqScanNode(probe, new int[]{0, 1, 2}, parallel, ESTIMATE), condition, ESTIMATE);
                    PlanNode join = new HashJoinNode(probeSide, new SeqScanNode(build, new int[]{0, 1, 2}, false, ESTIMATE), joinType,
                            keys, keys, null, output(joinType), false, ESTIMATE);
                    if (parallel && !joinType.preservesBuild()) {
                        join = new GatherNode(join, 3, false, ESTIMATE);
                    }
                    assertEquals(expected(filteredProbe, buildRows, joinType, keys, false), run(join),
                            joinType + (parallel ? " in parallel" : "") + " over " + buildRows.size() + " build rows");
                }
            }
        }
    }

    @Test
    void emptySidesGiveEmptyOrNullExtendedRows() {
        List<List<Object>> someRows = List.of(row(1L, "a", 5L), row(null, "b", 6L));
        Table some = table("some", someRows);
        Table none = table("none", List.of());
        int[] keys = {0};
        for (JoinType joinType : JoinType.values()) {
            HashJoinNode emptyBuild = new HashJoinNode(scan(some, false), scan(none, false), joinType, keys, keys, null,
                    output(joinType), false, ESTIMATE);
            assertEquals(expected(someRows, List.of(), joinType, keys, false), run(emptyBuild), joinType + " with empty build");
            HashJoinNode emptyProbe = new HashJoinNode(scan(none, false), scan(some, false), joinType, keys, keys, null,
                    output(joinType), false, ESTIMATE);
            assertEquals(expected(List.of(), someRows, joinType, keys, false), run(emptyProbe), joinType + " with empty probe");
        }
    }

    @Test
    void anExactSmallInnerJoinWithDuplicatesOnBothSides() {
        Table left = table("l", List.of(row(1L, "a", 10L), row(1L, "b", 11L), row(2L, "c", 12L), row(null, "d", 13L)));
        Table right = table("r", List.of(row(1L, "x", 20L), row(1L, "y", 21L), row(3L, "z", 22L), row(null, "w", 23L)));
        HashJoinNode join = new HashJoinNode(scan(left, false), scan(right, false), JoinType.INNER, new int[]{0}, new int[]{0},
                null, new int[]{1, 4}, false, ESTIMATE);
        assertEquals(List.of(row("a", "x"), row("a", "y"), row("b", "x"), row("b", "y")), run(join));
    }

    @Test
    void nestedLoopJoinEvaluatesANonEquiConditionForEveryPair() {
        List<List<Object>> outerRows = rows(150, 5);
        List<List<Object>> innerRows = rows(90, 6);
        Table outer = table("o", outerRows);
        Table inner = table("i", innerRows);
        for (JoinType joinType : JoinType.values()) {
            NestedLoopJoinNode join = new NestedLoopJoinNode(scan(outer, false), scan(inner, false), joinType, residual(),
                    output(joinType), ESTIMATE);
            assertEquals(expected(outerRows, innerRows, joinType, new int[0], true), run(join), "nested loop " + joinType);
        }
        NestedLoopJoinNode cross = new NestedLoopJoinNode(scan(outer, false), scan(inner, false), JoinType.INNER, null,
                output(JoinType.INNER), ESTIMATE);
        assertEquals(outerRows.size() * innerRows.size(), run(cross).size());
        assertEquals(expected(outerRows, innerRows, JoinType.INNER, new int[0], false),
                run(new GatherNode(cross.withOuter(scan(outer, true), ESTIMATE), 2, false, ESTIMATE)));
    }
}
