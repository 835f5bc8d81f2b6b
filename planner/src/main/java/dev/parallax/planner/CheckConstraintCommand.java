package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.planner.query.schema.CatalogSchema;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.statement.AlterTableAction;
import dev.parallax.planner.statement.AlterTableStatement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ALTER TABLE ... ADD [CONSTRAINT name] CHECK (condition) and DROP CONSTRAINT [IF EXISTS] name, in
 * order, all or nothing; also ADD [CONSTRAINT name] FOREIGN KEY ({@link ForeignKeyCommand#add}) and the DROP of a foreign key. An added constraint applies to the statements that start after it (they
 * compile the table's constraints when they open) and is then checked against the rows the table
 * holds, with {@code SELECT 1 FROM table WHERE (condition) IS FALSE LIMIT 1} (23514 {@code check
 * constraint "x" of relation "t" is violated by some row}, and the constraints are as before).
 * A statement that was already writing when the constraint was added is not held back as
 * PostgreSQL's ACCESS EXCLUSIVE lock would hold it.
 */
final class CheckConstraintCommand {
    private final SqlSession session;
    private final EngineServices services;
    private final UtilityCommands utility;

    CheckConstraintCommand(SqlSession session, EngineServices services, UtilityCommands utility) {
        this.session = session;
        this.services = services;
        this.utility = utility;
    }

    /** Whether {@code alter} adds or drops a constraint (then {@link #run} handles it). */
    static boolean handles(AlterTableStatement alter) {
        for (AlterTableAction action : alter.actions()) {
            if (action instanceof AlterTableAction.AddCheck || action instanceof AlterTableAction.DropConstraint
                    || action instanceof AlterTableAction.AddForeignKey) {
                return true;
            }
        }
        return false;
    }

    Result run(Table table, AlterTableStatement alter) {
        List<CheckConstraint> before = table.ownCheckConstraints();
        List<CheckConstraint> constraints = new ArrayList<>(before);
        List<Notice> notices = new ArrayList<>();
        List<AlterTableAction.AddCheck> added = new ArrayList<>();
        List<ForeignKey> droppedKeys = new ArrayList<>();
        List<AlterTableAction.AddForeignKey> addedKeys = new ArrayList<>();
        for (AlterTableAction action : alter.actions()) {
            switch (action) {
                case AlterTableAction.AddForeignKey add -> addedKeys.add(add);
                case AlterTableAction.AddCheck add -> {
                    if (table.parent() != null) {
                        throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                "CHECK constraints of one partition are not supported yet: add it to \"%s\"", table.parent().name());
                    }
                    constraints.addAll(utility.planChecks(table.name(), table.columns(), List.of(add.check()), constraints,
                            otherConstraintNames(table)));
                    added.add(add);
                }
                case AlterTableAction.DropConstraint drop -> {
                    int position = indexOf(constraints, drop.name());
                    if (position >= 0) {
                        constraints.remove(position);
                        continue;
                    }
                    ForeignKey key = foreignKey(table, drop.name());
                    if (key != null && !droppedKeys.contains(key)) {
                        droppedKeys.add(key);
                        continue;
                    }
                    if (table.parent() != null && indexOf(table.parent().checkConstraints(), drop.name()) >= 0) {
                        throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "cannot drop inherited constraint \"%s\" of relation \"%s\"",
                                drop.name(), table.name());
                    }
                    if (otherConstraintNames(table).contains(drop.name())) {
                        throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                "ALTER TABLE ... DROP CONSTRAINT of a PRIMARY KEY or UNIQUE constraint is not supported yet");
                    }
                    if (!drop.ifExists()) {
                        throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "constraint \"%s\" of relation \"%s\" does not exist",
                                drop.name(), table.name());
                    }
                    notices.add(new Notice(Notice.NOTICE, "constraint \"" + drop.name() + "\" of relation \"" + table.name()
                            + "\" does not exist, skipping", null, SqlState.UNDEFINED_OBJECT.code()));
                }
                default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "ALTER TABLE with both column and constraint actions is not supported yet");
            }
        }
        if (!addedKeys.isEmpty() && (!added.isEmpty() || !droppedKeys.isEmpty() || constraints.size() != before.size())) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "ALTER TABLE adding a foreign key with other constraint actions is not supported yet");
        }
        if (!addedKeys.isEmpty()) {
            // One at a time, each dropped again when the rows do not satisfy it; pg_dump adds one per statement.
            List<ForeignKey> declared = new ArrayList<>();
            try {
                for (AlterTableAction.AddForeignKey add : addedKeys) {
                    new ForeignKeyCommand(session, services).add(table, add.foreignKey());
                    declared.add(table.foreignKeys().getLast());
                }
            } catch (RuntimeException failure) {
                for (ForeignKey key : declared) {
                    session.catalog().dropForeignKey(key);
                }
                throw failure;
            }
            return CommandResult.withMessages("ALTER TABLE", notices);
        }
        for (ForeignKey key : droppedKeys) {
            session.catalog().dropForeignKey(key);
        }
        table.setCheckConstraints(constraints);
        session.catalog().touch();
        try {
            for (AlterTableAction.AddCheck add : added) {
                CheckConstraint constraint = constraints.get(constraints.size() - added.size() + added.indexOf(add));
                // PostgreSQL checks each partition and names the one holding the row.
                for (Table checked : table.isPartitioned() ? table.partitionRouter().partitions() : List.of(table)) {
                    if (violatedBySomeRow(checked, table, add.check().expressionText())) {
                        throw ParallaxException.of(SqlState.CHECK_VIOLATION,
                                "check constraint \"%s\" of relation \"%s\" is violated by some row", constraint.name(), checked.name());
                    }
                }
            }
        } catch (RuntimeException failure) {
            table.setCheckConstraints(before);
            session.catalog().touch();
            throw failure;
        }
        return CommandResult.withMessages("ALTER TABLE", notices);
    }

    /** Whether a row of {@code checked} (read as {@code table}, whose name the condition may use) makes the condition false. */
    private boolean violatedBySomeRow(Table checked, Table table, String expressionText) {
        // With its schema: a temporary table of the name must not stand in for a permanent one.
        String schema = session.catalog().isTemporary(checked) ? CatalogSchema.PG_TEMP : CatalogSchema.PUBLIC;
        String sql = "SELECT 1 FROM " + quoted(schema) + "." + quoted(checked.name()) + " AS " + quoted(table.name()) + " WHERE (" + expressionText
                + ") IS FALSE LIMIT 1";
        PlannedStatement planned = session.planFor(sql).statement();
        ExecutionContext context = session.newContext(null, false);
        try (Operator operator = services.open(planned.root(), context)) {
            return operator.next() != null;
        }
    }

    /** The foreign key of {@code table} named {@code name}, or null. */
    private static ForeignKey foreignKey(Table table, String name) {
        for (ForeignKey key : table.foreignKeys()) {
            if (key.name().equals(name)) {
                return key;
            }
        }
        return null;
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static int indexOf(List<CheckConstraint> constraints, String name) {
        for (int index = 0; index < constraints.size(); index++) {
            if (constraints.get(index).name().equals(name)) {
                return index;
            }
        }
        return -1;
    }

    /** The names of the table's PRIMARY KEY and UNIQUE constraints (not those of unique indexes, which are no constraints). */
    private static Set<String> otherConstraintNames(Table table) {
        Set<String> names = new HashSet<>();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            if (!constraint.indexOnly()) {
                names.add(constraint.name());
            }
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            if (!constraint.indexOnly()) {
                names.add(constraint.name());
            }
        }
        return names;
    }
}
