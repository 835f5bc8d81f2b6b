package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * {@code agg(DISTINCT x)}: passes each (group, value) pair to the wrapped accumulator only the
 * first time it is seen. One hash set over (group id, value bytes) serves all groups, so there
 * is no set object per group. NULLs are skipped (the aggregates ignore them), except for array_agg,
 * which collects one NULL per group. Only SINGLE mode: distinct states cannot be merged from
 * partial results.
 */
final class DistinctAccumulator extends Accumulator {
    private final Accumulator accumulator;
    private final ByteKeyHashTable seen = new ByteKeyHashTable();
    private byte[] key = new byte[64];
    private int[] newPositions = new int[0];
    private int[] newGroups = new int[0];
    /** Per group, whether its NULL was passed on; null when NULLs are skipped. */
    private boolean[] nullSeen;

    /** @param keepsNull whether the wrapped aggregate takes NULL inputs (array_agg), once per group */
    DistinctAccumulator(Accumulator accumulator, boolean keepsNull) {
        this.accumulator = accumulator;
        this.nullSeen = keepsNull ? new boolean[0] : null;
    }

    @Override
    void ensureGroups(int groupCount) {
        accumulator.ensureGroups(groupCount);
        if (nullSeen != null && groupCount > nullSeen.length) {
            nullSeen = java.util.Arrays.copyOf(nullSeen, grownCapacity(nullSeen.length, groupCount));
        }
    }

    @Override
    void clear(int group) {
        // The seen values are keyed by group in one table that cannot drop a group's keys; PostgreSQL and
        // the planner refuse DISTINCT in window aggregates, the only users of clear.
        throw new UnsupportedOperationException("a DISTINCT aggregate cannot be cleared");
    }

    @Override
    void add(ColumnVector argument, int[] positions, int[] groupIds, int count) {
        if (newPositions.length < count) {
            newPositions = new int[count];
            newGroups = new int[count];
        }
        int fresh = 0;
        for (int index = 0; index < count; index++) {
            int position = positions == null ? index : positions[index];
            if (argument.isNull(position)) {
                if (nullSeen != null && !nullSeen[groupIds[index]]) {
                    nullSeen[groupIds[index]] = true;
                    newPositions[fresh] = position;
                    newGroups[fresh] = groupIds[index];
                    fresh++;
                }
                continue;
            }
            int length = encode(argument, position, groupIds[index]);
            seen.findOrInsert(key, 0, length);
            if (seen.lastInserted()) {
                newPositions[fresh] = position;
                newGroups[fresh] = groupIds[index];
                fresh++;
            }
        }
        if (fresh > 0) {
            accumulator.add(argument, newPositions, newGroups, fresh);
        }
    }

    /** Writes group id then the value's bytes (doubles normalized so that -0 equals 0) into {@link #key}. */
    private int encode(ColumnVector argument, int position, int group) {
        int valueLength = argument instanceof BytesVector bytes ? bytes.length(position) : 8;
        if (key.length < 4 + valueLength) {
            key = new byte[Math.max(4 + valueLength, key.length * 2)];
        }
        writeInt(key, 0, group);
        switch (argument) {
            case LongVector longs -> writeLong(key, 4, longs.get(position));
            case DoubleVector doubles -> {
                double value = doubles.get(position);
                writeLong(key, 4, value == 0.0 ? 0L : Double.doubleToLongBits(value));
            }
            case BytesVector bytes -> System.arraycopy(bytes.data(), bytes.offset(position), key, 4, valueLength);
        }
        return 4 + valueLength;
    }

    private static void writeInt(byte[] target, int offset, int value) {
        target[offset] = (byte) (value >>> 24);
        target[offset + 1] = (byte) (value >>> 16);
        target[offset + 2] = (byte) (value >>> 8);
        target[offset + 3] = (byte) value;
    }

    private static void writeLong(byte[] target, int offset, long value) {
        writeInt(target, offset, (int) (value >>> 32));
        writeInt(target, offset + 4, (int) value);
    }

    @Override
    long extraMemoryBytes() {
        return seen.memoryBytes() + accumulator.extraMemoryBytes();
    }

    @Override
    void combine(ColumnVector[] states, int firstState, int[] positions, int[] groupIds, int count) {
        throw new IllegalStateException("DISTINCT aggregates cannot be combined from partial states");
    }

    @Override
    void writeState(int group, ColumnVector[] out, int firstColumn, int position) {
        throw new IllegalStateException("DISTINCT aggregates have no partial state");
    }

    @Override
    void writeResult(int group, ColumnVector out, int position) {
        accumulator.writeResult(group, out, position);
    }
}
