package dev.parallax.engine.partition;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.type.VectorKind;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The partitions of one hash-partitioned table at one moment, and the rule that places a row:
 * hash the key ({@link PartitionHash}), take it modulo the greatest modulus, and look the result up
 * in a table where a partition (m, r) owns every index i with i mod m = r (PostgreSQL's
 * {@code get_partition_for_tuple}; every modulus divides the next larger one, so one table serves
 * all). Immutable: a partition added or dropped gives the parent a new router, so a statement
 * routes every row of its batches against one consistent set. Thread-safe.
 *
 * <p>Partition numbers ("ordinals") are positions in {@link #partitions()}, ordered by bound
 * (modulus, then remainder) as PostgreSQL orders a partition descriptor.
 */
public final class PartitionRouter {
    /** Written by {@link #route} for a row that no partition accepts. */
    public static final int NO_PARTITION = -1;

    private final String parentName;
    private final List<String> keyColumnNames;
    private final int[] keyColumns;
    private final TypeKind[] keyKinds;
    private final List<Table> partitions;
    private final int greatestModulus;
    /**
     * {@code greatestModulus - 1} when it is a power of two (1024 partitions), else -1: the index
     * is then the hash's low bits, equal to the unsigned remainder without its 64-bit division.
     */
    private final long modulusMask;
    /** Whether the key is one column held in a LongVector, hashed by {@link #routeSingleRow} without the per-column dispatch. */
    private final boolean singleLongKey;
    /** Index (hash mod greatest modulus) to partition ordinal, or NO_PARTITION. */
    private final int[] ordinalOfIndex;

    private PartitionRouter(String parentName, List<String> keyColumnNames, int[] keyColumns, TypeKind[] keyKinds, List<Table> partitions) {
        this.parentName = parentName;
        this.keyColumnNames = List.copyOf(keyColumnNames);
        this.keyColumns = keyColumns;
        this.keyKinds = keyKinds;
        List<Table> sorted = new ArrayList<>(partitions);
        sorted.sort(Comparator.comparingInt((Table table) -> table.partitionBound().modulus())
                .thenComparingInt(table -> table.partitionBound().remainder()));
        this.partitions = List.copyOf(sorted);
        int greatest = 0;
        for (Table partition : sorted) {
            greatest = Math.max(greatest, partition.partitionBound().modulus());
        }
        this.greatestModulus = greatest;
        this.modulusMask = greatest > 0 && Integer.bitCount(greatest) == 1 ? greatest - 1 : -1;
        this.singleLongKey = keyKinds.length == 1 && keyKinds[0].vectorKind() == VectorKind.LONG;
        this.ordinalOfIndex = new int[greatest];
        Arrays.fill(ordinalOfIndex, NO_PARTITION);
        for (int ordinal = 0; ordinal < sorted.size(); ordinal++) {
            HashPartitionBound bound = sorted.get(ordinal).partitionBound();
            for (int index = bound.remainder(); index < greatest; index += bound.modulus()) {
                ordinalOfIndex[index] = ordinal;
            }
        }
    }

    /** The router of a partitioned table without partitions. */
    public static PartitionRouter empty(String parentName, List<String> keyColumnNames, int[] keyColumns, List<TypeKind> keyKinds) {
        Objects.requireNonNull(parentName, "parentName");
        return new PartitionRouter(parentName, keyColumnNames, keyColumns.clone(), keyKinds.toArray(TypeKind[]::new), List.of());
    }

    /** This router with {@code partition} (whose bound is set and was checked by {@link #checkNewBound}) added. */
    public PartitionRouter with(Table partition) {
        List<Table> next = new ArrayList<>(partitions);
        next.add(partition);
        return new PartitionRouter(parentName, keyColumnNames, keyColumns, keyKinds, next);
    }

    /** This router for the parent under {@code newName} (ALTER TABLE ... RENAME TO). */
    public PartitionRouter renamed(String newName) {
        return new PartitionRouter(Objects.requireNonNull(newName, "newName"), keyColumnNames, keyColumns, keyKinds, partitions);
    }

    /** This router with key column {@code keyPosition} named {@code newName} (ALTER TABLE ... RENAME COLUMN). */
    public PartitionRouter withKeyColumnName(int keyPosition, String newName) {
        List<String> names = new ArrayList<>(keyColumnNames);
        names.set(keyPosition, Objects.requireNonNull(newName, "newName"));
        return new PartitionRouter(parentName, names, keyColumns, keyKinds, partitions);
    }

    /** This router without {@code partition}. */
    public PartitionRouter without(Table partition) {
        List<Table> next = new ArrayList<>(partitions);
        next.remove(partition);
        return new PartitionRouter(parentName, keyColumnNames, keyColumns, keyKinds, next);
    }

    /** The partitions, by bound; a partition's ordinal is its position here. */
    public List<Table> partitions() {
        return partitions;
    }

    public int partitionCount() {
        return partitions.size();
    }

    public Table partition(int ordinal) {
        return partitions.get(ordinal);
    }

    /** The table columns of the partition key, in key order (a copy). */
    public int[] keyColumns() {
        return keyColumns.clone();
    }

    /**
     * Writes, for every live row of {@code rows} (columns in the table's order), the ordinal of
     * the partition it belongs to, or {@link #NO_PARTITION}, to {@code ordinalsOut[position]}.
     * One pass per key column, then one over the rows; allocates one long array per call.
     */
    public void route(Batch rows, int[] ordinalsOut) {
        route(rows, keyColumns, ordinalsOut);
    }

    /**
     * As {@link #route(Batch, int[])} with the key's i-th column read from batch column
     * {@code batchKeyColumns[i]} (for callers whose batches hold only some of the table's columns).
     */
    public void route(Batch rows, int[] batchKeyColumns, int[] ordinalsOut) {
        long[] hashes = new long[rows.rowCount()];
        for (int key = 0; key < keyKinds.length; key++) {
            PartitionHash.combineColumn(rows, rows.column(batchKeyColumns[key]), keyKinds[key], hashes);
        }
        int count = rows.selectedCount();
        for (int index = 0; index < count; index++) {
            int position = rows.position(index);
            ordinalsOut[position] = ordinalOfHash(hashes[position]);
        }
    }

    /**
     * The ordinal of the partition of row 0 of {@code row} (a one-row batch, table columns), or
     * {@link #NO_PARTITION}: {@link #route(Batch, int[])} without its allocation, for statements
     * that write one row per execution. {@code hashScratch} holds at least one long.
     */
    public int routeSingleRow(Batch row, long[] hashScratch) {
        if (singleLongKey) {
            // A prepared upsert routes every execution: PartitionHash.combineColumn's dispatch and loop, for one value.
            LongVector key = (LongVector) row.column(keyColumns[0]);
            return ordinalOfHash(key.isNull(0) ? 0 : PartitionHash.combine(0, PartitionHash.ofLong(key.get(0))));
        }
        hashScratch[0] = 0;
        for (int key = 0; key < keyKinds.length; key++) {
            PartitionHash.combineColumn(row, row.column(keyColumns[key]), keyKinds[key], hashScratch);
        }
        return ordinalOfHash(hashScratch[0]);
    }

    /** The ordinal of the partition holding rows whose combined key hash is {@code hash}, or {@link #NO_PARTITION}. */
    public int ordinalOfHash(long hash) {
        if (greatestModulus == 0) {
            return NO_PARTITION;
        }
        return ordinalOfIndex[(int) (modulusMask >= 0 ? hash & modulusMask : Long.remainderUnsigned(hash, greatestModulus))];
    }

    /**
     * PostgreSQL's 23514 for the row at {@code position} of {@code rows} (table column order):
     * {@code no partition of relation "p" found for row}, DETAIL naming the key values.
     */
    public ParallaxException noPartition(Batch rows, int position) {
        StringBuilder detail = new StringBuilder("Partition key of the failing row contains (");
        detail.append(String.join(", ", keyColumnNames)).append(") = (");
        for (int key = 0; key < keyColumns.length; key++) {
            if (key > 0) {
                detail.append(", ");
            }
            if (rows.column(keyColumns[key]).isNull(position)) {
                detail.append("null");
            } else {
                ValueText.append(detail, rows.column(keyColumns[key]), position);
            }
        }
        detail.append(").");
        return new ParallaxException(SqlState.CHECK_VIOLATION, "no partition of relation \"" + parentName + "\" found for row",
                detail.toString(), null, 0, null);
    }

    /**
     * PostgreSQL's checks of a new hash partition's bound against the existing ones
     * ({@code check_new_partition_bound}): every modulus must divide the next larger one, and no
     * two partitions may share a hash index. 42P17 otherwise, with PostgreSQL's wording.
     */
    public void checkNewBound(String partitionName, HashPartitionBound bound) {
        if (partitions.isEmpty()) {
            return;
        }
        // The existing partition whose bound sorts last at or before the new one, as partition_hash_bsearch finds it.
        Table previous = null;
        Table next = null;
        for (Table partition : partitions) {
            HashPartitionBound existing = partition.partitionBound();
            boolean atOrBefore = existing.modulus() < bound.modulus()
                    || existing.modulus() == bound.modulus() && existing.remainder() <= bound.remainder();
            if (atOrBefore) {
                previous = partition;
            } else if (next == null) {
                next = partition;
            }
        }
        if (previous == null) {
            Table first = partitions.getFirst();
            requireFactor(bound.modulus(), first);
        } else {
            int previousModulus = previous.partitionBound().modulus();
            if (bound.modulus() % previousModulus != 0) {
                throw new ParallaxException(SqlState.INVALID_OBJECT_DEFINITION,
                        "every hash partition modulus must be a factor of the next larger modulus",
                        "The new modulus " + bound.modulus() + " is not divisible by " + previousModulus
                                + ", the modulus of existing partition \"" + previous.name() + "\".", null, 0, null);
            }
            if (next != null) {
                requireFactor(bound.modulus(), next);
            }
        }
        // A modulus greater than every existing one first meets the existing bounds at remainder mod greatest.
        int first = bound.remainder() >= greatestModulus ? bound.remainder() % greatestModulus : bound.remainder();
        for (int index = first; index < greatestModulus; index += bound.modulus()) {
            if (ordinalOfIndex[index] != NO_PARTITION) {
                throw ParallaxException.of(SqlState.INVALID_OBJECT_DEFINITION, "partition \"%s\" would overlap partition \"%s\"",
                        partitionName, partitions.get(ordinalOfIndex[index]).name());
            }
        }
    }

    private static void requireFactor(int modulus, Table larger) {
        int largerModulus = larger.partitionBound().modulus();
        if (largerModulus % modulus != 0) {
            throw new ParallaxException(SqlState.INVALID_OBJECT_DEFINITION,
                    "every hash partition modulus must be a factor of the next larger modulus",
                    "The new modulus " + modulus + " is not a factor of " + largerModulus
                            + ", the modulus of existing partition \"" + larger.name() + "\".", null, 0, null);
        }
    }
}
