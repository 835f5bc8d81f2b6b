package dev.parallax.engine.operator.join;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.SpillFile;
import dev.parallax.engine.spill.SpillFileScan;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of a hash join that runs once its build side outgrew {@code work_mem ×
 * hash_mem_multiplier} (a Grace hash join): the build rows are already in hash partitions on disk;
 * this writes the probe input into partitions by the same hash bits, then joins partition by
 * partition, each with a {@link JoinOperator} of its own over the two files (which may spill
 * again, one level deeper). Rows with equal keys share a partition, so every join type gives the
 * in-memory answer batch by batch: unmatched probe rows (LEFT, FULL, ANTI) and unmatched build
 * rows (RIGHT, FULL) are found within their partition, and rows with a NULL key, which match
 * nothing, are emitted by whichever partition holds them. Used by one participant.
 */
final class GraceHashJoin implements AutoCloseable {
    private final JoinOperator parent;
    private final JoinType joinType;
    private final List<HashPartitions> buildPartitions;
    private final boolean ownsBuildFiles;
    private final HashPartitions probePartitions;
    private final long totalBuildRows;
    private int nextPartition;
    private JoinOperator current;

    /**
     * Partitions the whole {@code probeInput} now.
     *
     * @param buildPartitions the finished build partitions (several when participants of a shared
     *                        build each wrote their own), all at one level
     * @param ownsBuildFiles  whether this join may delete the build files once a partition is done
     *                        (false when other participants read them too)
     */
    GraceHashJoin(JoinOperator parent, ExecutionContext context, JoinType joinType, List<HashPartitions> buildPartitions,
                  boolean ownsBuildFiles, Operator probeInput, int[] probeKeys, List<DataType> probeTypes,
                  TemporaryDirectory directory) {
        this.parent = parent;
        this.joinType = joinType;
        this.buildPartitions = List.copyOf(buildPartitions);
        this.ownsBuildFiles = ownsBuildFiles;
        int level = this.buildPartitions.getFirst().level();
        long rows = 0;
        for (HashPartitions partitions : this.buildPartitions) {
            rows += partitions.rowCount();
        }
        this.totalBuildRows = rows;
        this.probePartitions = new HashPartitions(directory, "join-probe", probeTypes, level);
        // A probe row with a NULL key matches nothing: only joins that emit unmatched probe rows keep it.
        boolean keepNullKeys = joinType.preservesProbe() || joinType == JoinType.ANTI;
        long[] hashes = new long[Batch.DEFAULT_CAPACITY];
        boolean[] nullKeys = new boolean[Batch.DEFAULT_CAPACITY];
        int[] positions = new int[Batch.DEFAULT_CAPACITY];
        Batch batch;
        while ((batch = probeInput.next()) != null) {
            context.checkCancelled();
            int count = batch.selectedCount();
            if (positions.length < count) {
                hashes = new long[count];
                nullKeys = new boolean[count];
                positions = new int[count];
            }
            boolean anyNull = JoinKeyHasher.hash(batch, probeKeys, hashes, nullKeys);
            int kept = 0;
            for (int index = 0; index < count; index++) {
                if (anyNull && nullKeys[index] && !keepNullKeys) {
                    continue;
                }
                positions[kept] = batch.position(index);
                hashes[kept] = hashes[index];
                kept++;
            }
            probePartitions.add(batch, positions, hashes, kept);
        }
        probePartitions.finish();
    }

    /** The level of the partitions joined here; partitions that spill again use the next one. */
    int level() {
        return probePartitions.level();
    }

    /** Partitions joined so far, the one in progress included (for EXPLAIN ANALYZE's Batches). */
    int partitionsJoined() {
        return nextPartition;
    }

    /** Bytes written to the probe partitions. */
    long probeBytes() {
        return probePartitions.bytes();
    }

    /** The next joined rows, or null after the last partition. */
    Batch next() {
        while (true) {
            if (current != null) {
                Batch output = current.next();
                if (output != null) {
                    return output;
                }
                finishPartition();
            }
            if (nextPartition == HashPartitions.PARTITION_COUNT) {
                deleteFiles();
                return null;
            }
            int partition = nextPartition++;
            long probeRows = probePartitions.file(partition).rowCount();
            List<SpillFile> buildFiles = new ArrayList<>(buildPartitions.size());
            long buildRows = 0;
            for (HashPartitions partitions : buildPartitions) {
                buildFiles.add(partitions.file(partition));
                buildRows += partitions.file(partition).rowCount();
            }
            boolean anyOutput = probeRows > 0 && (buildRows > 0 || joinType.preservesProbe() || joinType == JoinType.ANTI)
                    || buildRows > 0 && joinType.preservesBuild();
            if (!anyOutput) {
                finishPartition();
                continue;
            }
            // When every build row fell into this one partition, its keys are (nearly) all equal and
            // splitting again cannot help: PostgreSQL then disables growth, and so does this.
            int childLevel = buildRows == totalBuildRows && totalBuildRows > 0 ? HashPartitions.MAXIMUM_LEVEL + 1 : level() + 1;
            current = parent.forSpilledPartition(new SpillFileScan(List.of(probePartitions.file(partition))),
                    new SpillFileScan(buildFiles), childLevel);
        }
    }

    /** Closes the partition's join. */
    private void finishPartition() {
        if (current != null) {
            JoinOperator finished = current;
            current = null;
            parent.statistics().absorbPartition(finished.statistics());
            finished.close();
        }
    }

    /** After the last partition: deletes the files nobody reads any more. */
    private void deleteFiles() {
        probePartitions.delete();
        if (ownsBuildFiles) {
            for (HashPartitions partitions : buildPartitions) {
                partitions.delete();
            }
        }
    }

    /** Closes the join in progress; the files go with their temporary directories. */
    @Override
    public void close() {
        if (current != null) {
            JoinOperator open = current;
            current = null;
            open.close();
        }
    }
}
