package dev.parallax.engine.operator.join;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.explain.ParticipantStatistics;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.operator.filter.FilterOperator;
import dev.parallax.engine.operator.filter.JoinKeyFilter;
import dev.parallax.engine.operator.filter.LongValueSet;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;
import java.util.List;

/**
 * The running hash join (and nested-loop join, which is a hash join without keys: every build row
 * is in the one chain). On the first {@link #next()} it gets the hash table (building it, alone or
 * with the other participants, or waiting for it; see {@link SharedJoinBuild}); then per probe
 * batch it hashes the probe keys once, walks the chains collecting candidate pairs (probe
 * position, build row reference) with equal hashes, up to a batch of pairs at a time, checks the
 * keys column by column over the pairs, gathers the needed columns of the pairs into the joined
 * batch and evaluates the residual condition there. Probe rows' match flags live per batch, so
 * unmatched probe rows (LEFT, FULL, ANTI) and matched ones (SEMI) are emitted when the batch is
 * done; unmatched build rows (RIGHT, FULL) after the whole probe input.
 * <p>With spilling enabled ({@link #enableSpill}), a build side that outgrows {@code work_mem ×
 * hash_mem_multiplier} is written to hash partitions instead and the join continues as a
 * {@link GraceHashJoin}; the check is one comparison per build batch, nothing per row.
 */
public final class JoinOperator implements Operator {
    /** Pairs per output batch. */
    private static final int PAIR_CAPACITY = Batch.DEFAULT_CAPACITY;
    private static final int NOT_STARTED = -2;
    /** The largest build whose keys are pushed into the probe side's filter (see {@link #pushKeyFilter}). */
    private static final long KEY_FILTER_MAXIMUM_ROWS = 1 << 16;

    private enum Phase { BUILD, NEXT_PROBE_BATCH, MATCH, PROBE_LEFTOVERS, BUILD_LEFTOVERS, SPILLED, DONE }

    private final ExecutionContext context;
    private final Operator probeInput;
    private final Operator buildInput;
    private final JoinType joinType;
    private final int[] probeKeys;
    private final int[] buildKeys;
    private final Predicate residual;
    private final int[] outputColumns;
    private final List<DataType> buildTypes;
    private final int probeWidth;
    private final SharedJoinBuild shared;
    private final boolean cooperative;
    private final boolean[] neededColumns;
    private final boolean[] residualColumns;
    private final List<DataType> probeTypes;

    /** Null unless the build may spill. */
    private HashSpillOptions spillOptions;
    private TemporaryDirectory spillDirectory;
    private boolean ownsSpillDirectory;
    private int spillLevel;
    /** The partition-by-partition join once the build spilled, else null. */
    private GraceHashJoin grace;
    private final JoinStatistics statistics = new JoinStatistics();
    private ParticipantStatistics explainStatistics;

    private Phase phase = Phase.BUILD;
    private JoinHashTable table;
    private JoinBuildPart privatePart;

    private Batch probe;
    private int probeCount;
    private long[] probeHashes = new long[PAIR_CAPACITY];
    private boolean[] probeNullKeys = new boolean[PAIR_CAPACITY];
    /** Per probe position: whether the row found a match (after the residual). */
    private boolean[] probeMatched = new boolean[PAIR_CAPACITY];
    private int probeIndex;
    private int chainRef;

    private int[] pairProbe = new int[PAIR_CAPACITY];
    private int[] pairBuild = new int[PAIR_CAPACITY];
    private int[] residualSelection = new int[PAIR_CAPACITY];
    private final Batch joined;
    private final Batch pairOutput;
    private final ColumnVector[] probeOutputColumns;
    private final Batch probeOutput;
    private int[] probeOutputSelection = new int[PAIR_CAPACITY];
    private int buildLeftoverRef;

