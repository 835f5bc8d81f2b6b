package dev.parallax.planner.result;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.vector.Batch;

import java.util.List;
import java.util.Objects;

/**
 * A result that answers with another's rows, tag, counts and messages: the base of wrappers that
 * change one of them (the messages client_min_messages lets through, a transaction block's watch
 * over a statement's failure, a query started again after a concurrent ALTER TABLE).
 */
public abstract class ForwardingResult implements Result {
    private Result result;

    protected ForwardingResult(Result result) {
        this.result = Objects.requireNonNull(result, "result");
    }

    /** The result answered with. */
    protected final Result delegate() {
        return result;
    }

    /** Answers with {@code replacement} from now on: for a wrapper that starts its query again. */
    protected final void replaceDelegate(Result replacement) {
        result = Objects.requireNonNull(replacement, "replacement");
    }

    @Override
    public dev.parallax.engine.type.SessionTimeZone timeZone() {
        return result.timeZone();
    }

    @Override
    public List<ResultColumn> columns() {
        return result.columns();
    }

    @Override
    public boolean hasRows() {
        return result.hasRows();
    }

    @Override
    public Batch nextBatch() {
        return result.nextBatch();
    }

    @Override
    public String commandTag() {
        return result.commandTag();
    }

    @Override
    public long rowCount() {
        return result.rowCount();
    }

    @Override
    public List<String> notices() {
        return result.notices();
    }

    @Override
    public List<Notice> messages() {
        return result.messages();
    }

    @Override
    public void close() {
        result.close();
    }
}
