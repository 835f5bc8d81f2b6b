package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.cost.JoinKeySelectivity;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cost-based order of a tree of inner joins (a {@link MultiJoin} of up to {@link #MAX_RELATIONS}
 * inputs): dynamic programming over the subsets of the inputs (DPsize, as PostgreSQL's standard
 * join search and DuckDB's enumerator do for small graphs), bushy trees allowed, each subset joined
 * only along a join condition (cartesian products only when the graph is not connected).
 * <p>The cost of a plan is what a hash join pays for: the rows of every intermediate result plus the
 * rows of every build side (the smaller input), so plans that keep intermediate results small win
 * (DuckDB's C_out, with the hash tables added). Rows of a subset do not depend on how it is joined:
 * the product of its inputs' rows and of the selectivities of the conditions inside it: columns
 * made equal by equi keys form classes (a = b and b = c also join a to c), k inputs of a class keep
 * {@code min(nd) / product(nd)}, composite keys between two inputs are capped as
 * {@link JoinKeySelectivity} does, other conditions at Calcite's guess. Subsets are visited in a
 * fixed order and a plan replaces another only when strictly cheaper, so the same query always
 * gets the same plan.
 */
final class JoinEnumerator {
    /** Above this many inputs (2^n subsets, 3^n splits) the caller falls back to a greedy order. */
    static final int MAX_RELATIONS = 10;

    private final MultiJoin multiJoin;
    private final RexBuilder rexBuilder;
    private final int relations;
    private final int[] fieldStart;
    private final int[] fieldFactor;
    private final double[] inputRows;
    /** Conjuncts of the join condition with the inputs each references (bit i: input i). */
    private final List<RexNode> conditions = new ArrayList<>();
    private final int[] conditionFactors;
    /** Per condition: true when it is an equality of a column of each of two inputs (a hash key). */
    private final boolean[] equiKey;
    /** Selectivity of each condition that is no equi key; equi keys are counted per pair of inputs. */
    private final double[] conditionSelectivity;
    /**
     * Per pair of inputs joined on several keys: how much more their composite keys keep than the
     * keys' selectivities multiplied ({@link JoinKeySelectivity}'s containment cap); 1 otherwise.
     */
    private final double[][] compositeCorrection;
    /** Columns (MultiJoin field numbers) that equi keys make equal, one input each, ascending by input. */
    private final List<int[]> equalColumns = new ArrayList<>();
    /** Per class of {@link #equalColumns}: the distinct values of each column on its input. */
    private final List<double[]> equalColumnsDistinct = new ArrayList<>();

    private JoinEnumerator(MultiJoin multiJoin, RelMetadataQuery mq) {
        this.multiJoin = multiJoin;
        this.rexBuilder = multiJoin.getCluster().getRexBuilder();
        List<RelNode> inputs = multiJoin.getInputs();
        relations = inputs.size();
        fieldStart = new int[relations + 1];
        for (int input = 0; input < relations; input++) {
            fieldStart[input + 1] = fieldStart[input] + inputs.get(input).getRowType().getFieldCount();
        }
        fieldFactor = new int[fieldStart[relations]];
        for (int input = 0; input < relations; input++) {
            Arrays.fill(fieldFactor, fieldStart[input], fieldStart[input + 1], input);
        }
        inputRows = new double[relations];
        for (int input = 0; input < relations; input++) {
            Double rows = mq.getRowCount(unwrap(inputs.get(input)));
            inputRows[input] = rows == null ? 1 : Math.max(1, rows);
        }
        for (RexNode conjunct : RelOptUtil.conjunctions(multiJoin.getJoinFilter())) {
            if (!conjunct.isAlwaysTrue()) {
                conditions.add(conjunct);
            }
        }
        conditionFactors = new int[conditions.size()];
        equiKey = new boolean[conditions.size()];
        conditionSelectivity = new double[conditions.size()];
        compositeCorrection = new double[relations][relations];
        List<int[]> equalPairs = new ArrayList<>();
        List<List<Integer>> leftKeys = new ArrayList<>();
        List<List<Integer>> rightKeys = new ArrayList<>();
        for (int pair = 0; pair < relations * relations; pair++) {
            leftKeys.add(new ArrayList<>());
            rightKeys.add(new ArrayList<>());
        }
        for (int index = 0; index < conditions.size(); index++) {
            RexNode condition = conditions.get(index);
            int factors = 0;
            for (int field : RelOptUtil.InputFinder.bits(condition)) {
                factors |= 1 << fieldFactor[field];
            }
            conditionFactors[index] = factors;
            if (condition.getKind() == SqlKind.EQUALS && Integer.bitCount(factors) == 2
                    && ((RexCall) condition).getOperands().get(0) instanceof RexInputRef first
                    && ((RexCall) condition).getOperands().get(1) instanceof RexInputRef second) {
                int firstFactor = fieldFactor[first.getIndex()];
                int secondFactor = fieldFactor[second.getIndex()];
                boolean ordered = firstFactor < secondFactor;
                int low = ordered ? firstFactor : secondFactor;
                int high = ordered ? secondFactor : firstFactor;
                RexInputRef lowRef = ordered ? first : second;
                RexInputRef highRef = ordered ? second : first;
                leftKeys.get(low * relations + high).add(lowRef.getIndex() - fieldStart[low]);
                rightKeys.get(low * relations + high).add(highRef.getIndex() - fieldStart[high]);
                equiKey[index] = true;
                equalPairs.add(new int[] {first.getIndex(), second.getIndex()});
            } else {
                conditionSelectivity[index] = RelMdUtil.guessSelectivity(condition);
            }
        }
        for (int low = 0; low < relations; low++) {
            for (int high = low + 1; high < relations; high++) {
                List<Integer> lowKeys = leftKeys.get(low * relations + high);
                List<Integer> highKeys = rightKeys.get(low * relations + high);
                double correction = 1;
                if (lowKeys.size() > 1) {
                    RelNode lowInput = unwrap(inputs.get(low));
                    RelNode highInput = unwrap(inputs.get(high));
                    double together = JoinKeySelectivity.of(lowInput, lowKeys, inputRows[low], highInput, highKeys, inputRows[high], mq);
                    double multiplied = 1;
                    for (int key = 0; key < lowKeys.size(); key++) {
                        multiplied *= JoinKeySelectivity.of(lowInput, List.of(lowKeys.get(key)), inputRows[low], highInput,
                                List.of(highKeys.get(key)), inputRows[high], mq);
                    }
                    correction = Math.max(1, together / multiplied);
                }
                compositeCorrection[low][high] = correction;
                compositeCorrection[high][low] = correction;
            }
        }
        collectEqualColumns(equalPairs, inputs, mq);
    }

    /**
     * Groups the equi keys' columns into classes of equal columns (a = b and b = c make a, b, c
     * equal), so that inputs sharing a class may be joined directly on the implied a = c, as
     * PostgreSQL's equivalence classes allow: TPC-H Q9 joins part to partsupp (p_partkey =
     * l_partkey = ps_partkey) before lineitem, Q5 customer to nation through s_nationkey. When a
     * class would hold two columns of one input, or columns of different types, every equi key
     * stays a class of its own (the keys as written).
     */
    private void collectEqualColumns(List<int[]> equalPairs, List<RelNode> inputs, RelMetadataQuery mq) {
        int fields = fieldFactor.length;
        int[] parent = new int[fields];
        for (int field = 0; field < fields; field++) {
            parent[field] = field;
        }
        boolean merge = true;
        List<org.apache.calcite.rel.type.RelDataTypeField> fieldTypes = multiJoin.getRowType().getFieldList();
        for (int[] pair : equalPairs) {
            if (!org.apache.calcite.sql.type.SqlTypeUtil.equalSansNullability(multiJoin.getCluster().getTypeFactory(),
                    fieldTypes.get(pair[0]).getType(), fieldTypes.get(pair[1]).getType())) {
                merge = false;
            }
            parent[root(parent, pair[0])] = root(parent, pair[1]);
        }
        List<int[]> classes = new ArrayList<>();
        if (merge) {
            java.util.Map<Integer, List<Integer>> members = new java.util.TreeMap<>();
            for (int[] pair : equalPairs) {
                for (int field : pair) {
                    List<Integer> list = members.computeIfAbsent(root(parent, field), key -> new ArrayList<>());
                    if (!list.contains(field)) {
                        list.add(field);
                    }
                }
            }
            for (List<Integer> list : members.values()) {
                int seen = 0;
                for (int field : list) {
                    int bit = 1 << fieldFactor[field];
                    if ((seen & bit) != 0) {
                        merge = false;
                    }
                    seen |= bit;
                }
                classes.add(list.stream().mapToInt(Integer::intValue).sorted().toArray());
            }
        }
        if (!merge) {
            classes.clear();
            for (int[] pair : equalPairs) {
                classes.add(pair[0] < pair[1] ? pair.clone() : new int[] {pair[1], pair[0]});
            }
        }
        for (int[] columns : classes) {
            double[] distinct = new double[columns.length];
            for (int member = 0; member < columns.length; member++) {
                int factor = fieldFactor[columns[member]];
                distinct[member] = Math.max(1, JoinKeySelectivity.distinct(unwrap(inputs.get(factor)),
                        columns[member] - fieldStart[factor], inputRows[factor], mq));
            }
            equalColumns.add(columns);
            equalColumnsDistinct.add(distinct);
        }
    }

    private static int root(int[] parent, int field) {
        int node = field;
        while (parent[node] != node) {
            parent[node] = parent[parent[node]];
            node = parent[node];
        }
        return node;
    }

    /** Whether {@link #order} plans {@code multiJoin}: inner joins only, at most {@link #MAX_RELATIONS} inputs. */
    static boolean applies(MultiJoin multiJoin) {
        if (multiJoin.isFullOuterJoin() || multiJoin.getInputs().size() < 2 || multiJoin.getInputs().size() > MAX_RELATIONS) {
            return false;
        }
        for (JoinRelType type : multiJoin.getJoinTypes()) {
            if (type != JoinRelType.INNER) {
                return false;
            }
        }
        return true;
    }

    /** The cheapest join tree of {@code multiJoin}'s inputs, with the MultiJoin's columns in its order. */
    static RelNode order(MultiJoin multiJoin, RelBuilder builder, RelMetadataQuery mq) {
        return new JoinEnumerator(multiJoin, mq).plan(builder);
    }

    private RelNode plan(RelBuilder builder) {
        int subsets = 1 << relations;
        double[] rows = new double[subsets];
        for (int subset = 1; subset < subsets; subset++) {
            rows[subset] = rows(subset);
        }
        double[] cost = new double[subsets];
        int[] split = new int[subsets];
        boolean planned = enumerate(rows, cost, split, false);
        if (!planned) {
            enumerate(rows, cost, split, true);
        }
        Built tree = build(subsets - 1, split, rows, builder);
        // The MultiJoin's columns in its own order, then what it filtered after the joins.
        int[] position = positions(tree.factors);
        List<RexNode> projection = new ArrayList<>();
        for (int field = 0; field < fieldFactor.length; field++) {
            projection.add(rexBuilder.makeInputRef(tree.rel, position[field]));
        }
        builder.push(tree.rel).project(projection, multiJoin.getRowType().getFieldNames(), true);
        List<RexNode> remaining = new ArrayList<>();
        for (int index = 0; index < conditions.size(); index++) {
            if (conditionFactors[index] == 0) {
                remaining.add(conditions.get(index));
            }
        }
        if (multiJoin.getPostJoinFilter() != null) {
            remaining.add(multiJoin.getPostJoinFilter());
        }
        if (!remaining.isEmpty()) {
            builder.filter(remaining);
        }
        return builder.build();
    }

    /**
     * Fills the cheapest cost and split of every subset, smallest subsets first (a subset's parts
     * are smaller numbers than itself); false when the whole set found no plan along conditions.
     */
    private boolean enumerate(double[] rows, double[] cost, int[] split, boolean crossProducts) {
        int subsets = 1 << relations;
        for (int subset = 1; subset < subsets; subset++) {
            if (Integer.bitCount(subset) == 1) {
                cost[subset] = 0;
                continue;
            }
            cost[subset] = Double.POSITIVE_INFINITY;
            split[subset] = 0;
            int lowest = Integer.lowestOneBit(subset);
            // Each unordered split once: the left part holds the subset's lowest input.
            for (int left = (subset - 1) & subset; left > 0; left = (left - 1) & subset) {
                if ((left & lowest) == 0) {
                    continue;
                }
                int right = subset ^ left;
                if (cost[left] == Double.POSITIVE_INFINITY || cost[right] == Double.POSITIVE_INFINITY) {
                    continue;
                }
                int connection = connection(left, right);
                if (connection == NONE && !crossProducts) {
                    continue;
                }
                double smaller = Math.min(rows[left], rows[right]);
                double join = connection == EQUI ? rows[subset] + smaller : rows[subset] + rows[left] * rows[right];
                double total = cost[left] + cost[right] + join;
                if (total < cost[subset]) {
                    cost[subset] = total;
                    split[subset] = left;
                }
            }
        }
        return cost[subsets - 1] != Double.POSITIVE_INFINITY;
    }

    private static final int NONE = 0;
    private static final int OTHER = 1;
    private static final int EQUI = 2;

    /** How two disjoint subsets join: along an equi key (a hash join), another condition, or not at all. */
    private int connection(int left, int right) {
        int union = left | right;
        int found = NONE;
        for (int[] columns : equalColumns) {
            int factors = factorsOf(columns);
            if ((factors & left) != 0 && (factors & right) != 0) {
                return EQUI;
            }
        }
        for (int index = 0; index < conditions.size(); index++) {
            int factors = conditionFactors[index];
            if (!equiKey[index] && (factors & left) != 0 && (factors & right) != 0 && (factors & ~union) == 0) {
                found = OTHER;
            }
        }
        return found;
    }

    /** Estimated rows of joining the inputs in {@code subset}, whatever the order. */
    private double rows(int subset) {
        double rows = 1;
        for (int input = 0; input < relations; input++) {
            if ((subset & (1 << input)) != 0) {
                rows *= inputRows[input];
                for (int other = input + 1; other < relations; other++) {
                    if ((subset & (1 << other)) != 0) {
                        rows *= compositeCorrection[input][other];
                    }
                }
            }
        }
        // k inputs equal on a column keep min(nd) / product(nd) of their pairs (the input with the
        // fewest values has them all in the others): 1 / max(nd) for two.
        for (int index = 0; index < equalColumns.size(); index++) {
            int[] columns = equalColumns.get(index);
            double[] distinct = equalColumnsDistinct.get(index);
            double product = 1;
            double fewest = Double.POSITIVE_INFINITY;
            int members = 0;
            for (int member = 0; member < columns.length; member++) {
                if ((subset & (1 << fieldFactor[columns[member]])) != 0) {
                    product *= distinct[member];
                    fewest = Math.min(fewest, distinct[member]);
                    members++;
                }
            }
            if (members >= 2) {
                rows *= fewest / product;
            }
        }
        for (int index = 0; index < conditions.size(); index++) {
            int factors = conditionFactors[index];
            if (!equiKey[index] && factors != 0 && (factors & ~subset) == 0) {
                rows *= conditionSelectivity[index];
            }
        }
        return Math.max(1, rows);
    }

    /** A planned subset: its relational expression and the inputs whose columns it holds, in order. */
    private record Built(RelNode rel, int[] factors) {
    }

    /** Where each column of the MultiJoin sits in a row holding the columns of {@code factors} in that order. */
    private int[] positions(int[] factors) {
        int[] position = new int[fieldFactor.length];
        int offset = 0;
        for (int factor : factors) {
            for (int field = fieldStart[factor]; field < fieldStart[factor + 1]; field++) {
                position[field] = offset++;
            }
        }
        return position;
    }

    private Built build(int subset, int[] split, double[] rows, RelBuilder builder) {
        if (Integer.bitCount(subset) == 1) {
            int factor = Integer.numberOfTrailingZeros(subset);
            RelNode input = multiJoin.getInputs().get(factor);
            int[] factors = {factor};
            List<RexNode> own = conditionsWithin(subset, 0, factors);
            if (!own.isEmpty()) {
                input = builder.push(input).filter(own).build();
            }
            return new Built(input, factors);
        }
        int first = split[subset];
        int second = subset ^ first;
        // The larger input first: the probe side, as the translation would choose anyway (on a tie
        // the part without the subset's first input, as the greedy order before this one did).
        boolean firstIsLarger = rows[first] > rows[second];
        Built left = build(firstIsLarger ? first : second, split, rows, builder);
        Built right = build(firstIsLarger ? second : first, split, rows, builder);
        int[] factors = new int[left.factors.length + right.factors.length];
        System.arraycopy(left.factors, 0, factors, 0, left.factors.length);
        System.arraycopy(right.factors, 0, factors, left.factors.length, right.factors.length);
        List<RexNode> condition = conditionsWithin(subset, first, factors);
        RelNode join = builder.push(left.rel).push(right.rel).join(JoinRelType.INNER,
                RexUtil.composeConjunction(rexBuilder, condition)).build();
        return new Built(join, factors);
    }

    /**
     * The conditions that {@code subset} applies itself: those over its inputs that neither part
     * ({@code part} and the rest; for a single input, part 0) already applied, rewritten to the
     * positions of a row holding the columns of the inputs {@code order} in that order.
     */
    private List<RexNode> conditionsWithin(int subset, int part, int[] order) {
        int rest = subset ^ part;
        int[] position = positions(order);
        List<RexNode> within = new ArrayList<>();
        List<org.apache.calcite.rel.type.RelDataTypeField> fieldTypes = multiJoin.getRowType().getFieldList();
        if (part != 0) {
            // One equality per class of equal columns across the two parts; each part made its own members equal.
            for (int[] columns : equalColumns) {
                int partColumn = -1;
                int restColumn = -1;
                for (int column : columns) {
                    int bit = 1 << fieldFactor[column];
                    if ((part & bit) != 0 && partColumn < 0) {
                        partColumn = column;
                    } else if ((rest & bit) != 0 && restColumn < 0) {
                        restColumn = column;
                    }
                }
                if (partColumn >= 0 && restColumn >= 0) {
                    within.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                            new RexInputRef(position[partColumn], fieldTypes.get(partColumn).getType()),
                            new RexInputRef(position[restColumn], fieldTypes.get(restColumn).getType())));
                }
            }
        }
        for (int index = 0; index < conditions.size(); index++) {
            int factors = conditionFactors[index];
            if (equiKey[index] || factors == 0 || (factors & ~subset) != 0) {
                continue;
            }
            boolean appliedBelow = part != 0 && ((factors & ~part) == 0 || (factors & ~rest) == 0);
            if (!appliedBelow) {
                within.add(conditions.get(index).accept(new RexShuttle() {
                    @Override
                    public RexNode visitInputRef(RexInputRef inputRef) {
                        return new RexInputRef(position[inputRef.getIndex()], inputRef.getType());
                    }
                }));
            }
        }
        return within;
    }

    private int factorsOf(int[] columns) {
        int factors = 0;
        for (int column : columns) {
            factors |= 1 << fieldFactor[column];
        }
        return factors;
    }

    private static RelNode unwrap(RelNode node) {
        return node instanceof HepRelVertex vertex ? vertex.getCurrentRel() : node;
    }
}