    /**
     * @param residual condition over the joined row (probe columns, then build columns), or null
     * @param shared   the build state shared by the participants of the enclosing Gather, or null
     *                 when this instance builds its own table
     */
    public JoinOperator(ExecutionContext context, Operator probeInput, Operator buildInput, JoinType joinType,
                        int[] probeKeys, int[] buildKeys, Predicate residual, boolean[] residualColumns,
                        int[] outputColumns, List<DataType> probeTypes, List<DataType> buildTypes,
                        SharedJoinBuild shared, boolean cooperative) {
        this.context = context;
        this.probeInput = probeInput;
        this.buildInput = buildInput;
        this.joinType = joinType;
        this.probeKeys = probeKeys.clone();
        this.buildKeys = buildKeys.clone();
        this.residual = residual;
        this.outputColumns = outputColumns.clone();
        this.buildTypes = List.copyOf(buildTypes);
        this.probeWidth = probeTypes.size();
        this.probeTypes = List.copyOf(probeTypes);
        this.residualColumns = residualColumns;
        this.shared = shared;
        this.cooperative = cooperative;
        int joinedWidth = probeWidth + buildTypes.size();
        this.neededColumns = new boolean[joinedWidth];
        if (residualColumns != null) {
            for (int column = 0; column < joinedWidth; column++) {
                neededColumns[column] = residualColumns[column];
            }
        }
        ColumnVector[] joinedColumns = new ColumnVector[joinedWidth];
        for (int column = 0; column < joinedWidth; column++) {
            DataType type = column < probeWidth ? probeTypes.get(column) : buildTypes.get(column - probeWidth);
            joinedColumns[column] = ColumnVector.create(type, PAIR_CAPACITY);
        }
        this.joined = new Batch(joinedColumns);
        ColumnVector[] outputVectors = new ColumnVector[outputColumns.length];
        for (int index = 0; index < outputColumns.length; index++) {
            outputVectors[index] = joinedColumns[outputColumns[index]];
            if (joinType.emitsPairs()) {
                neededColumns[outputColumns[index]] = true;
            }
        }
        this.pairOutput = new Batch(outputVectors);
        this.probeOutputColumns = new ColumnVector[outputColumns.length];
        this.probeOutput = new Batch(probeOutputColumns);
        if (shared != null) {
            shared.use();
        }
    }

    @Override
    public Batch next() {
        while (true) {
            context.checkCancelled();
            switch (phase) {
                case BUILD -> {
                    table = obtainTable();
                    phase = grace != null ? Phase.SPILLED : Phase.NEXT_PROBE_BATCH;
                    if (table != null) {
                        pushKeyFilter();
                    }
                }
                case SPILLED -> {
                    Batch output = grace.next();
                    if (output != null) {
                        return output;
                    }
                    phase = Phase.DONE;
                }
                case NEXT_PROBE_BATCH -> startProbeBatch();
                case MATCH -> {
                    Batch output = match();
                    if (output != null) {
                        return output;
                    }
                }
                case PROBE_LEFTOVERS -> {
                    phase = Phase.NEXT_PROBE_BATCH;
                    Batch output = probeLeftovers();
                    if (output != null) {
                        return output;
                    }
                }
                case BUILD_LEFTOVERS -> {
                    Batch output = buildLeftovers();
                    if (output != null) {
                        return output;
                    }
                    phase = Phase.DONE;
                }
                case DONE -> {
                    report();
                    return null;
                }
            }
        }
    }

    /**
     * Lets the build spill past {@code options.memoryLimitBytes()} into {@code directory}; only for
     * joins with keys (a nested loop cannot be partitioned).
     *
     * @param ownsDirectory whether {@link #close()} removes the directory (false for the join of one
     *                      spilled partition, whose directory is its parent's)
     * @param level         the partitioning level of this join's build, 0 for a join of the plan
     */
    public void enableSpill(HashSpillOptions options, TemporaryDirectory directory, boolean ownsDirectory, int level) {
        if (buildKeys.length == 0 || level > HashPartitions.MAXIMUM_LEVEL) {
            return;
        }
        this.spillOptions = java.util.Objects.requireNonNull(options, "options");
        this.spillDirectory = java.util.Objects.requireNonNull(directory, "directory");
        this.ownsSpillDirectory = ownsDirectory;
        this.spillLevel = level;
    }

