package dev.parallax.engine.operator.gather;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.ParallelScanState;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * The workers of one Gather or Gather Merge, shared machinery of both: takes workers from the
 * {@code WorkerPool} ({@link #acquire}), runs one instance of the input per worker on the
 * ForkJoinPool, each pushing copies of its batches and finally {@link #FINISHED} into the bounded
 * queue it was given ({@link #start}); keeps the first failure and stops the other workers; on
 * {@link #close()} waits for every worker and returns them to the pool.
 *
 * <p>The leader thread calls everything except the worker tasks, which only send.
 */
final class GatherWorkers {
    /** The last message a worker sends to its queue, after its last batch (also after a failure). */
    static final Object FINISHED = new Object();
    /** How long the leader waits for a message before it checks cancellation and failures again. */
    private static final long WAIT_MILLISECONDS = 10;

    private final ExecutionContext context;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<BlockingQueue<Object>> queues = new ArrayList<>();
    private volatile boolean stopping;
    private int launched;
    private CountDownLatch workersDone;

    GatherWorkers(ExecutionContext context) {
        this.context = context;
    }

    /** Takes up to {@code wanted} workers (capped by max_parallel_workers and the pool); returns how many: Workers Launched. Call once. */
    int acquire(int wanted) {
        launched = wanted <= 0 ? 0 : context.workers().acquire(wanted, context.settings().getInt("max_parallel_workers"));
        return launched;
    }

    /**
     * Starts the acquired workers, worker {@code w} running its own instance of {@code input} (sharing
     * {@code scans}) and sending to {@code queueOfWorker.apply(w)}; several workers may share a queue.
     */
    void start(OperatorBuilder builder, ParallelScanState scans, PlanNode input, IntFunction<BlockingQueue<Object>> queueOfWorker) {
        if (launched == 0) {
            return;
        }
        workersDone = new CountDownLatch(launched);
        for (int worker = 0; worker < launched; worker++) {
            BlockingQueue<Object> queue = queueOfWorker.apply(worker);
            if (!queues.contains(queue)) {
                queues.add(queue);
            }
            OperatorBuilder workerBuilder = builder.forParticipant(worker, scans);
            context.workers().pool().execute(() -> run(workerBuilder, input, queue));
        }
    }

    private void run(OperatorBuilder workerBuilder, PlanNode input, BlockingQueue<Object> queue) {
        try {
            if (!stopping) {
                try (Operator operator = workerBuilder.build(input)) {
                    Batch batch;
                    while (!stopping && (batch = operator.next()) != null) {
                        context.checkCancelled();
                        send(queue, BatchCopier.compact(batch));
                    }
                }
            }
        } catch (Throwable error) {
            failure.compareAndSet(null, error);
            stopping = true;
        } finally {
            send(queue, FINISHED);
            workersDone.countDown();
        }
    }

    /** Blocks while the queue is full, giving up once the workers are stopping (nobody reads then). */
    private void send(BlockingQueue<Object> queue, Object message) {
        try {
            while (!queue.offer(message, WAIT_MILLISECONDS, TimeUnit.MILLISECONDS)) {
                if (stopping) {
                    return;
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    /**
     * The next message of {@code queue} (a {@link Batch} or {@link #FINISHED}), waiting a short
     * while; null when none arrived yet, so the caller can check cancellation and failures and retry.
     */
    Object await(BlockingQueue<Object> queue) {
        try {
            return queue.poll(WAIT_MILLISECONDS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request", interrupted);
        }
    }

    /** Throws the first worker failure (its own ParallaxException, else XX000), stopping the other workers. */
    void rethrowFailure() {
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

    /** Asks the workers to stop at their next batch, without waiting for them. */
    void stop() {
        stopping = true;
    }

    /** Stops the workers, waits until every one has ended (draining their queues so none stays blocked) and returns them to the pool; idempotent. */
    void close() {
        stopping = true;
        if (workersDone == null) {
            context.workers().release(launched);
            launched = 0;
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                queues.forEach(BlockingQueue::clear);
                try {
                    if (workersDone.await(WAIT_MILLISECONDS, TimeUnit.MILLISECONDS)) {
                        break;
                    }
                } catch (InterruptedException ignored) {
                    interrupted = true;
                }
            }
            queues.forEach(BlockingQueue::clear);
        } finally {
            context.workers().release(launched);
            launched = 0;
            workersDone = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
