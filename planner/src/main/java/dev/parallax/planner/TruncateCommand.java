package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.vacuum.TableTruncation;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.statement.TruncateStatement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * TRUNCATE as PostgreSQL 15 runs it: resolves every name first (42P01 for a missing relation,
 * 42809 for one that is not a table or for ONLY on a partitioned table, 42501 for a system view),
 * so a bad name changes nothing; then empties the named tables, a partitioned table with all its
 * partitions, in one step ({@link TableTruncation}), and with RESTART IDENTITY restarts the
 * sequences their serial and identity columns own. Cached plans are planned again (the row counts
 * they were costed with are gone). Like every data change, it is not undone by ROLLBACK.
 */
final class TruncateCommand {
    private final SqlSession session;

    TruncateCommand(SqlSession session) {
        this.session = session;
    }

    Result run(TruncateStatement statement) {
        Catalog catalog = session.catalog();
        Set<Table> named = new LinkedHashSet<>();
        Set<Table> leaves = new LinkedHashSet<>();
        for (TruncateStatement.Target target : statement.targets()) {
            Table table = resolve(catalog, target);
            named.add(table);
            if (table.isPartitioned()) {
                leaves.addAll(table.partitionRouter().partitions());
            } else {
                leaves.add(table);
            }
        }
        List<String> notices = new ArrayList<>();
        addReferencingTables(leaves, named, statement.cascade(), notices);
        // No statement writes a referencing row of a truncated table meanwhile (it would check its key against the rows going away).
        List<ForeignKey> keys = new ArrayList<>();
        for (Table table : leaves) {
            keys.addAll(table.referencedBy());
        }
        keys.sort(Comparator.comparingLong(ForeignKey::objectId));
        for (ForeignKey key : keys) {
            key.lock().writeLock().lock();
        }
        ExecutionContext context = session.newContext(null, false);
        try {
            TableTruncation.truncate(new ArrayList<>(leaves), context::checkCancelled);
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            session.running().finish(context);
            for (ForeignKey key : keys.reversed()) {
                key.lock().writeLock().unlock();
            }
        }
        if (statement.restartIdentity()) {
            restartOwnedSequences(named, leaves);
        }
        catalog.touch();
        return new CommandResult("TRUNCATE TABLE", 0, notices);
    }

    /**
     * PostgreSQL's rule that a table referenced by a foreign key is truncated only with its
     * referencing tables: with CASCADE they join {@code leaves} (and {@code named}), transitively,
     * each with a NOTICE; otherwise 0A000 names the first one missing.
     */
    private static void addReferencingTables(Set<Table> leaves, Set<Table> named, boolean cascade, List<String> notices) {
        List<Table> queue = new ArrayList<>(leaves);
        for (int index = 0; index < queue.size(); index++) {
            for (ForeignKey key : queue.get(index).referencedBy()) {
                Table referencing = key.referencing();
                if (leaves.contains(referencing)) {
                    continue;
                }
                if (!cascade) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "cannot truncate a table referenced in a foreign key constraint",
                            "Table \"" + referencing.name() + "\" references \"" + key.referenced().name() + "\".",
                            "Truncate table \"" + referencing.name() + "\" at the same time, or use TRUNCATE ... CASCADE.", 0, null);
                }
                notices.add("truncate cascades to table \"" + referencing.name() + "\"");
                leaves.add(referencing);
                named.add(referencing);
                queue.add(referencing);
            }
        }
    }

    /** The table {@code target} names, or PostgreSQL's error for it. */
    private static Table resolve(Catalog catalog, TruncateStatement.Target target) {
        String name = target.tableName().name();
        Table table = target.tableName().findTable(catalog);
        if (table == null) {
            if (target.tableName().namespace(catalog).relationExists(name)) {
                // A view, a sequence or an index.
                throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a table", name);
            }
            throw target.tableName().notFound();
        }
        if (table.isSystemView()) {
            throw ParallaxException.of(SqlState.INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog", name);
        }
        if (target.only() && table.isPartitioned()) {
            throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "cannot truncate only a partitioned table", null,
                    "Do not specify the ONLY keyword, or use TRUNCATE ONLY on the partitions directly.", 0, null);
        }
        return table;
    }

    /** RESTART IDENTITY: the sequences owned by a column of a truncated table start over. */
    private void restartOwnedSequences(Set<Table> named, Set<Table> leaves) {
        SessionCatalog catalog = session.catalog();
        Set<Table> truncated = new LinkedHashSet<>(named);
        truncated.addAll(leaves);
        for (Table table : truncated) {
            // A sequence names its owner: look among the table's own schema's sequences, as a
            // temporary table and the permanent one it hides may share a name.
            Catalog namespace = catalog.isTemporary(table) ? catalog.temporary() : catalog.shared();
            for (Sequence sequence : namespace.sequences()) {
                if (table.name().equals(sequence.ownerTable())) {
                    sequence.restart(null);
                }
            }
        }
    }
}
