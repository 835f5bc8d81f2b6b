package dev.parallax.engine.operator.gather;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.ParallelScanState;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.vector.Batch;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * PostgreSQL's Gather. On the first {@link #next()} it takes workers from the {@code WorkerPool}
 * (what it gets is "Workers Launched"), opens the shared scan state, and starts one task per
 * worker ({@link GatherWorkers}); each task runs its own instance of the input and pushes copies
 * of its batches into one bounded queue shared by all workers. The leader returns queued batches
 * first and, when the queue is empty, runs its own instance of the input (unless
 * parallel_leader_participation is off or this is a single-copy Gather); with no worker granted,
 * the leader runs the input alone. A worker failure stops the other workers and is rethrown by the leader.
 */
public final class GatherOperator implements Operator {
    /** Batches in flight per worker: enough to keep a worker busy while the leader is, bounded to cap memory. */
    private static final int QUEUED_BATCHES_PER_WORKER = 4;

    private final GatherNode node;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final NodeStatistics statistics;
    private final GatherWorkers workers;

    private boolean started;
    private BlockingQueue<Object> queue;
    private int workersRunning;
    private Operator leaderInput;
    private boolean leaderDone = true;
    private boolean closed;
    /** The shared scan cursors, opened on the first next(); closed last in {@link #close()}. */
    private ParallelScanState scans;
    /** A message taken from the queue while waiting, handled by the next loop turn. */
    private Object pending;

    public GatherOperator(GatherNode node, OperatorBuilder builder) {
        this.node = node;
        this.builder = builder;
        this.context = builder.context();
        this.statistics = builder.statistics(node);
        this.workers = new GatherWorkers(context);
    }

    @Override
    public Batch next() {
        if (!started) {
            start();
        }
        while (true) {
            context.checkCancelled();
            workers.rethrowFailure();
            Object message = pending != null ? pending : queue == null ? null : queue.poll();
            pending = null;
            if (message instanceof Batch batch) {
                return batch;
            }
            if (message == GatherWorkers.FINISHED) {
                workersRunning--;
                continue;
            }
            if (!leaderDone) {
                Batch own = leaderInput.next();
                if (own != null) {
                    return own;
                }
                leaderDone = true;
                continue;
            }
            if (workersRunning == 0) {
                workers.rethrowFailure();
                return null;
            }
            // A bounded wait so the leader notices cancellation even when no worker produces.
            pending = workers.await(queue);
        }
    }

    private void start() {
        started = true;
        int launched = workers.acquire(node.singleCopy() ? 1 : node.workersPlanned());
        if (statistics != null) {
            statistics.setWorkersLaunched(launched);
        }
        ParallelScanState scans = new ParallelScanState(node, builder.scanChunkPages());
        this.scans = scans;
        boolean leaderParticipates = launched == 0
                || (!node.singleCopy() && context.settings().getBoolean("parallel_leader_participation"));
        if (launched > 0) {
            // Room for every worker's last message, so a finishing worker never waits on the leader.
            BlockingQueue<Object> shared = new ArrayBlockingQueue<>(QUEUED_BATCHES_PER_WORKER * launched + launched);
            queue = shared;
            workersRunning = launched;
            workers.start(builder, scans, node.input(), worker -> shared);
        }
        if (leaderParticipates) {
            leaderInput = builder.forParticipant(OperatorBuilder.LEADER, scans).build(node.input());
            leaderDone = false;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        workers.stop();
        try {
            if (leaderInput != null) {
                leaderInput.close();
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
}
