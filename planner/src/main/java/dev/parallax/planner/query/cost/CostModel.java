package dev.parallax.planner.query.cost;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.plan.ParallelDegree;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * PostgreSQL's cost units (costsize.c): seq_page_cost per 8 KB page read, cpu_tuple_cost per row
 * a node emits or a scan visits, cpu_operator_cost per operator evaluated. Selectivities are
 * PostgreSQL's defaults for a table without statistics (equality 0.005, inequality 1/3), or
 * ANALYZE's figures when the filtered columns have them ({@link StatisticsSelectivity}).
 */
public final class CostModel {
    /** PostgreSQL's DEFAULT_NUM_DISTINCT: groups per key when nothing better is known. */
    private static final double DEFAULT_DISTINCT = 200;
    private final double seqPageCost;
    private final double cpuTupleCost;
    private final double cpuOperatorCost;
    private final double randomPageCost;
    private final double cpuIndexTupleCost;
    private final boolean indexScanEnabled;
    private final boolean partitionPruningEnabled;

    public CostModel(Settings settings) {
        this.randomPageCost = settings.getDouble("random_page_cost");
        this.cpuIndexTupleCost = settings.getDouble("cpu_index_tuple_cost");
        this.indexScanEnabled = settings.getBoolean("enable_indexscan");
        this.partitionPruningEnabled = settings.getBoolean("enable_partition_pruning");
        this.seqPageCost = settings.getDouble("seq_page_cost");
        this.cpuTupleCost = settings.getDouble("cpu_tuple_cost");
        this.cpuOperatorCost = settings.getDouble("cpu_operator_cost");
    }

    /** A (possibly parallel) sequential scan; {@code divisor} is 1 for a serial scan. */
    public PlanEstimate scan(long sizeBytes, double rows, List<DataType> columns, double divisor) {
        double disk = seqPageCost * ParallelDegree.pages(sizeBytes);
        double cpu = cpuTupleCost * rows / divisor;
        return new PlanEstimate(0, disk + cpu, Math.max(1, Math.rint(rows / divisor)), width(columns));
    }

    /** False under {@code SET enable_indexscan = off}: the planner then plans no index scans, as PostgreSQL. */
    public boolean indexScanEnabled() {
        return indexScanEnabled;
    }

    /** enable_partition_pruning: prune partitions when planning and when execution starts. */
    public boolean partitionPruningEnabled() {
        return partitionPruningEnabled;
    }

    /**
     * An index scan returning {@code rows} of a table of {@code tableRows} rows in
     * {@code sizeBytes}. Startup: the two binary searches for the range ends (a comparison per
     * step). Run: each row costs an index entry and a tuple, and the heap pages touched cost
     * {@code random_page_cost} each; pages touched follow Mackert and Lohman's estimate, as
     * PostgreSQL's index_pages_fetched, for rows spread at random over the table's pages (there
     * are no correlation statistics), so they never exceed the table's pages.
     */
    public PlanEstimate indexScan(long sizeBytes, double tableRows, double rows, List<DataType> columns) {
        double startup = 2 * cpuOperatorCost * Math.ceil(Math.log(tableRows + 2) / Math.log(2));
        double pages = Math.max(1, ParallelDegree.pages(sizeBytes));
        double pagesFetched = Math.min(pages, 2 * pages * rows / (2 * pages + rows));
        double run = randomPageCost * pagesFetched + (cpuTupleCost + cpuIndexTupleCost) * rows;
        return new PlanEstimate(startup, startup + run, Math.max(1, Math.rint(rows)), width(columns));
    }

    public PlanEstimate filter(PlanEstimate input, Expr condition, List<DataType> columns) {
        return filter(input, condition, columns, ColumnStatisticsLookup.NONE);
    }

    /** A filter whose input columns have ANALYZE statistics in {@code statistics} ({@link StatisticsSelectivity}). */
    public PlanEstimate filter(PlanEstimate input, Expr condition, List<DataType> columns, ColumnStatisticsLookup statistics) {
        double rows = Math.max(1, Math.rint(input.rows() * selectivity(condition, statistics)));
        double cost = input.totalCost() + cpuOperatorCost * operators(condition) * input.rows();
        return new PlanEstimate(input.startupCost(), cost, rows, width(columns));
    }

    public PlanEstimate project(PlanEstimate input, List<Expr> expressions, List<DataType> columns) {
        int operators = 0;
        for (Expr expression : expressions) {
            operators += operators(expression);
        }
        double cost = input.totalCost() + cpuOperatorCost * operators * input.rows();
        return new PlanEstimate(input.startupCost(), cost, input.rows(), width(columns));
    }

