package dev.parallax.engine.operator.gather;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.ParallelScanState;
import dev.parallax.engine.explain.NodeStatistics;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.vector.Batch;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * PostgreSQL's Gather. On the first {@link #next()} it takes workers from the {@code WorkerPool}
 * (what it gets is "Workers Launched"), opens the shared scan state, and starts one task per
 * worker on the ForkJoinPool; each task runs its own instance of the input and pushes copies of
 * its batches into a bounded queue. The leader returns queued batches first and, when the queue
 * is empty, runs its own instance of the input (unless parallel_leader_participation is off or
 * this is a single-copy Gather); with no worker granted, the leader runs the input alone.
 * A worker failure stops the other workers and is rethrown by the leader.
 */
public final class GatherOperator implements Operator {
    /** Batches in flight per worker: enough to keep a worker busy while the leader is, bounded to cap memory. */
    private static final int QUEUED_BATCHES_PER_WORKER = 4;
    private static final Object WORKER_FINISHED = new Object();

    private final GatherNode node;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final NodeStatistics statistics;

    private boolean started;
    private int workersLaunched;
    private BlockingQueue<Object> queue;
    private CountDownLatch workersDone;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private int workersRunning;
    private Operator leaderInput;
    private boolean leaderDone = true;
    private boolean closed;
    /** A message taken from the queue while waiting, handled by the next loop turn. */
    private Object pending;

    public GatherOperator(GatherNode node, OperatorBuilder builder) {
        this.node = node;
        this.builder = builder;
        this.context = builder.context();
        this.statistics = builder.statistics(node);
    }

    @Override
    public Batch next() {
        if (!started) {
            start();
        }
        while (true) {
            context.checkCancelled();
            rethrowWorkerFailure();
            Object message = pending != null ? pending : queue == null ? null : queue.poll();
            pending = null;
            if (message instanceof Batch batch) {
                return batch;
            }
            if (message == WORKER_FINISHED) {
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
                rethrowWorkerFailure();
                return null;
            }
            awaitWorkerMessage();
        }
    }

    private void awaitWorkerMessage() {
        try {
            // A bounded wait so the leader notices cancellation even when no worker produces.
            pending = queue.poll(10, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request", interrupted);
        }
    }

    private void start() {
        started = true;
        int wanted = node.singleCopy() ? 1 : node.workersPlanned();
        workersLaunched = wanted == 0 ? 0
                : context.workers().acquire(wanted, context.settings().getInt("max_parallel_workers"));
        if (statistics != null) {
            statistics.setWorkersLaunched(workersLaunched);
        }
        ParallelScanState scans = new ParallelScanState(node, builder.scanChunkPages());
        boolean leaderParticipates = workersLaunched == 0
                || (!node.singleCopy() && context.settings().getBoolean("parallel_leader_participation"));
        if (workersLaunched > 0) {
            queue = new ArrayBlockingQueue<>(QUEUED_BATCHES_PER_WORKER * workersLaunched + workersLaunched);
            workersDone = new CountDownLatch(workersLaunched);
            workersRunning = workersLaunched;
            for (int worker = 0; worker < workersLaunched; worker++) {
                OperatorBuilder workerBuilder = builder.forParticipant(worker, scans);
                context.workers().pool().execute(() -> runWorker(workerBuilder));
            }
        }
        if (leaderParticipates) {
            leaderInput = builder.forParticipant(OperatorBuilder.LEADER, scans).build(node.input());
            leaderDone = false;
        }
    }

    private void runWorker(OperatorBuilder workerBuilder) {
        try {
            if (!stopping) {
                try (Operator input = workerBuilder.build(node.input())) {
                    Batch batch;
                    while (!stopping && (batch = input.next()) != null) {
                        context.checkCancelled();
                        send(BatchCopier.compact(batch));
                    }
                }
            }
        } catch (Throwable error) {
            failure.compareAndSet(null, error);
            stopping = true;
        } finally {
            send(WORKER_FINISHED);
            workersDone.countDown();
        }
    }

    /** Blocks while the queue is full, giving up once the Gather is stopping (nobody reads then). */
    private void send(Object message) {
        try {
            while (!queue.offer(message, 10, TimeUnit.MILLISECONDS)) {
                if (stopping) {
                    return;
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    private void rethrowWorkerFailure() {
        Throwable error = failure.get();
        if (error == null) {
            return;
        }
        stopping = true;
        switch (error) {
            case ParallaxException parallax -> throw parallax;
            case Error fatal -> throw fatal;
            default -> throw new ParallaxException(SqlState.INTERNAL_ERROR, "parallel worker failed: " + error, error);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopping = true;
        try {
            if (leaderInput != null) {
                leaderInput.close();
            }
        } finally {
            joinWorkers();
        }
    }

    private void joinWorkers() {
        if (workersDone == null) {
            context.workers().release(workersLaunched);
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                queue.clear();
                try {
                    if (workersDone.await(10, TimeUnit.MILLISECONDS)) {
                        break;
                    }
                } catch (InterruptedException ignored) {
                    interrupted = true;
                }
            }
            queue.clear();
        } finally {
            context.workers().release(workersLaunched);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
