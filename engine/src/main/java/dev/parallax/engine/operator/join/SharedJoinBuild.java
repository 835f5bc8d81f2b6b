package dev.parallax.engine.operator.join;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.spill.HashPartitions;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The global state of one join's build under a Gather: the hash table every participant probes,
 * built once. Participants synchronize only when they attach, detach and wait, never per row.
 * <ul>
 *   <li>Parallel Hash (cooperative): every participant that arrives while the build is running
 *   attaches, reads its share of the partial build input into a {@link JoinBuildPart} of its own
 *   and detaches; the last to detach links all parts into the table. A participant arriving after
 *   the build finished (the build input's shared scan is exhausted by then) only probes. Since a
 *   participant attaches before it claims any build page, the last detach sees every row.</li>
 *   <li>Otherwise the first participant to arrive reads the whole build input; the others wait.</li>
 * </ul>
 * The table's memory is returned when the last participant that used it closes.
 * <p>When the rows read by all participants together outgrow {@code work_mem ×
 * hash_mem_multiplier}, the build spills: each participant that is still reading writes its rows
 * and the rest of its share into hash partitions of its own, the last one to detach writes the
 * rows of parts handed in before, and instead of a table the participants get the partition files
 * (in one directory, removed with the last release); each then runs a {@link GraceHashJoin} over
 * all participants' build files and its own share of the probe input.
 */
public final class SharedJoinBuild {
    private enum State { NEW, BUILDING, DONE, SPILLED, FAILED }

    /** How long a waiting participant sleeps before it checks cancellation again. */
    private static final long WAIT_MILLISECONDS = 10;

    private final List<JoinBuildPart> parts = new ArrayList<>();
    private State state = State.NEW;
    private int attached;
    private int users;
    private boolean released;
    private JoinHashTable table;
    private long chargedBytes;
    private volatile boolean spilling;
    private TemporaryDirectory spillDirectory;
    private final List<HashPartitions> spilledPartitions = new ArrayList<>();

    /** Registers a participant that will probe the table; pair with {@link #release()}. */
    synchronized void use() {
        users++;
    }

    /**
     * Whether the calling participant should read build rows now: true for the first participant,
     * and for later ones while a cooperative build is still running; false when it should wait.
     */
    synchronized boolean attach(boolean cooperative) {
        switch (state) {
            case NEW -> {
                state = State.BUILDING;
                attached = 1;
                return true;
            }
            case BUILDING -> {
                if (cooperative) {
                    attached++;
                    return true;
                }
                return false;
            }
            case DONE, SPILLED, FAILED -> {
                return false;
            }
        }
        throw new AssertionError(state);
    }

    /**
     * Adds {@code bytes} more held by an attached participant; returns whether the build spills
     * (from now on, or already), {@code limit} being the bound for all participants together.
     * Called once per build batch, so a lock is cheap enough.
     */
    synchronized boolean charge(long bytes, long limit) {
        chargedBytes += bytes;
        if (chargedBytes > limit) {
            spilling = true;
        }
        return spilling;
    }

    /** Whether the build spills; a participant that sees it converts its rows to partitions. */
    boolean spilling() {
        return spilling;
    }

    /** The directory of the build's partition files, created on first use; removed with the last release. */
    synchronized TemporaryDirectory spillDirectory(HashSpillOptions options) {
        if (spillDirectory == null) {
            spillDirectory = new TemporaryDirectory(options.tempDirectory(), "hash");
        }
        return spillDirectory;
    }

    /** Hands in the rows an attached participant read; the last one to detach builds the table. */
    synchronized void detach(JoinBuildPart part, List<DataType> types, boolean trackMatches) {
        detach(part, null, types, null, trackMatches, null);
    }

    /**
     * Hands in what an attached participant read: rows in memory ({@code part}) or, once the build
     * spills, finished partitions. The last to detach builds the table, or when spilling writes the
     * parts still in memory to partitions too (in {@code options}' directory) and ends SPILLED.
     */
    synchronized void detach(JoinBuildPart part, HashPartitions partitions, List<DataType> types, int[] keyColumns,
                             boolean trackMatches, HashSpillOptions options) {
        if (part != null) {
            parts.add(part);
        }
        if (partitions != null) {
            spilledPartitions.add(partitions);
        }
        if (--attached > 0 || state != State.BUILDING) {
            return;
        }
        try {
            if (spilling) {
                if (!parts.isEmpty()) {
                    JoinBuildPartitioner partitioner = new JoinBuildPartitioner(spillDirectory(options), types, keyColumns,
                            trackMatches, 0);
                    for (JoinBuildPart held : parts) {
                        partitioner.addPart(held);
                        held.release();
                    }
                    parts.clear();
                    spilledPartitions.add(partitioner.finish());
                }
                state = State.SPILLED;
            } else {
                table = JoinHashTable.build(parts, types, trackMatches);
                state = State.DONE;
            }
        } catch (RuntimeException | Error failure) {
            state = State.FAILED;
            throw failure;
        } finally {
            notifyAll();
        }
    }

    /** Called instead of {@link #detach} by an attached participant whose build failed. */
    synchronized void fail(JoinBuildPart part) {
        if (part != null) {
            parts.add(part);
        }
        attached--;
        state = State.FAILED;
        notifyAll();
    }

    /** Bytes held by the parts of the table (for EXPLAIN ANALYZE). */
    synchronized long reservedBytes() {
        long bytes = 0;
        for (JoinBuildPart part : parts) {
            bytes += part.reservedBytes();
        }
        return bytes;
    }

    /** The build's partitions once {@link #await} returned null (the build spilled). */
    synchronized List<HashPartitions> spilledPartitions() {
        return List.copyOf(spilledPartitions);
    }

    /**
     * Waits until the table is built and returns it, or null when the build spilled (then see
     * {@link #spilledPartitions()}); 57014 when the statement is cancelled meanwhile.
     */
    synchronized JoinHashTable await(ExecutionContext context) {
        while (state == State.BUILDING || state == State.NEW) {
            context.checkCancelled();
            try {
                wait(WAIT_MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request", interrupted);
            }
        }
        if (state == State.FAILED) {
            throw new ParallaxException(SqlState.INTERNAL_ERROR, "hash join build failed in another parallel participant");
        }
        return state == State.SPILLED ? null : table;
    }

    /** Ends one participant's use; the last returns the charged memory (once). */
    synchronized void release() {
        if (--users > 0 || released) {
            return;
        }
        released = true;
        for (JoinBuildPart part : parts) {
            part.release();
        }
        if (spillDirectory != null) {
            spillDirectory.close();
        }
    }
}