    /**
     * cost_project_set: each input row evaluates the set-returning calls once, each output row
     * costs cpu_tuple_cost; {@code rowsPerInputRow} rows come out per input row.
     */
    public PlanEstimate projectSet(PlanEstimate input, double rowsPerInputRow, int calls, List<DataType> columns) {
        double rows = Math.max(1, input.rows() * rowsPerInputRow);
        double cost = input.totalCost() + cpuOperatorCost * calls * input.rows() + cpuTupleCost * rows;
        return new PlanEstimate(input.startupCost(), cost, rows, width(columns));
    }

    /** cost_agg: plain (no keys) or hashed; {@code groups} rows come out. */
    public PlanEstimate aggregate(PlanEstimate input, int keys, int calls, double groups, List<DataType> columns) {
        double startup = input.totalCost() + cpuOperatorCost * (calls + keys) * input.rows();
        double total = startup + cpuTupleCost * groups + cpuOperatorCost * calls * groups;
        if (keys == 0) {
            return new PlanEstimate(startup, total, 1, width(columns));
        }
        return new PlanEstimate(startup, total, groups, width(columns));
    }

    public double groups(double inputRows, int keys) {
        if (keys == 0) {
            return 1;
        }
        return Math.max(1, Math.min(inputRows, Math.pow(DEFAULT_DISTINCT, keys)));
    }

    /** Groups of a GROUPING SETS aggregation over {@code inputRows} rows (before expansion): the sum of each set's. */
    public double groups(double inputRows, dev.parallax.engine.plan.GroupingSets sets) {
        double groups = 0;
        for (int[] set : sets.sets()) {
            groups += groups(inputRows, set.length);
        }
        return groups;
    }

    /** cost_sort: comparisons n log2 n at 2 * cpu_operator_cost each, all paid before the first row. */
    public PlanEstimate sort(PlanEstimate input, double outputRows) {
        return sort(input, outputRows, -1);
    }

    /**
     * cost_sort with a bound ({@code limit} >= 1, else unbounded): when more than twice the bound
     * arrives, a top-N heap of 2 * limit entries is kept, so each row costs log2(2 * limit) comparisons.
     */
    public PlanEstimate sort(PlanEstimate input, double outputRows, long limit) {
        double rows = Math.max(2, input.rows());
        double comparisons = limit > 0 && rows > 2.0 * limit ? log2(2.0 * limit) : log2(rows);
        double startup = input.totalCost() + 2 * cpuOperatorCost * rows * comparisons;
        return new PlanEstimate(startup, startup + cpuOperatorCost * input.rows(), outputRows, input.width());
    }

    /**
     * cost_gather_merge: a heap over the {@code workers} + 1 participants' streams (built once,
     * log2 of its size in comparisons per row), a little heap bookkeeping per row, and the Gather's
     * setup and per-row costs, the latter 5% higher because the leader waits for every participant.
     */
    public PlanEstimate gatherMerge(PlanEstimate input, double rows, int workers, double setupCost, double tupleCost) {
        double streams = workers + 1;
        double comparisonCost = 2 * cpuOperatorCost;
        double startup = comparisonCost * streams * log2(streams) + setupCost;
        double run = rows * comparisonCost * log2(streams) + cpuOperatorCost * rows + tupleCost * rows * 1.05;
        return new PlanEstimate(input.startupCost() + startup, input.totalCost() + startup + run, rows, input.width());
    }

    private static double log2(double value) {
        return Math.log(value) / Math.log(2);
    }

    /**
     * cost_append: the inputs' costs plus half a cpu_tuple_cost per row passed on (PostgreSQL's
     * APPEND_CPU_COST_MULTIPLIER), starting when the first input starts.
     */
    public PlanEstimate append(List<PlanEstimate> inputs, int width) {
        double total = 0;
        double rows = 0;
        for (PlanEstimate input : inputs) {
            total += input.totalCost();
            rows += input.rows();
        }
        double startup = inputs.isEmpty() ? 0 : inputs.getFirst().startupCost();
        return new PlanEstimate(startup, total + cpuTupleCost * 0.5 * rows, rows, width);
    }

    /**
     * A hash join (final_cost_hashjoin, simplified) that emits {@code rows}: the build input is
     * hashed before the first row comes out (a hash and a tuple per row), then every probe row is
     * hashed and looked up, every candidate pays the residual's operators and every output row a
     * tuple. The rows come from the translation ({@code JoinRowCount}: the keys' distinct counts).
     */
    public PlanEstimate hashJoin(PlanEstimate probe, PlanEstimate build, double rows, int keys, Expr residual,
                                 List<DataType> columns) {
        double probeRows = probe.rows();
        double buildRows = build.rows();
        // The residual runs on every key match, of which it keeps its selectivity's share.
        double candidates = residual == null ? 0 : Math.max(rows, rows / Math.max(0.01, selectivity(residual)));
        double startup = build.totalCost() + (cpuOperatorCost * keys + cpuTupleCost) * buildRows + probe.startupCost();
        double run = probe.totalCost() - probe.startupCost() + cpuOperatorCost * keys * probeRows
                + (residual == null ? 0 : cpuOperatorCost * operators(residual) * candidates) + cpuTupleCost * rows;
        return new PlanEstimate(startup, startup + run, Math.max(1, Math.rint(rows)), width(columns));
    }

