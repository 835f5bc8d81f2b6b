package dev.parallax.engine.operator.gather;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.ParallelScanState;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.GatherMergeNode;
import dev.parallax.engine.sort.SortedOutput;
import dev.parallax.engine.sort.SortedStreamMerger;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * PostgreSQL's Gather Merge. Starts workers as {@link GatherOperator} does ({@link GatherWorkers}),
 * but gives each worker its own bounded queue, since each participant's rows arrive in sort order;
 * the leader merges the participants' streams (the workers' queues and, when
 * parallel_leader_participation is on or no worker was granted, its own instance of the input) with
 * a {@link SortedStreamMerger}. Like PostgreSQL's, the merge needs one row from every participant
 * before it can emit the first, so it waits for the slowest sort. A worker failure stops the
 * others and is rethrown by the leader.
 */
public final class GatherMergeOperator implements Operator {
    /** Batches in flight per worker: lets a worker run ahead of the merge a little, bounded to cap memory. */
    private static final int QUEUED_BATCHES_PER_WORKER = 4;

    private final GatherMergeNode node;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final NodeStatistics statistics;
    private final GatherWorkers workers;
    private SortedStreamMerger merger;
    private final List<SortedOutput> streams = new ArrayList<>();
    private boolean closed;
    /** The shared scan cursors, opened on the first next(); closed last in {@link #close()}. */
    private ParallelScanState scans;

    public GatherMergeOperator(GatherMergeNode node, OperatorBuilder builder) {
        this.node = node;
        this.builder = builder;
        this.context = builder.context();
        this.statistics = builder.statistics(node);
        this.workers = new GatherWorkers(context);
    }

    @Override
    public Batch next() {
        if (merger == null) {
            start();
        }
        context.checkCancelled();
        workers.rethrowFailure();
        return merger.next();
    }

    private void start() {
        int launched = workers.acquire(node.workersPlanned());
        if (statistics != null) {
            statistics.setWorkersLaunched(launched);
        }
        ParallelScanState scans = new ParallelScanState(node, builder.scanChunkPages());
        this.scans = scans;
        // The leader's stream goes first: the merge pulls it first, so the leader sorts its share
        // while the workers sort theirs, instead of waiting for a worker's first batch.
        boolean leaderParticipates = launched == 0 || context.settings().getBoolean("parallel_leader_participation");
        if (leaderParticipates) {
            Operator leaderInput = builder.forParticipant(OperatorBuilder.LEADER, scans).build(node.input());
            streams.add(new LeaderStream(leaderInput));
        }
        if (launched > 0) {
            List<BlockingQueue<Object>> queues = new ArrayList<>(launched);
            for (int worker = 0; worker < launched; worker++) {
                BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES_PER_WORKER);
                queues.add(queue);
                streams.add(new WorkerStream(queue));
            }
            workers.start(builder, scans, node.input(), queues::get);
        }
        merger = new SortedStreamMerger(node.outputTypes(), node.keys(), streams);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        workers.stop();
        try {
            if (merger != null) {
                merger.close();
            } else {
                streams.forEach(SortedOutput::close);
            }
        } finally {
            try {
                workers.close();
            } finally {
                // Every participant has stopped reading: the scans' snapshots may go.
                if (scans != null) {
                    scans.close();
                }
            }
        }
    }

    /** One worker's sorted rows, read from its queue on the leader's thread. */
    private final class WorkerStream implements SortedOutput {
        private final BlockingQueue<Object> queue;
        private boolean finished;

        WorkerStream(BlockingQueue<Object> queue) {
            this.queue = queue;
        }

        @Override
        public Batch next() {
            while (!finished) {
                context.checkCancelled();
                workers.rethrowFailure();
                Object message = workers.await(queue);
                if (message instanceof Batch batch) {
                    return batch;
                }
                if (message == GatherWorkers.FINISHED) {
                    // A failed worker finishes early too: its stream must not pass for a complete one.
                    workers.rethrowFailure();
                    finished = true;
                }
            }
            return null;
        }

        @Override
        public void close() {
            finished = true;
        }
    }

    /** The leader's own instance of the input, read directly. */
    private static final class LeaderStream implements SortedOutput {
        private final Operator input;
        private boolean closed;

        LeaderStream(Operator input) {
            this.input = input;
        }

        @Override
        public Batch next() {
            return closed ? null : input.next();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                input.close();
            }
        }
    }
}
