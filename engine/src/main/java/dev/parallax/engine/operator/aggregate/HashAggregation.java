package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;
import java.util.List;

/**
 * Hash aggregation, the reusable algorithm behind the aggregate operator (one instance per
 * participant: its local state). Per input batch it computes the group id of every live row once
 * into an int array, then runs one tight loop per aggregate over the batch. Without group keys
 * there is a single group and no hashing; keys that fit in 64 bits are packed into one long,
 * others serialized to bytes.
 * <p>SINGLE and PARTIAL read raw rows ({@link AggregateCall#argument()} columns); FINAL reads a
 * Partial Aggregate's output: each call's state columns in order from {@code firstStateColumn},
 * which is right after the group keys unless the rows were expanded into grouping sets (the
 * partial keys, the states, then the expanded keys and the set ordinal the FINAL groups by).
 * <p>With spilling enabled ({@link #enableSpill}) and group keys, the table's memory is checked
 * after every batch; once it exceeds the limit ({@code work_mem × hash_mem_multiplier}), the
 * groups in memory stay there and keep aggregating their rows, while rows of new groups are
 * written to {@link HashPartitions} by the hash of their keys (PostgreSQL 13's design). Each
 * partition then runs as an aggregation of its own ({@link #forPartition}), which may split
 * again. Since a group's rows all go to one place, and the rows are the input unchanged
 * (raw rows, or partial states in FINAL mode), every aggregate kind, DISTINCT included, gives
 * the in-memory result. Nothing of this runs per row until the limit is crossed.
 */
public final class HashAggregation {
    private final AggregateMode mode;
    private final List<AggregateCall> calls;
    private final int[] keyColumns;
    private final List<DataType> keyTypes;
    private final int keyCount;
    private final GroupKeyTable groups;
    private final Accumulator[] accumulators;
    /** Per call, its first state column in a PARTIAL's output (right after the keys). */
    private final int[] stateStarts;
    /** Per call, its first state column in a FINAL's input. */
    private final int[] inputStateStarts;
    private final int firstStateColumn;
    /**
     * Batches with at most 1/16 as many groups as rows are ordered by group first (a counting
     * sort), so that accumulators sum each group's run in registers; the sort costs two passes,
     * which pay back over several aggregates on few groups (TPC-H Q1) but not on many groups.
     */
    private static final int GROUPED_ROWS_PER_GROUP = 16;

    private int[] groupIds = new int[Batch.DEFAULT_CAPACITY];
    private int[] groupedPositions = new int[Batch.DEFAULT_CAPACITY];
    /** The rows a FILTER clause keeps, for one call at a time. */
    private int[] filteredPositions = new int[0];
    private int[] filteredGroupIds = new int[0];
    private int[] groupedIds = new int[Batch.DEFAULT_CAPACITY];
    private int[] groupEnds = new int[16];

    /** Fixed-width state bytes per group over all calls (8 per state column and a null flag). */
    private final long stateBytesPerGroup;
    private HashSpillOptions spillOptions;
    private TemporaryDirectory spillDirectory;
    private List<DataType> inputTypes;
    private int spillLevel;
    /** Where rows of new groups go once the table is full; null while everything fits. */
    private HashPartitions partitions;
    private long peakMemoryBytes;
    private int[] keptPositions = new int[0];
    private int[] spilledPositions = new int[0];
    private long[] spilledHashes = new long[0];

    public HashAggregation(AggregateMode mode, int[] keyColumns, List<DataType> keyTypes, List<AggregateCall> calls) {
        this(mode, keyColumns, keyTypes, calls, keyColumns.length);
    }