    /** A join of the same shape over one spilled partition's probe and build rows, spilling one level deeper. */
    JoinOperator forSpilledPartition(Operator probe, Operator build, int level) {
        JoinOperator join = new JoinOperator(context, probe, build, joinType, probeKeys, buildKeys, residual, residualColumns,
                outputColumns, probeTypes, buildTypes, null, false);
        join.enableSpill(spillOptions, spillDirectory, false, level);
        return join;
    }

    /** Under EXPLAIN ANALYZE: where to record the Hash line ({@code Buckets: … Batches: …}) when the operator closes. */
    public void reportTo(ParticipantStatistics statistics) {
        this.explainStatistics = statistics;
    }

    /** Records the Hash line under EXPLAIN ANALYZE (at the end of the output, or at close when cut short). */
    private void report() {
        if (explainStatistics != null) {
            explainStatistics.recordHashSpace(statistics.explainLine());
        }
    }

    /** What the build did: buckets, batches, memory (for EXPLAIN ANALYZE's Hash line). */
    public JoinStatistics statistics() {
        return statistics;
    }

    /**
     * When the probe side is a filter and no probe row without a match is emitted (INNER, RIGHT,
     * SEMI), hands the filter the set of build keys to check before its own condition: a small
     * build makes most probe rows leave before the condition's work (TPC-H Q19). Only for one
     * integer-like key (the set compares the same longs {@link #verifyLongs} does) and builds of
     * at most {@link #KEY_FILTER_MAXIMUM_ROWS} rows, whose set stays cache-resident.
     */
    private void pushKeyFilter() {
        if (joinType == JoinType.ANTI || joinType.preservesProbe() || probeKeys.length != 1
                || !(probeInput instanceof FilterOperator filter) || table.rowCount > KEY_FILTER_MAXIMUM_ROWS
                || probeTypes.get(probeKeys[0]).vectorKind() != VectorKind.LONG
                || buildTypes.get(buildKeys[0]).vectorKind() != VectorKind.LONG) {
            return;
        }
        long[][] buildValues = table.columns[buildKeys[0]].longs();
        long[] keys = new long[(int) table.rowCount];
        int count = 0;
        int[] buckets = table.buckets;
        int[][] next = table.next;
        // The chains hold exactly the rows with a non-NULL key.
        for (int bucket = 0; bucket < buckets.length; bucket++) {
            for (int ref = buckets[bucket]; ref != JoinRows.NO_ROW; ) {
                int chunk = ref >>> JoinRows.CHUNK_BITS;
                int row = ref & JoinRows.ROW_MASK;
                keys[count++] = buildValues[chunk][row];
                ref = next[chunk][row];
            }
        }
        filter.addKeyFilter(new JoinKeyFilter(probeKeys[0], LongValueSet.of(keys, count)));
    }

    private JoinHashTable obtainTable() {
        if (shared == null) {
            privatePart = new JoinBuildPart(buildTypes, buildKeys, joinType.preservesBuild(), context.memory());
            if (!readBuild(privatePart)) {
                spillPrivateBuild();
                return null;
            }
            JoinHashTable built = JoinHashTable.build(List.of(privatePart), buildTypes, joinType.preservesBuild());
            statistics.recordTable(built.buckets.length, privatePart.reservedBytes());
            return built;
        }
        if (shared.attach(cooperative)) {
            readSharedBuild();
        }
        JoinHashTable built = shared.await(context);
        if (built == null) {
            startGrace(shared.spilledPartitions(), false);
        } else {
            statistics.recordTable(built.buckets.length, shared.reservedBytes());
        }
        return built;
    }

