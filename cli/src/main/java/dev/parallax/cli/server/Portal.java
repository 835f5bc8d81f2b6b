package dev.parallax.cli.server;

import dev.parallax.Result;
import dev.parallax.engine.vector.Batch;

/**
 * A bound statement ready to run (Bind), and once running its open result with the batch being
 * sent and the next row of it: Execute with a row limit sends part of the rows, answers
 * PortalSuspended and leaves the result open — streaming, its parallel workers untouched — for the
 * next Execute.
 */
final class Portal implements AutoCloseable {
    final String name;
    final ServerStatement statement;
    final Object[] parameters;
    /** Per result column: send in binary format. */
    final boolean[] binaryColumns;
    Result result;
    Batch batch;
    int nextRow;
    /** DataRows sent so far over all Executes. */
    long rowsSent;
    boolean finished;
    /** The CommandComplete tag once finished (a finished portal executed again completes with it). */
    String completedTag;

    Portal(String name, ServerStatement statement, Object[] parameters, boolean[] binaryColumns) {
        this.name = name;
        this.statement = statement;
        this.parameters = parameters;
        this.binaryColumns = binaryColumns;
    }

    @Override
    public void close() {
        if (result != null) {
            result.close();
            result = null;
        }
        batch = null;
    }
}