    /** A nested-loop join emitting {@code rows}: the inner input is read once, then the condition runs for every pair. */
    public PlanEstimate nestedLoopJoin(PlanEstimate outer, PlanEstimate inner, double rows, Expr condition,
                                       List<DataType> columns) {
        double pairs = outer.rows() * inner.rows();
        double startup = inner.totalCost() + outer.startupCost();
        double run = outer.totalCost() - outer.startupCost() + cpuTupleCost * inner.rows()
                + (condition == null ? 0 : cpuOperatorCost * operators(condition) * pairs) + cpuTupleCost * rows;
        return new PlanEstimate(startup, startup + run, Math.max(1, Math.rint(rows)), width(columns));
    }

    /**
     * Rows of a join with {@code matched} matching pairs out of {@code probeRows} x {@code buildRows}
     * when nothing better is known: outer joins keep at least their preserved rows; SEMI and ANTI
     * keep half of the probe rows.
     */
    public static double joinRows(JoinType joinType, double matched, double probeRows, double buildRows) {
        return switch (joinType) {
            case INNER -> matched;
            case LEFT -> Math.max(matched, probeRows);
            case RIGHT -> Math.max(matched, buildRows);
            case FULL -> Math.max(matched, probeRows + buildRows);
            case SEMI -> Math.min(probeRows, Math.max(1, probeRows * 0.5));
            case ANTI -> Math.max(1, probeRows * 0.5);
        };
    }

    /** The share of pairs a join condition keeps by PostgreSQL's default selectivities (no statistics). */
    public static double defaultSelectivity(Expr condition) {
        return condition == null ? 1 : selectivity(condition);
    }

    public PlanEstimate rows(double rows, int width) {
        return new PlanEstimate(0, cpuTupleCost * rows, rows, width);
    }

    /** cost_gather: setup once, then parallel_tuple_cost per row passed to the leader. */
    public static PlanEstimate gather(PlanEstimate input, double rows, double setupCost, double tupleCost) {
        double startup = input.startupCost() + setupCost;
        double total = input.totalCost() + setupCost + tupleCost * rows;
        return new PlanEstimate(startup, total, rows, input.width());
    }

    public double cpuOperatorCost() {
        return cpuOperatorCost;
    }

    static double selectivity(Expr condition) {
        return selectivity(condition, ColumnStatisticsLookup.NONE);
    }

    static double selectivity(Expr condition, ColumnStatisticsLookup statistics) {
        if (condition instanceof Call call) {
            if (statistics != ColumnStatisticsLookup.NONE) {
                double known = StatisticsSelectivity.of(call, statistics);
                if (!Double.isNaN(known)) {
                    return known;
                }
            }
            return switch (call.function()) {
                case AND -> {
                    double product = 1;
                    for (Expr argument : call.arguments()) {
                        product *= selectivity(argument, statistics);
                    }
                    yield product;
                }
                case OR -> {
                    double none = 1;
                    for (Expr argument : call.arguments()) {
                        none *= 1 - selectivity(argument, statistics);
                    }
                    yield 1 - none;
                }
                case NOT -> 1 - selectivity(call.arguments().getFirst(), statistics);
                case EQUAL, IS_NOT_DISTINCT_FROM, LIKE, ILIKE -> 0.005;
                case NOT_EQUAL, IS_DISTINCT_FROM, NOT_LIKE, NOT_ILIKE -> 0.995;
                case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> 1.0 / 3;
                case IS_NULL -> 0.005;
                case IS_NOT_NULL -> 0.995;
                default -> 0.5;
            };
        }
        if (condition instanceof InList inList) {
            double matches = Math.min(1, 0.005 * inList.values().size());
            return inList.negated() ? 1 - matches : matches;
        }
        return 0.5;
    }

    static int operators(Expr expression) {
        return switch (expression) {
            case Call call -> {
                int count = 1;
                for (Expr argument : call.arguments()) {
                    count += operators(argument);
                }
                yield count;
            }
            case Cast cast -> 1 + operators(cast.input());
            case Case caseExpression -> {
                int count = operators(caseExpression.otherwise());
                for (Expr condition : caseExpression.conditions()) {
                    count += operators(condition);
                }
                for (Expr result : caseExpression.results()) {
                    count += operators(result);
                }
                yield count;
            }
            case InList inList -> inList.values().size() + operators(inList.value());
            default -> 0;
        };
    }

    /** Average row width in bytes, as PostgreSQL prints it: fixed widths, 32 for variable ones. */
    public static int width(List<DataType> columns) {
        int width = 0;
        for (DataType type : columns) {
            width += type.kind().isFixedWidth() ? type.kind().storageWidth()
                    : type.length() > 0 ? Math.min(type.length(), 32) + 1 : 32;
        }
        return width;
    }
}
