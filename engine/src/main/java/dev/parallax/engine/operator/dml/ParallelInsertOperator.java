package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.exec.ParallelScanState;
import dev.parallax.engine.plan.GatherNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.StagedPages;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code Insert ← Gather ← ...}, with each participant of the Gather writing the rows it produces
 * into pages of its own ({@link StagedPages}) instead of sending them to the leader, which then
 * publishes every participant's pages in one step: all rows or none, as {@link InsertOperator}.
 * A Gather returns its participants' rows in no particular order, so the table receives the same
 * rows either way; the pages are written on every core, and no row is copied on its way through
 * the Gather and into a chunk (the serial insert of 10M md5 texts spent most of its time on the
 * leader writing pages and faulting in their fresh memory, JFR on SortQueryBenchmark.md5TextIntoTableUnordered).
 * <p>
 * For tables whose rows can be staged ({@link InsertOperator#staged}); EXPLAIN ANALYZE keeps the
 * plain Gather, whose per-node figures it reports. Emits one BIGINT row: the number of rows inserted.
 */
public final class ParallelInsertOperator implements Operator {
    /** How long the leader waits for the workers before it checks cancellation again. */
    private static final long WAIT_MILLISECONDS = 10;

    private final GatherNode gather;
    private final Table table;
    private final PagedTableStorage storage;
    private final List<DataType> inputTypes;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private boolean done;

    /**
     * Whether an INSERT into {@code table} over a Gather writes in the Gather's participants (so
     * rows do not cross the Gather, and the planner need not charge parallel_tuple_cost for them).
     */
    public static boolean writesInParticipants(Table table) {
        return InsertOperator.staged(table) != null;
    }

    /** Whether {@code node} runs as a parallel insert: a Gather right below, a table whose rows can be staged, no EXPLAIN ANALYZE. */
    public static boolean applies(InsertNode node, OperatorBuilder builder) {
        return node.input() instanceof GatherNode && InsertOperator.staged(node.table()) != null && builder.statistics(node) == null;
    }

    public ParallelInsertOperator(InsertNode node, OperatorBuilder builder) {
        this.gather = (GatherNode) node.input();
        this.table = node.table();
        this.storage = InsertOperator.staged(table);
        this.inputTypes = gather.input().outputTypes();
        this.builder = builder;
        this.context = builder.context();
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        long rowCount = insert();
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, rowCount);
        result.setRowCount(1);
        return result;
    }

    private long insert() {
        int wanted = gather.singleCopy() ? 1 : gather.workersPlanned();
        int launched = wanted <= 0 ? 0 : context.workers().acquire(wanted, context.settings().getInt("max_parallel_workers"));
        boolean leaderParticipates = launched == 0
                || (!gather.singleCopy() && context.settings().getBoolean("parallel_leader_participation"));
        List<StagedPages> stages = new ArrayList<>();
        CountDownLatch workersDone = new CountDownLatch(launched);
        int started = 0;
        try (ParallelScanState scans = new ParallelScanState(gather, builder.scanChunkPages())) {
            try {
                for (int worker = 0; worker < launched; worker++) {
                    StagedPages stage = storage.stage();
                    stages.add(stage);
                    OperatorBuilder workerBuilder = builder.forParticipant(worker, scans);
                    context.workers().pool().execute(() -> runWorker(workerBuilder, stage, workersDone));
                    started++;
                }
                if (leaderParticipates) {
                    StagedPages stage = storage.stage();
                    stages.add(stage);
                    try {
                        run(builder.forParticipant(OperatorBuilder.LEADER, scans), stage);
                    } catch (RuntimeException | Error leaderFailure) {
                        failure.compareAndSet(null, leaderFailure);
                        stopping = true;
                    }
                }
                awaitWorkers(workersDone);
                rethrowFailure();
                storage.publishStaged(stages);
                long rows = 0;
                for (StagedPages stage : stages) {
                    rows += stage.rowCount();
                }
                return rows;
            } finally {
                stopping = true;
                // Workers never started count down here, so the wait below ends.
                for (int notStarted = started; notStarted < launched; notStarted++) {
                    workersDone.countDown();
                }
                waitUninterruptibly(workersDone);
                context.workers().release(launched);
                // Every participant has stopped writing: the pages not published go back.
                for (StagedPages stage : stages) {
                    stage.close();
                }
            }
        }
    }

    private void runWorker(OperatorBuilder workerBuilder, StagedPages stage, CountDownLatch workersDone) {
        try {
            run(workerBuilder, stage);
        } catch (Throwable error) {
            failure.compareAndSet(null, error);
            stopping = true;
        } finally {
            workersDone.countDown();
        }
    }

    /** One participant: its instance of the Gather's input, its own assignment conversion, its own pages. */
    private void run(OperatorBuilder participantBuilder, StagedPages stage) {
        if (stopping) {
            return;
        }
        AssignedRows assignment = new AssignedRows(inputTypes, table, context);
        try (Operator operator = participantBuilder.build(gather.input())) {
            Batch batch;
            while (!stopping && (batch = operator.next()) != null) {
                context.checkCancelled();
                stage.write(assignment.convert(batch));
            }
        }
    }

    /** Waits for the workers, checking cancellation and failures between short waits. */
    private void awaitWorkers(CountDownLatch workersDone) {
        try {
            while (!workersDone.await(WAIT_MILLISECONDS, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    stopping = true;
                }
                context.checkCancelled();
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request", interrupted);
        }
    }

    private static void waitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException ignored) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first participant failure: its own ParallaxException or Error, else XX000. */
    private void rethrowFailure() {
        Throwable error = failure.get();
        if (error == null) {
            return;
        }
        switch (error) {
            case ParallaxException parallax -> throw parallax;
            case Error fatal -> throw fatal;
            default -> throw new ParallaxException(SqlState.INTERNAL_ERROR, "parallel worker failed: " + error, error);
        }
    }

    @Override
    public void close() {
        stopping = true;
    }
}