    /**
     * Reads this participant's share of a shared build. Past the spill limit (all participants'
     * rows together), the rows read so far and the rest of the share go to partitions of its own.
     */
    private void readSharedBuild() {
        JoinBuildPart part = new JoinBuildPart(buildTypes, buildKeys, joinType.preservesBuild(), context.memory());
        JoinBuildPartitioner partitioner = null;
        try {
            long charged = 0;
            Batch batch;
            while ((batch = buildInput.next()) != null) {
                context.checkCancelled();
                if (partitioner != null) {
                    partitioner.add(batch);
                    continue;
                }
                part.add(batch);
                if (spillOptions != null) {
                    long reserved = part.reservedBytes();
                    boolean spill = shared.charge(reserved - charged, spillOptions.memoryLimitBytes());
                    charged = reserved;
                    if (spill) {
                        statistics.recordTable(0, reserved);
                        partitioner = new JoinBuildPartitioner(shared.spillDirectory(spillOptions), buildTypes, buildKeys,
                                joinType.preservesBuild(), 0);
                        partitioner.addPart(part);
                        part.release();
                        part = null;
                    }
                }
            }
        } catch (RuntimeException | Error failure) {
            shared.fail(part);
            throw failure;
        }
        HashPartitions partitions = null;
        try {
            if (partitioner != null) {
                partitions = partitioner.finish();
            }
        } catch (RuntimeException | Error failure) {
            shared.fail(null);
            throw failure;
        }
        shared.detach(part, partitions, buildTypes, buildKeys, joinType.preservesBuild(), spillOptions);
    }

    /**
     * Reads the build input into {@code part} (which the caller releases); returns false, leaving
     * the rest of the input unread, as soon as the part outgrows the spill limit.
     */
    private boolean readBuild(JoinBuildPart part) {
        long limit = spillOptions == null ? Long.MAX_VALUE : spillOptions.memoryLimitBytes();
        Batch batch;
        while ((batch = buildInput.next()) != null) {
            context.checkCancelled();
            part.add(batch);
            if (part.reservedBytes() > limit) {
                return false;
            }
        }
        return true;
    }

    /** The private build outgrew memory: partition it and the rest of the build input, then the probe input. */
    private void spillPrivateBuild() {
        statistics.recordTable(0, privatePart.reservedBytes());
        JoinBuildPartitioner partitioner = new JoinBuildPartitioner(spillDirectory, buildTypes, buildKeys,
                joinType.preservesBuild(), spillLevel);
        partitioner.addPart(privatePart);
        privatePart.release();
        privatePart = null;
        Batch batch;
        while ((batch = buildInput.next()) != null) {
            context.checkCancelled();
            partitioner.add(batch);
        }
        HashPartitions partitions = partitioner.finish();
        startGrace(List.of(partitions), true);
    }

    private void startGrace(List<HashPartitions> buildPartitions, boolean ownsBuildFiles) {
        grace = new GraceHashJoin(this, context, joinType, buildPartitions, ownsBuildFiles, probeInput, probeKeys,
                probeTypes, spillDirectory);
        for (HashPartitions partitions : buildPartitions) {
            statistics.recordDisk(partitions.bytes());
        }
        statistics.recordDisk(grace.probeBytes());
        statistics.recordBatches(HashPartitions.PARTITION_COUNT);
    }

    private void startProbeBatch() {
        Batch batch = probeInput.next();
        if (batch == null) {
            phase = joinType.preservesBuild() ? Phase.BUILD_LEFTOVERS : Phase.DONE;
            buildLeftoverRef = 0;
            return;
        }
        probe = batch;
        probeCount = batch.selectedCount();
        if (probeHashes.length < probeCount) {
            probeHashes = new long[probeCount];
            probeNullKeys = new boolean[probeCount];
        }
        if (probeMatched.length < batch.rowCount()) {
            probeMatched = new boolean[batch.rowCount()];
            probeOutputSelection = new int[batch.rowCount()];
        }
        Arrays.fill(probeMatched, 0, batch.rowCount(), false);
        JoinKeyHasher.hash(batch, probeKeys, probeHashes, probeNullKeys);
        probeIndex = 0;
        chainRef = NOT_STARTED;
        phase = Phase.MATCH;
    }

