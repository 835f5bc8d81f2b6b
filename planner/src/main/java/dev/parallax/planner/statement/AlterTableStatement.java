package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code ALTER TABLE [IF EXISTS] [ONLY] name action [, action ...]} with the actions that change
 * columns ({@link AlterTableAction}), applied in the order written, all or none. Without
 * {@code only}, a partitioned table's partitions change too, as in PostgreSQL.
 */
public record AlterTableStatement(RelationName tableName, boolean ifExists, boolean only, List<AlterTableAction> actions)
        implements Statement {
    public AlterTableStatement {
        actions = List.copyOf(actions);
        if (actions.isEmpty()) {
            throw new IllegalArgumentException("ALTER TABLE needs an action");
        }
    }
}