    /**
     * @param firstStateColumn in FINAL mode, the input column of the first call's first state column
     *                         (the others follow in call order); ignored in SINGLE and PARTIAL mode
     */
    public HashAggregation(AggregateMode mode, int[] keyColumns, List<DataType> keyTypes, List<AggregateCall> calls,
                           int firstStateColumn) {
        this.mode = mode;
        this.firstStateColumn = firstStateColumn;
        this.calls = List.copyOf(calls);
        this.keyColumns = keyColumns.clone();
        this.keyTypes = List.copyOf(keyTypes);
        this.keyCount = keyColumns.length;
        if (keyColumns.length == 0) {
            groups = new SingleGroupTable();
        } else {
            PackedGroupKeyTable packed = PackedGroupKeyTable.tryCreate(keyColumns, keyTypes);
            groups = packed != null ? packed : new SerializedGroupKeyTable(keyColumns, keyTypes);
        }
        accumulators = new Accumulator[calls.size()];
        stateStarts = new int[calls.size()];
        inputStateStarts = new int[calls.size()];
        int stateColumn = keyColumns.length;
        for (int index = 0; index < accumulators.length; index++) {
            AggregateCall call = calls.get(index);
            if (call.distinct() && mode != AggregateMode.SINGLE) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                        "DISTINCT aggregates cannot run as partial aggregation: " + call.name());
            }
            accumulators[index] = create(call);
            stateStarts[index] = stateColumn;
            inputStateStarts[index] = firstStateColumn + stateColumn - keyColumns.length;
            stateColumn += call.stateTypes().size();
        }
        stateBytesPerGroup = 9L * (stateColumn - keyColumns.length);
        ensureGroups();
    }

    /**
     * Lets this aggregation spill past {@code options.memoryLimitBytes()} into files in
     * {@code directory} (owned by the caller, which removes it). Without group keys there is one
     * group and nothing to spill.
     *
     * @param inputTypes the column types of the batches passed to {@link #add}
     * @param level      the partitioning level, 0 for an operator's input
     */
    public void enableSpill(HashSpillOptions options, TemporaryDirectory directory, List<DataType> inputTypes, int level) {
        this.spillOptions = java.util.Objects.requireNonNull(options, "options");
        this.spillDirectory = java.util.Objects.requireNonNull(directory, "directory");
        this.inputTypes = List.copyOf(inputTypes);
        this.spillLevel = level;
    }

    static Accumulator create(AggregateCall call) {
        DataType argumentType = call.argumentType();
        boolean doubles = argumentType != null && argumentType.vectorKind() == VectorKind.DOUBLE;
        Accumulator accumulator = switch (call.function()) {
            case COUNT_STAR, COUNT -> new CountAccumulator();
            case SUM, AVG -> doubles
                    ? new DoubleSumAccumulator(call.function() == dev.parallax.engine.plan.AggregateFunction.AVG)
                    : new IntegerSumAccumulator(call.function() == dev.parallax.engine.plan.AggregateFunction.AVG,
                    argumentType, call.resultType());
            case MIN, MAX -> minMax(argumentType, call.function() == dev.parallax.engine.plan.AggregateFunction.MAX);
            case SINGLE_VALUE -> new SingleValueAccumulator(minMax(argumentType, false), 1);
            case BOOL_AND -> new BooleanAccumulator(true);
            case BOOL_OR -> new BooleanAccumulator(false);
            case ARRAY_AGG -> new ArrayAggregateAccumulator(call.resultType(), false);
            case COLLECT -> new ArrayAggregateAccumulator(call.resultType(), true);
            case BIT_AND, BIT_OR, BIT_XOR -> new BitwiseAccumulator(call.function());
            case VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP -> doubles
                    ? new DoubleVarianceAccumulator(call.function())
                    : new ExactVarianceAccumulator(call.function(), argumentType, call.resultType());
        };
        return call.distinct() ? new DistinctAccumulator(accumulator, call.function() == dev.parallax.engine.plan.AggregateFunction.ARRAY_AGG) : accumulator;
    }

    private static Accumulator minMax(DataType argumentType, boolean maximum) {
        return switch (argumentType.vectorKind()) {
            case LONG -> new LongMinMaxAccumulator(maximum);
            case DOUBLE -> new DoubleMinMaxAccumulator(maximum);
            case BYTES -> new BytesMinMaxAccumulator(maximum, argumentType);
        };
    }

    /** Adds the live rows of {@code batch} (raw rows, or partial states in FINAL mode). */
    public void add(Batch batch) {
        if (partitions != null) {
            addSpilling(batch);
            return;
        }
        addToTable(batch);
        if (spillOptions != null && keyCount > 0 && spillLevel <= HashPartitions.MAXIMUM_LEVEL) {
            long memory = memoryBytes();
            peakMemoryBytes = Math.max(peakMemoryBytes, memory);
            if (memory > spillOptions.memoryLimitBytes()) {
                partitions = new HashPartitions(spillDirectory, "aggregate", inputTypes, spillLevel);
            }
        }
    }

    /** Past the memory limit: rows of groups in the table are aggregated, the others written to their partition. */
    private void addSpilling(Batch batch) {
        int count = batch.selectedCount();
        if (count == 0) {
            return;
        }
        if (groupIds.length < count) {
            groupIds = new int[count];
        }
        if (keptPositions.length < count) {
            keptPositions = new int[count];
            spilledPositions = new int[count];
            spilledHashes = new long[count];
        }
        groups.findGroupIds(batch, groupIds);
        int[] selection = batch.selection();
        int kept = 0;
        int spilled = 0;
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (groupIds[index] >= 0) {
                keptPositions[kept++] = position;
            } else {
                spilledPositions[spilled++] = position;
            }
        }
        if (spilled > 0) {
            GroupKeyHasher.hash(batch, keyColumns, spilledPositions, spilled, spilledHashes);
            partitions.add(batch, spilledPositions, spilledHashes, spilled);
        }
        if (kept > 0) {
            Batch inTable = new Batch(batch.columns());
            inTable.setRowCount(batch.rowCount());
            inTable.setSelection(keptPositions, kept);
            addToTable(inTable);
        }
    }

    /** Heap bytes of the table: keys, fixed-width states per group, and what accumulators hold besides. */
    private long memoryBytes() {
        long bytes = groups.memoryBytes() + (long) groups.groupCount() * stateBytesPerGroup;
        for (Accumulator accumulator : accumulators) {
            bytes += accumulator.extraMemoryBytes();
        }
        return bytes;
    }

    /**
     * Ends the input: flushes the partition files if the aggregation spilled. The groups in the
     * table are then final and can be written; the spilled rows are in {@link #spilledPartitions()}.
     */
    public void finishInput() {
        if (partitions != null) {
            partitions.finish();
        }
        peakMemoryBytes = Math.max(peakMemoryBytes, memoryBytes());
    }

    /** The partitions holding the rows of groups not in this table, or null when nothing spilled. */
    public HashPartitions spilledPartitions() {
        return partitions;
    }

    /** The peak heap bytes of the table, as far as measured (after each batch when spilling is enabled, and at the end). */
    public long peakMemoryBytes() {
        return peakMemoryBytes;
    }

    /**
     * A fresh aggregation, like this one, for the rows of one of its spilled partitions; it may
     * spill again one level deeper (into the same directory).
     */
    public HashAggregation forPartition() {
        if (partitions == null) {
            throw new IllegalStateException("the aggregation did not spill");
        }
        HashAggregation aggregation = new HashAggregation(mode, keyColumns, keyTypes, calls, firstStateColumn);
        aggregation.enableSpill(spillOptions, spillDirectory, inputTypes, partitions.level() + 1);
        return aggregation;
    }

    /** A fresh, empty aggregation with this one's definition and spill level (the next partition of the same split). */
    public HashAggregation sibling() {
        HashAggregation aggregation = new HashAggregation(mode, keyColumns, keyTypes, calls, firstStateColumn);
        if (spillOptions != null) {
            aggregation.enableSpill(spillOptions, spillDirectory, inputTypes, spillLevel);
        }
        return aggregation;
    }

    private void addToTable(Batch batch) {
        int count = batch.selectedCount();
        if (count == 0) {
            return;
        }
        if (groupIds.length < count) {
            groupIds = new int[count];
        }
        groups.groupIds(batch, groupIds);
        ensureGroups();
        int[] positions = batch.selection();
        int groupCount = groups.groupCount();
        if (mode != AggregateMode.FINAL && (long) groupCount * GROUPED_ROWS_PER_GROUP <= count) {
            orderByGroup(positions, count, groupCount);
            for (int index = 0; index < accumulators.length; index++) {
                int argument = calls.get(index).argument();
                if (calls.get(index).filter() >= 0) {
                    addFiltered(index, batch, positions, count);
                    continue;
                }
                accumulators[index].addGrouped(argument < 0 ? null : batch.column(argument), groupedPositions, groupedIds,
                        groupEnds, groupCount, count);
            }
            return;
        }
        for (int index = 0; index < accumulators.length; index++) {
            if (mode == AggregateMode.FINAL) {
                accumulators[index].combine(batch.columns(), inputStateStarts[index], positions, groupIds, count);
            } else if (calls.get(index).filter() >= 0) {
                addFiltered(index, batch, positions, count);
            } else {
                int argument = calls.get(index).argument();
                accumulators[index].add(argument < 0 ? null : batch.column(argument), positions, groupIds, count);
            }
        }
    }

    /** Adds to call {@code index} only the rows whose FILTER condition is true (not false, not NULL). */
    private void addFiltered(int index, Batch batch, int[] positions, int count) {
        AggregateCall call = calls.get(index);
        ColumnVector condition = batch.column(call.filter());
        long[] truth = ((LongVector) condition).values();
        if (filteredPositions.length < count) {
            filteredPositions = new int[count];
            filteredGroupIds = new int[count];
        }
        int[] keptPositions = filteredPositions;
        int[] keptGroups = filteredGroupIds;
        int kept = 0;
        for (int row = 0; row < count; row++) {
            int position = positions == null ? row : positions[row];
            if (truth[position] != 0 && !condition.isNull(position)) {
                keptPositions[kept] = position;
                keptGroups[kept] = groupIds[row];
                kept++;
            }
        }
        if (kept > 0) {
            int argument = call.argument();
            accumulators[index].add(argument < 0 ? null : batch.column(argument), keptPositions, keptGroups, kept);
        }
    }

    /** Counting sort of the batch's rows by group id into groupedPositions/groupedIds, with groupEnds. */
    private void orderByGroup(int[] positions, int count, int groupCount) {
        if (groupedPositions.length < count) {
            groupedPositions = new int[count];
            groupedIds = new int[count];
        }
        if (groupEnds.length < groupCount) {
            groupEnds = new int[Math.max(groupCount, groupEnds.length * 2)];
        }
        int[] groupIds = this.groupIds;
        int[] ends = this.groupEnds;
        Arrays.fill(ends, 0, groupCount, 0);
        for (int index = 0; index < count; index++) {
            ends[groupIds[index]]++;
        }
        // Running totals turn counts into each group's first slot; filling advances them to the ends.
        int total = 0;
        for (int group = 0; group < groupCount; group++) {
            int size = ends[group];
            ends[group] = total;
            total += size;
        }
        int[] orderedPositions = groupedPositions;
        int[] orderedIds = groupedIds;
        for (int index = 0; index < count; index++) {
            int group = groupIds[index];
            int slot = ends[group]++;
            orderedPositions[slot] = positions == null ? index : positions[index];
            orderedIds[slot] = group;
        }
    }

    private void ensureGroups() {
        int groupCount = groups.groupCount();
        for (Accumulator accumulator : accumulators) {
            accumulator.ensureGroups(groupCount);
        }
    }

    /** Groups so far; without group keys always 1 (the single group exists for empty input too). */
    public int groupCount() {
        return groups.groupCount();
    }

    /**
     * Writes groups {@code firstGroup .. firstGroup+count-1} into {@code target} (reset first): the
     * group keys, then per call its final value (SINGLE, FINAL) or its state columns (PARTIAL).
     */
    public void write(int firstGroup, int count, Batch target) {
        target.reset();
        target.ensureCapacity(count);
        ColumnVector[] columns = target.columns();
        groups.writeKeys(firstGroup, count, columns);
        for (int index = 0; index < accumulators.length; index++) {
            Accumulator accumulator = accumulators[index];
            int column = stateStarts[index];
            if (mode == AggregateMode.PARTIAL) {
                for (int row = 0; row < count; row++) {
                    accumulator.writeState(firstGroup + row, columns, column, row);
                }
            } else {
                ColumnVector out = columns[keyCount + index];
                for (int row = 0; row < count; row++) {
                    accumulator.writeResult(firstGroup + row, out, row);
                }
            }
        }
        target.setRowCount(count);
    }
}