    /** One round of candidate pairs: the joined output when it has rows, else null (the caller loops). */
    private Batch match() {
        if (!joinType.emitsPairs() && residual == null && probeKeys.length == 1
                && probe.column(probeKeys[0]) instanceof LongVector keys) {
            markFirstMatches(keys.values());
            phase = Phase.PROBE_LEFTOVERS;
            return null;
        }
        int pairs = collectCandidates();
        if (probeIndex == probeCount) {
            phase = joinType == JoinType.INNER || joinType == JoinType.RIGHT ? Phase.NEXT_PROBE_BATCH : Phase.PROBE_LEFTOVERS;
        }
        if (pairs == 0) {
            return null;
        }
        pairs = verifyKeys(pairs);
        if (pairs == 0) {
            return null;
        }
        boolean needJoined = joinType.emitsPairs() || residual != null;
        if (needJoined) {
            fillJoined(pairs);
        }
        int[] selection = null;
        int live = pairs;
        if (residual != null) {
            live = residual.select(joined, residualSelection);
            selection = residualSelection;
            if (live == 0) {
                return null;
            }
        }
        markMatches(selection, live);
        if (!joinType.emitsPairs()) {
            return null;
        }
        pairOutput.setRowCount(pairs);
        if (selection != null && live < pairs) {
            pairOutput.setSelection(selection, live);
        }
        return pairOutput;
    }

    /**
     * Walks the chains from where the last round stopped and collects up to a batch of pairs whose
     * hashes are equal. For SEMI and ANTI without a residual, a probe row's chain is cut at its
     * first verified match in an earlier round.
     */
    private int collectCandidates() {
        JoinHashTable table = this.table;
        long[][] hashes = table.hashes;
        int[][] next = table.next;
        int[] buckets = table.buckets;
        int mask = table.mask;
        int[] selection = probe.selection();
        int[] pairProbe = this.pairProbe;
        int[] pairBuild = this.pairBuild;
        boolean firstMatchOnly = !joinType.emitsPairs() && residual == null;
        int pairs = 0;
        int index = probeIndex;
        int ref = chainRef;
        while (index < probeCount) {
            int position = selection == null ? index : selection[index];
            long hash = probeHashes[index];
            if (ref == NOT_STARTED) {
                ref = probeNullKeys[index] ? JoinRows.NO_ROW : buckets[(int) hash & mask];
            } else if (firstMatchOnly && probeMatched[position]) {
                ref = JoinRows.NO_ROW;
            }
            while (ref >= 0) {
                if (pairs == PAIR_CAPACITY) {
                    probeIndex = index;
                    chainRef = ref;
                    return pairs;
                }
                int chunk = ref >>> JoinRows.CHUNK_BITS;
                int row = ref & JoinRows.ROW_MASK;
                if (hashes[chunk][row] == hash) {
                    pairProbe[pairs] = position;
                    pairBuild[pairs] = ref;
                    pairs++;
                }
                ref = next[chunk][row];
            }
            index++;
            ref = NOT_STARTED;
        }
        probeIndex = index;
        chainRef = NOT_STARTED;
        return pairs;
    }

    /**
     * SEMI and ANTI on one integer-like key without a residual: each probe row's chain is walked
     * only to its first equal key, comparing values in place (EXISTS needs no pairs).
     */
    private void markFirstMatches(long[] probeValues) {
        JoinHashTable table = this.table;
        long[][] hashes = table.hashes;
        int[][] next = table.next;
        long[][] buildValues = table.columns[buildKeys[0]].longs();
        int[] buckets = table.buckets;
        int mask = table.mask;
        int[] selection = probe.selection();
        for (int index = 0; index < probeCount; index++) {
            if (probeNullKeys[index]) {
                continue;
            }
            int position = selection == null ? index : selection[index];
            long hash = probeHashes[index];
            long value = probeValues[position];
            int ref = buckets[(int) hash & mask];
            while (ref >= 0) {
                int chunk = ref >>> JoinRows.CHUNK_BITS;
                int row = ref & JoinRows.ROW_MASK;
                if (hashes[chunk][row] == hash && buildValues[chunk][row] == value) {
                    probeMatched[position] = true;
                    break;
                }
                ref = next[chunk][row];
            }
        }
        probeIndex = probeCount;
    }

