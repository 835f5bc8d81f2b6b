package dev.parallax.engine.operator.sort;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.explain.ParticipantStatistics;
import dev.parallax.engine.sort.SortedOutput;
import dev.parallax.engine.sort.Sorter;
import dev.parallax.engine.vector.Batch;

import java.util.Objects;

/**
 * PostgreSQL's Sort node: feeds its whole input to a {@link Sorter} (packed prefix keys, top-N
 * heap with a limit, spill to temporary runs past {@code work_mem}), then emits the sorted rows in
 * batches. The operator only drives the sort; the algorithm lives in the Sorter. Under EXPLAIN
 * ANALYZE it records the sort's method and space for its participant.
 */
public final class SortOperator implements Operator {
    private final ExecutionContext context;
    private final Operator input;
    private final Sorter sorter;
    private final ParticipantStatistics statistics;
    private SortedOutput output;
    private boolean inputClosed;
    private boolean closed;

    /**
     * @param sorter     an unused sorter over {@code input}'s column types; the operator owns and closes it
     * @param statistics where to record the sort's method and space, or null outside EXPLAIN ANALYZE
     */
    public SortOperator(ExecutionContext context, Operator input, Sorter sorter, ParticipantStatistics statistics) {
        this.context = Objects.requireNonNull(context, "context");
        this.input = Objects.requireNonNull(input, "input");
        this.sorter = Objects.requireNonNull(sorter, "sorter");
        this.statistics = statistics;
    }

    @Override
    public Batch next() {
        if (output == null) {
            sortInput();
        }
        context.checkCancelled();
        return output.next();
    }

    private void sortInput() {
        Batch batch;
        while ((batch = input.next()) != null) {
            context.checkCancelled();
            sorter.add(batch);
        }
        // The input is no longer needed: a Gather below returns its workers while the rows are emitted.
        closeInput();
        output = sorter.finish();
        if (statistics != null) {
            statistics.recordSort(sorter.statistics());
        }
    }

    private void closeInput() {
        if (!inputClosed) {
            inputClosed = true;
            input.close();
        }
    }

    /** Closes the sorted output and the sorter, which removes any temporary files, then the input. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (output != null) {
                output.close();
            }
        } finally {
            try {
                sorter.close();
            } finally {
                closeInput();
            }
        }
    }
}
