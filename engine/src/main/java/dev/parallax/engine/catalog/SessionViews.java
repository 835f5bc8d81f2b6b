package dev.parallax.engine.catalog;

import dev.parallax.engine.storage.TableStorage;

/**
 * Where a scan of a system view reads its rows in the session running the statement. Most views
 * show the database (their table's own storage); a few show the session itself, as PostgreSQL's
 * pg_prepared_statements does, and a session answers those with storage of its own.
 */
@FunctionalInterface
public interface SessionViews {
    /** A session without views of its own: every view reads its table's storage. */
    SessionViews NONE = Table::storage;

    /** The storage a scan of the system view {@code view} reads in this session; called when the scan's operator is built. */
    TableStorage storage(Table view);
}
