package dev.parallax.planner.result;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

import java.util.List;
import java.util.Objects;

/**
 * Streams the rows of a running query from its root operator. The operator is closed exactly once:
 * after the last batch, on the first error, or when the caller closes the result early (which
 * stops the query and its workers). {@code onClose} tells the session the statement has ended.
 */
public final class OperatorResult implements Result {
    private final List<ResultColumn> columns;
    private final Operator operator;
    private final ExecutionContext context;
    private final String commandName;
    private final Runnable onClose;
    private long rowCount;
    private boolean finished;
    private boolean closed;

    public OperatorResult(List<ResultColumn> columns, Operator operator, ExecutionContext context, String commandName, Runnable onClose) {
        this.columns = List.copyOf(columns);
        this.operator = Objects.requireNonNull(operator, "operator");
        this.context = Objects.requireNonNull(context, "context");
        this.commandName = Objects.requireNonNull(commandName, "commandName");
        this.onClose = Objects.requireNonNull(onClose, "onClose");
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean hasRows() {
        return true;
    }

    @Override
    public Batch nextBatch() {
        if (finished || closed) {
            return null;
        }
        Batch batch;
        try {
            context.checkCancelled();
            batch = operator.next();
        } catch (RuntimeException failure) {
            close();
            throw asParallaxException(failure);
        }
        if (batch == null) {
            finished = true;
            close();
            return null;
        }
        rowCount += batch.selectedCount();
        return batch;
    }

    /** {@code SELECT n} once the rows are read (the count of rows so far before that). */
    @Override
    public String commandTag() {
        return commandName + " " + rowCount;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public List<String> notices() {
        return List.of();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            operator.close();
        } finally {
            onClose.run();
        }
    }

    /** Errors users can cause already are ParallaxExceptions; anything else is an internal error (XX000). */
    public static ParallaxException asParallaxException(RuntimeException failure) {
        if (failure instanceof ParallaxException parallax) {
            return parallax;
        }
        return new ParallaxException(SqlState.INTERNAL_ERROR,
                failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage(), failure);
    }
}
