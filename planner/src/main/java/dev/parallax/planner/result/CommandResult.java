package dev.parallax.planner.result;

import dev.parallax.Notice;
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
    private final List<Notice> messages;

    public CommandResult(String commandTag, long rowCount, List<String> notices) {
        this.commandTag = Objects.requireNonNull(commandTag, "commandTag");
        this.rowCount = rowCount;
        this.notices = List.copyOf(notices);
        this.messages = this.notices.stream().map(Notice::notice).toList();
    }

    private CommandResult(String commandTag, List<Notice> messages) {
        this.commandTag = Objects.requireNonNull(commandTag, "commandTag");
        this.rowCount = 0;
        this.messages = List.copyOf(messages);
        // Clients that only know plain notices (JDBC warnings) still get every message's text.
        this.notices = this.messages.stream().map(Notice::message).toList();
    }

    /** A result whose messages carry their own severities (INFO, WARNING...). */
    public static CommandResult withMessages(String commandTag, List<Notice> messages) {
        return new CommandResult(commandTag, messages);
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
    public List<Notice> messages() {
        return messages;
    }

    @Override
    public void close() {
    }
}
