package dev.parallax.planner.result;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.vector.Batch;

import java.util.List;
import java.util.Objects;

/** The result of a statement that returns no rows: a command tag, rows affected and notices. */
public final class CommandResult implements Result {
    private final String commandTag;
    private final long rowCount;
    private final List<String> notices;

    public CommandResult(String commandTag, long rowCount, List<String> notices) {
        this.commandTag = Objects.requireNonNull(commandTag, "commandTag");
        this.rowCount = rowCount;
        this.notices = List.copyOf(notices);
    }

    public CommandResult(String commandTag) {
        this(commandTag, 0, List.of());
    }

    @Override
    public List<ResultColumn> columns() {
        return List.of();
    }

    @Override
    public boolean hasRows() {
        return false;
    }

    @Override
    public Batch nextBatch() {
        return null;
    }

    @Override
    public String commandTag() {
        return commandTag;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public List<String> notices() {
        return notices;
    }

    @Override
    public void close() {
    }
}
