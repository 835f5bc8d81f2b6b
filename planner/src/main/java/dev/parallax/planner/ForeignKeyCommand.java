package dev.parallax.planner;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.KeyPairing;
import dev.parallax.engine.catalog.ReferentialAction;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.operator.ConstantValues;
import dev.parallax.engine.operator.dml.ForeignKeyValidation;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.planner.statement.ForeignKeyClause;
import dev.parallax.planner.statement.RelationName;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Declares FOREIGN KEY constraints (CREATE TABLE's, and ALTER TABLE ... ADD's with the rows the
 * table holds checked) with PostgreSQL 15's checks and names, and the constraint names a table uses.
 */
final class ForeignKeyCommand {
    private final SqlSession session;
    private final EngineServices services;

    ForeignKeyCommand(SqlSession session, EngineServices services) {
        this.session = session;
        this.services = services;
    }

    /**
     * The key {@code clause} declares on {@code referencing}, not yet in the catalog: the referenced
     * table is {@code referencing} itself when {@code clause} names it (CREATE TABLE of a
     * self-referencing table), else looked up in the session's catalog; {@code catalog} (the
     * table's own namespace) gives the key its object id. {@code takenNames} are the names
     * the table's constraints use; the key's name is added to them. {@code temporary}: whether
     * {@code referencing} is a temporary table.
     */
    ForeignKey declare(Catalog catalog, Table referencing, ForeignKeyClause clause, Set<String> takenNames, boolean temporary) {
        if (clause.name() != null && takenNames.contains(clause.name())) {
            throw ParallaxException.of(SqlState.DUPLICATE_OBJECT, "constraint \"%s\" for relation \"%s\" already exists",
                    clause.name(), referencing.name());
        }
        // The session's view: a temporary table of the name first.
        Catalog visible = session.catalog();
        Table referenced = referencesItself(clause.referencedTable(), referencing, temporary) ? referencing
                : clause.referencedTable().findTable(visible);
        if (referenced == null) {
            throw clause.referencedTable().notFound();
        }
        if (referenced.isSystemView()) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "referenced relation \"%s\" is not a table", referenced.name());
        }
        if (referencing.isPartitioned() || referencing.parent() != null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "foreign keys on partitioned tables and partitions are not supported yet (table \"%s\")", referencing.name());
        }
        if (referenced.isPartitioned() || referenced.parent() != null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "foreign keys referencing partitioned tables and partitions are not supported yet (table \"%s\")", referenced.name());
        }
        if (referenced != referencing && visible.isTemporary(referenced) != temporary) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, temporary
                    ? "constraints on temporary tables may reference only temporary tables"
                    : "constraints on permanent tables may reference only permanent tables");
        }
        int[] referencingColumns = columnPositions(referencing, clause.columnNames());
        int[] referencedColumns;
        if (clause.referencedColumnNames().isEmpty()) {
            UniqueConstraint primaryKey = null;
            for (UniqueConstraint constraint : referenced.uniqueConstraints()) {
                if (constraint.primaryKey()) {
                    primaryKey = constraint;
                }
            }
            if (primaryKey == null) {
                throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "there is no primary key for referenced table \"%s\"",
                        referenced.name());
            }
            referencedColumns = primaryKey.keyColumns();
        } else {
            referencedColumns = columnPositions(referenced, clause.referencedColumnNames());
        }
        if (referencingColumns.length != referencedColumns.length) {
            throw ParallaxException.of(SqlState.INVALID_FOREIGN_KEY, "number of referencing and referenced columns for foreign key disagree");
        }
        if (ForeignKey.keyOver(referenced, referencedColumns) == null || hasRepeats(referencedColumns)) {
            throw ParallaxException.of(SqlState.INVALID_FOREIGN_KEY, "there is no unique constraint matching given keys for referenced table \"%s\"",
                    referenced.name());
        }
        String name = clause.name() != null ? clause.name() : defaultName(referencing.name(), clause.columnNames(), takenNames);
        for (int index = 0; index < referencingColumns.length; index++) {
            checkTypes(name, referencing.columns().get(referencingColumns[index]), referenced.columns().get(referencedColumns[index]));
        }
        takenNames.add(name);
        ForeignKey key = new ForeignKey(name, catalog.allocateObjectId(), referencing, referencingColumns, referenced, referencedColumns,
                clause.onDelete(), clause.onUpdate(), clause.matchFull());
        if (clause.onDelete() == ReferentialAction.SET_DEFAULT || clause.onUpdate() == ReferentialAction.SET_DEFAULT) {
            key = key.withDefaultValues(defaultValues(referencing, referencingColumns));
        }
        return key;
    }

    /**
     * ALTER TABLE ... ADD FOREIGN KEY: the key applies to the statements that start after it is
     * added, then the rows the table holds are checked under the key's lock (held exclusively, so
     * no statement writes either side meanwhile); on a violation the key is dropped again.
     */
    void add(Table table, ForeignKeyClause clause) {
        Catalog catalog = session.catalog();
        ForeignKey key = declare(catalog, table, clause, constraintNames(table), catalog.isTemporary(table));
        catalog.addForeignKey(key);
        key.lock().writeLock().lock();
        try {
            ExecutionContext context = session.newContext(null, false);
            try {
                ForeignKeyValidation.requireReferencedKeys(key, context::checkCancelled);
            } finally {
                session.running().finish(context);
            }
        } catch (RuntimeException failure) {
            catalog.dropForeignKey(key);
            throw failure;
        } finally {
            key.lock().writeLock().unlock();
        }
    }

    /** The names of {@code table}'s constraints: keys, CHECK and FOREIGN KEY constraints. */
    static Set<String> constraintNames(Table table) {
        Set<String> names = new HashSet<>();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            if (!constraint.indexOnly()) {
                names.add(constraint.name());
            }
        }
        for (CheckConstraint constraint : table.checkConstraints()) {
            names.add(constraint.name());
        }
        for (ForeignKey key : table.foreignKeys()) {
            names.add(key.name());
        }
        return names;
    }

    /** PostgreSQL's default name: {@code table_col1_col2_fkey}, a number appended while the name is taken. */
    private static String defaultName(String tableName, List<String> columns, Set<String> taken) {
        String base = tableName + "_" + String.join("_", columns) + "_fkey";
        String name = base;
        for (int suffix = 1; taken.contains(name); suffix++) {
            name = base + suffix;
        }
        return name;
    }

    private static int[] columnPositions(Table table, List<String> names) {
        int[] positions = new int[names.size()];
        Set<String> seen = new HashSet<>();
        for (int index = 0; index < positions.length; index++) {
            positions[index] = table.columnIndex(names.get(index));
            if (positions[index] < 0) {
                throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" referenced in foreign key constraint does not exist",
                        names.get(index));
            }
            if (!seen.add(names.get(index))) {
                throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "foreign key referenced-columns list must not contain duplicates");
            }
        }
        return positions;
    }

    private static boolean hasRepeats(int[] columns) {
        Set<Integer> seen = new HashSet<>();
        for (int column : columns) {
            if (!seen.add(column)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code name} names {@code referencing} itself, which CREATE TABLE has not cataloged
     * yet: its name, unqualified or in the schema the table is made in ({@code temporary}: pg_temp).
     */
    private static boolean referencesItself(RelationName name, Table referencing, boolean temporary) {
        if (!name.name().equals(referencing.name())) {
            return false;
        }
        return switch (name.schema()) {
            case SEARCH_PATH -> true;
            case PUBLIC -> !temporary;
            case TEMPORARY -> temporary;
        };
    }

    /**
     * Whether a key may pair {@code referencing} with {@code referenced}: as PostgreSQL 15 decides
     * ({@link KeyPairing}), its 42804 with the DETAIL naming both types without modifiers; pairs
     * PostgreSQL accepts that Parallax cannot compare yet are 0A000.
     */
    private static void checkTypes(String name, ColumnDefinition referencing, ColumnDefinition referenced) {
        DataType one = referencing.type();
        DataType other = referenced.type();
        switch (KeyPairing.of(one, other)) {
            case SAME, CONVERTED -> {
            }
            case NOT_SUPPORTED -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "foreign key constraint \"%s\" over columns of types %s and %s is not supported yet", name, one.sqlName(), other.sqlName());
            case INCOMPATIBLE -> throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "foreign key constraint \"%s\" cannot be implemented", name)
                    .withDetail("Key columns \"" + referencing.name() + "\" and \"" + referenced.name() + "\" are of incompatible types: "
                            + one.nameWithoutModifier() + " and " + other.nameWithoutModifier() + ".");
        }
    }

    /**
     * The values SET DEFAULT stores: each referencing column's default, evaluated now (a constant
     * expression); a default that must be evaluated per row (nextval, now()) is 0A000, and a column
     * without one stores NULL, as PostgreSQL's.
     */
    private Object[] defaultValues(Table table, int[] columns) {
        Object[] values = new Object[columns.length];
        for (int index = 0; index < columns.length; index++) {
            ColumnDefinition column = table.columns().get(columns[index]);
            if (column.defaultValue() == null) {
                continue;
            }
            String text = column.defaultValue().expressionText();
            if (column.defaultValue().identity() != null && column.defaultValue().identity() != dev.parallax.engine.catalog.ColumnDefault.Identity.NONE
                    || text.matches("(?is).*\\b(nextval|now|random|clock_timestamp|current_timestamp|current_date|localtimestamp|gen_random_uuid)\\b.*")) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                        "SET DEFAULT over column \"%s\", whose default is not a constant, is not supported yet", column.name());
            }
            String sql = "SELECT CAST((" + text + ") AS " + column.type().sqlName() + ")";
            PlannedStatement planned = session.planFor(sql).statement();
            ExecutionContext context = session.newContext(null, false);
            try (Operator operator = services.open(planned.root(), context)) {
                Batch batch = operator.next();
                values[index] = ConstantValues.read(batch.column(0), batch.position(0));
            } finally {
                session.running().finish(context);
            }
        }
        return values;
    }
}