    /** Keeps the pairs whose keys are equal, column by column; returns how many remain (in order). */
    private int verifyKeys(int pairs) {
        int count = pairs;
        for (int key = 0; key < probeKeys.length && count > 0; key++) {
            ColumnVector probeColumn = probe.column(probeKeys[key]);
            BuildColumn buildColumn = table.columns[buildKeys[key]];
            count = switch (probeColumn) {
                case LongVector longs -> verifyLongs(longs.values(), buildColumn.longs(), count);
                case DoubleVector doubles -> verifyDoubles(doubles.values(), buildColumn.doubles(), count);
                case BytesVector bytes -> verifyBytes(bytes, buildColumn.bytes(), count);
            };
        }
        return count;
    }

    private int verifyLongs(long[] probeValues, long[][] buildValues, int count) {
        int kept = 0;
        for (int index = 0; index < count; index++) {
            int ref = pairBuild[index];
            int position = pairProbe[index];
            if (probeValues[position] == buildValues[ref >>> JoinRows.CHUNK_BITS][ref & JoinRows.ROW_MASK]) {
                pairProbe[kept] = position;
                pairBuild[kept] = ref;
                kept++;
            }
        }
        return kept;
    }

    private int verifyDoubles(double[] probeValues, double[][] buildValues, int count) {
        int kept = 0;
        for (int index = 0; index < count; index++) {
            int ref = pairBuild[index];
            int position = pairProbe[index];
            double probeValue = probeValues[position];
            double buildValue = buildValues[ref >>> JoinRows.CHUNK_BITS][ref & JoinRows.ROW_MASK];
            // PostgreSQL's float equality: NaN equals NaN.
            if (probeValue == buildValue || (probeValue != probeValue && buildValue != buildValue)) {
                pairProbe[kept] = position;
                pairBuild[kept] = ref;
                kept++;
            }
        }
        return kept;
    }

    private int verifyBytes(BytesVector probeValues, BytesVector[] buildValues, int count) {
        byte[] probeData = probeValues.data();
        int[] probeOffsets = probeValues.offsets();
        int[] probeLengths = probeValues.lengths();
        int kept = 0;
        for (int index = 0; index < count; index++) {
            int ref = pairBuild[index];
            int position = pairProbe[index];
            BytesVector build = buildValues[ref >>> JoinRows.CHUNK_BITS];
            int row = ref & JoinRows.ROW_MASK;
            int probeOffset = probeOffsets[position];
            int buildOffset = build.offset(row);
            if (Arrays.equals(probeData, probeOffset, probeOffset + probeLengths[position],
                    build.data(), buildOffset, buildOffset + build.length(row))) {
                pairProbe[kept] = position;
                pairBuild[kept] = ref;
                kept++;
            }
        }
        return kept;
    }

    private void fillJoined(int pairs) {
        joined.reset();
        for (int column = 0; column < neededColumns.length; column++) {
            if (!neededColumns[column]) {
                continue;
            }
            if (column < probeWidth) {
                JoinRows.gatherProbe(probe.column(column), pairProbe, pairs, joined.column(column));
            } else {
                JoinRows.gatherBuild(table.columns[column - probeWidth], pairBuild, pairs, joined.column(column));
            }
        }
        joined.setRowCount(pairs);
    }

    private void markMatches(int[] selection, int live) {
        boolean[] matched = probeMatched;
        for (int index = 0; index < live; index++) {
            matched[pairProbe[selection == null ? index : selection[index]]] = true;
        }
        if (table.matched != null) {
            boolean[][] buildMatched = table.matched;
            for (int index = 0; index < live; index++) {
                int ref = pairBuild[selection == null ? index : selection[index]];
                buildMatched[ref >>> JoinRows.CHUNK_BITS][ref & JoinRows.ROW_MASK] = true;
            }
        }
    }

