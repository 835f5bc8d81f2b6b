package dev.parallax.planner;

import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.vacuum.TableTruncation;
import dev.parallax.planner.statement.TemporaryTable;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a session owes its temporary tables beyond the catalog ({@link SessionCatalog} holds them):
 * the ON COMMIT action of each at the end of every transaction, and dropping them all when the
 * session ends (Session.close, the shell's exit, a wire connection's end however it comes).
 *
 * <p>A transaction ends, in PostgreSQL, with each statement run outside a block and with COMMIT or
 * ROLLBACK of a block. The actions run when the session next starts a statement outside a block
 * (and when it ends), which nothing in between can tell apart: no other session sees these tables,
 * and a statement's result may still be streaming when its transaction would end. ROLLBACK of a
 * block whose statements changed data fails with 0A000 in Parallax and keeps the changes (see
 * {@link TransactionBlock}); its end still runs the actions, which leaves an ON COMMIT DROP or
 * DELETE ROWS table as PostgreSQL's ROLLBACK would (gone; empty). Used by the session's thread.
 */
final class TemporaryTables {
    private final SessionCatalog catalog;
    /** The tables with ON COMMIT DELETE ROWS or DROP, by identity (a rename keeps the object). */
    private final Map<Table, TemporaryTable.OnCommit> onCommit = new IdentityHashMap<>();

    TemporaryTables(SessionCatalog catalog) {
        this.catalog = catalog;
    }

    /** A temporary table was created with {@code action} (PRESERVE ROWS needs nothing). */
    void created(Table table, TemporaryTable.OnCommit action) {
        if (action != TemporaryTable.OnCommit.PRESERVE_ROWS) {
            onCommit.put(table, action);
        }
    }

    /** ALTER TABLE rewrote {@code table} (and its partitions) as {@code replacement}: the actions follow, by name. */
    void replaced(Table table, Table replacement) {
        if (onCommit.isEmpty()) {
            return;
        }
        List<Table> old = table.withPartitions();
        for (Table built : replacement.withPartitions()) {
            for (Table each : old) {
                TemporaryTable.OnCommit action = each.name().equals(built.name()) ? onCommit.remove(each) : null;
                if (action != null) {
                    onCommit.put(built, action);
                }
            }
        }
    }

    /**
     * The session's transaction ended: drops the ON COMMIT DROP tables and empties the ON COMMIT
     * DELETE ROWS ones that hold rows. Cheap when there are none, as on nearly every statement.
     */
    void transactionEnded() {
        if (onCommit.isEmpty()) {
            return;
        }
        List<Table> truncated = new ArrayList<>();
        for (Map.Entry<Table, TemporaryTable.OnCommit> entry : List.copyOf(onCommit.entrySet())) {
            Table table = entry.getKey();
            if (!catalog.isTemporary(table)) {
                // Dropped, or replaced by ALTER TABLE (whose replacement was registered in its place).
                onCommit.remove(table);
                continue;
            }
            switch (entry.getValue()) {
                case DROP -> {
                    onCommit.remove(table);
                    catalog.temporary().dropTable(table.name());
                }
                case DELETE_ROWS -> {
                    for (Table leaf : table.isPartitioned() ? table.partitionRouter().partitions() : List.of(table)) {
                        if (leaf.storage().pageCount() > 0) {
                            truncated.add(leaf);
                        }
                    }
                }
                case PRESERVE_ROWS -> throw new IllegalStateException("PRESERVE ROWS is not recorded");
            }
        }
        if (!truncated.isEmpty()) {
            TableTruncation.truncate(truncated, () -> {
            });
        }
    }

    /** The session ends: every temporary table goes, its memory freed. */
    void close() {
        onCommit.clear();
        catalog.dropTemporaryTables();
    }
}
