package dev.parallax;

import dev.parallax.engine.type.ValueObjects;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * The outcome of one statement. Statements that return rows stream them as batches through
 * {@link #nextBatch()}; others have no columns and only a command tag. Used by one thread;
 * closing it early stops the query and frees its resources.
 */
public interface Result extends AutoCloseable {
    /** The result columns; empty for statements that return no rows. */
    List<ResultColumn> columns();

    /** True when the statement returns rows (SELECT, VALUES, EXPLAIN, SHOW, RETURNING). */
    boolean hasRows();

    /**
     * The next batch of rows (honour its selection), or null after the last. The batch is valid
     * until the next call. Errors of the running query surface here as ParallaxException.
     */
    Batch nextBatch();

    /**
     * PostgreSQL's command tag: {@code SELECT 4}, {@code INSERT 0 3}, {@code CREATE TABLE}, {@code SET}...
     * For row-returning statements it is complete only after the last batch was read.
     */
    String commandTag();

    /** Rows returned so far (row-returning statements) or rows affected (INSERT, COPY...). */
    long rowCount();

    /** NOTICE messages the statement raised (e.g. "table \"t\" does not exist, skipping"). */
    List<String> notices();

    /**
     * Every message the statement raised, with its severity, in order: {@link #notices()} as
     * {@code NOTICE}s unless the result says otherwise (VACUUM VERBOSE raises {@code INFO}s).
     */
    default List<Notice> messages() {
        List<String> notices = notices();
        // Most statements raise nothing: answer without building a stream per statement.
        return notices.isEmpty() ? List.of() : notices.stream().map(Notice::notice).toList();
    }

    /** Reads all remaining rows as Java values (see {@link ValueObjects#toJava}); convenient for small results and tests. */
    default List<List<Object>> fetchAll() {
        List<List<Object>> rows = new java.util.ArrayList<>();
        Batch batch;
        while ((batch = nextBatch()) != null) {
            for (int index = 0; index < batch.selectedCount(); index++) {
                int position = batch.position(index);
                Object[] row = new Object[batch.columnCount()];
                for (int column = 0; column < row.length; column++) {
                    row[column] = ValueObjects.toJava(batch.column(column), position);
                }
                rows.add(java.util.Arrays.asList(row));
            }
        }
        return rows;
    }

    /**
     * The zone a timestamp with time zone of this result prints in: UTC unless a wrapper knows the
     * session's TimeZone (the shell's and the wire server's results print in it).
     */
    default dev.parallax.engine.type.SessionTimeZone timeZone() {
        return dev.parallax.engine.type.SessionTimeZone.UTC;
    }

    /** Stops the statement if still running and frees its resources. Idempotent. */
    @Override
    void close();
}