    /** SEMI: the matched probe rows; ANTI: the unmatched ones; LEFT/FULL: the unmatched ones with NULL build columns. */
    private Batch probeLeftovers() {
        boolean wantMatched = joinType == JoinType.SEMI;
        int[] selection = probe.selection();
        int count = 0;
        int[] rows = probeOutputSelection;
        for (int index = 0; index < probeCount; index++) {
            int position = selection == null ? index : selection[index];
            if (probeMatched[position] == wantMatched) {
                rows[count++] = position;
            }
        }
        if (count == 0) {
            return null;
        }
        if (!joinType.emitsPairs()) {
            for (int index = 0; index < outputColumns.length; index++) {
                probeOutputColumns[index] = probe.column(outputColumns[index]);
            }
            probeOutput.setRowCount(probe.rowCount());
            probeOutput.setSelection(rows, count);
            return probeOutput;
        }
        ensurePairCapacity(count);
        System.arraycopy(rows, 0, pairProbe, 0, count);
        Arrays.fill(pairBuild, 0, count, JoinRows.NO_ROW);
        fillJoined(count);
        pairOutput.setRowCount(count);
        return pairOutput;
    }

    /** RIGHT/FULL after the probe input: build rows that never matched, with NULL probe columns, a batch at a time. */
    private Batch buildLeftovers() {
        int count = 0;
        boolean[][] matched = table.matched;
        int chunk = buildLeftoverRef >>> JoinRows.CHUNK_BITS;
        int row = buildLeftoverRef & JoinRows.ROW_MASK;
        while (chunk < matched.length && count < PAIR_CAPACITY) {
            boolean[] flags = matched[chunk];
            int rows = table.chunkRows[chunk];
            while (row < rows && count < PAIR_CAPACITY) {
                if (!flags[row]) {
                    pairProbe[count] = JoinRows.NO_ROW;
                    pairBuild[count] = (chunk << JoinRows.CHUNK_BITS) | row;
                    count++;
                }
                row++;
            }
            if (row == rows) {
                chunk++;
                row = 0;
            }
        }
        buildLeftoverRef = (chunk << JoinRows.CHUNK_BITS) | row;
        if (count == 0) {
            return null;
        }
        probe = null;
        fillJoinedWithoutProbe(count);
        pairOutput.setRowCount(count);
        return pairOutput;
    }

    private void fillJoinedWithoutProbe(int pairs) {
        joined.reset();
        for (int column = 0; column < neededColumns.length; column++) {
            if (!neededColumns[column]) {
                continue;
            }
            ColumnVector target = joined.column(column);
            if (column < probeWidth) {
                target.ensureCapacity(pairs);
                for (int index = 0; index < pairs; index++) {
                    target.setNull(index);
                }
            } else {
                JoinRows.gatherBuild(table.columns[column - probeWidth], pairBuild, pairs, target);
            }
        }
        joined.setRowCount(pairs);
    }

    private void ensurePairCapacity(int count) {
        if (pairProbe.length < count) {
            pairProbe = new int[count];
            pairBuild = new int[count];
            residualSelection = new int[count];
            joined.ensureCapacity(count);
        }
    }

    @Override
    public void close() {
        if (phase != Phase.BUILD) {
            report();
        }
        try {
            if (grace != null) {
                GraceHashJoin spilled = grace;
                grace = null;
                spilled.close();
            }
        } finally {
            try {
                closeInputs();
            } finally {
                if (ownsSpillDirectory) {
                    spillDirectory.close();
                }
            }
        }
    }

    private void closeInputs() {
        try {
            probeInput.close();
        } finally {
            try {
                buildInput.close();
            } finally {
                if (shared != null) {
                    shared.release();
                } else if (privatePart != null) {
                    privatePart.release();
                    privatePart = null;
                }
            }
        }
    }
}
