package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.operator.dml.AlteredTableCopy;
import dev.parallax.engine.partition.PartitionKey;
import dev.parallax.engine.partition.PartitionedTableStorage;
import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.storage.ExclusiveAccess;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.statement.AlterTableAction;
import dev.parallax.planner.statement.AlterTableStatement;
import dev.parallax.planner.statement.CreateIndexStatement;
import dev.parallax.planner.statement.IdentityClause;
import dev.parallax.planner.statement.TableConstraint;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ALTER TABLE's column actions ({@link AlterTableStatement}), checked one after the other against
 * the columns the earlier ones left, with PostgreSQL's errors and notices, then applied all at once
 * or not at all. Defaults and DROP NOT NULL change the definition in place. ADD COLUMN, DROP COLUMN
 * and SET NOT NULL rewrite the table: a replacement is built (its partitions, keys and indexes too,
 * those on a dropped column left out as PostgreSQL drops them), the rows are copied into it while
 * the table is held as by ACCESS EXCLUSIVE ({@link ExclusiveAccess}: scans finish first, writers
 * wait), and the catalog swaps it in ({@link Catalog#replaceTable}). The old storage is closed in
 * the same step, so a statement planned before fails with 40001 instead of writing where nobody
 * reads; plans cached before are re-planned (the catalog version moved). PostgreSQL 11+ keeps a
 * constant default in the catalog instead of rewriting; the rows read the same either way, and a
 * volatile default gets a value per row as in PostgreSQL.
 */
final class AlterTableCommand {
    private final SqlSession session;
    private final EngineServices services;
    private final UtilityCommands utility;

    AlterTableCommand(SqlSession session, EngineServices services, UtilityCommands utility) {
        this.session = session;
        this.services = services;
        this.utility = utility;
    }

    /** A column of the altered table: its definition and where its values come from (an old column, or -1: added). */
    private record NewColumn(ColumnDefinition definition, int source, IdentityClause identity) {
        NewColumn with(ColumnDefinition changed) {
            return new NewColumn(changed, source, identity);
        }
    }

    Result run(AlterTableStatement alter) {
        Catalog catalog = session.catalog();
        Table table = alter.tableName().findTable(catalog);
        if (table == null) {
            String name = alter.tableName().name();
            if (alter.tableName().namespace(catalog).findView(name) != null) {
                throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a table", name);
            }
            if (alter.ifExists()) {
                return new CommandResult("ALTER TABLE", 0, List.of("relation \"" + name + "\" does not exist, skipping"));
            }
            throw alter.tableName().notFound();
        }
        if (table.isSystemView()) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a table", table.name());
        }
        if (CheckConstraintCommand.handles(alter)) {
            return new CheckConstraintCommand(session, services, utility).run(table, alter);
        }
        List<NewColumn> columns = new ArrayList<>();
        for (int column = 0; column < table.columns().size(); column++) {
            columns.add(new NewColumn(table.columns().get(column), column, null));
        }
        List<TableConstraint> addedConstraints = new ArrayList<>();
        List<View> cascaded = new ArrayList<>();
        List<Notice> notices = new ArrayList<>();
        List<String> droppedColumns = new ArrayList<>();
        boolean rewrite = false;
        Settings settings = session.settings();
        for (AlterTableAction action : alter.actions()) {
            switch (action) {
                case AlterTableAction.AddColumn add -> {
                    if (table.parent() != null) {
                        throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "cannot add column to a partition");
                    }
                    if (table.isPartitioned() && alter.only()) {
                        throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "column must be added to child tables too");
                    }
                    String name = add.column().name();
                    if (position(columns, name) >= 0) {
                        if (add.ifNotExists()) {
                            notices.add(new Notice(Notice.NOTICE, "column \"" + name + "\" of relation \"" + table.name()
                                    + "\" already exists, skipping", null, SqlState.DUPLICATE_COLUMN.code()));
                            continue;
                        }
                        throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" of relation \"%s\" already exists", name, table.name());
                    }
                    ColumnDefinition definition = add.column();
                    if (add.defaultExpression() != null) {
                        definition = definition.withDefault(services.planColumnDefault(add.defaultExpression(), definition, settings));
                    }
                    if (!add.constraints().isEmpty() && table.isPartitioned()) {
                        TableConstraint key = add.constraints().getFirst();
                        String keyColumn = table.columns().get(table.partitionKey().columns()[0]).name();
                        throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                        "unique constraint on partitioned table must include all partitioning columns")
                                .withDetail((key.primaryKey() ? "PRIMARY KEY" : "UNIQUE") + " constraint on table \"" + table.name()
                                        + "\" lacks column \"" + keyColumn + "\" which is part of the partition key.");
                    }
                    for (TableConstraint constraint : add.constraints()) {
                        if (constraint.primaryKey() && hasPrimaryKey(table)) {
                            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION,
                                    "multiple primary keys for table \"%s\" are not allowed", table.name());
                        }
                        addedConstraints.add(constraint);
                    }
                    columns.add(new NewColumn(definition, -1, add.identity()));
                    rewrite = true;
                }
                case AlterTableAction.DropColumn drop -> {
                    int position = position(columns, drop.columnName());
                    if (position < 0) {
                        if (drop.ifExists()) {
                            notices.add(new Notice(Notice.NOTICE, "column \"" + drop.columnName() + "\" of relation \"" + table.name()
                                    + "\" does not exist, skipping", null, SqlState.SUCCESSFUL_COMPLETION.code()));
                            continue;
                        }
                        throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                                drop.columnName(), table.name());
                    }
                    if (table.parent() != null) {
                        throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "cannot drop inherited column \"%s\"", drop.columnName());
                    }
                    int source = columns.get(position).source();
                    if (table.isPartitioned() && source >= 0) {
                        for (int keyColumn : table.partitionKey().columns()) {
                            if (keyColumn == source) {
                                throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION,
                                        "cannot drop column \"%s\" because it is part of the partition key of relation \"%s\"",
                                        drop.columnName(), table.name());
                            }
                        }
                    }
                    if (table.isPartitioned() && alter.only()) {
                        throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION,
                                "cannot drop column from only the partitioned table when partitions exist", null,
                                "Do not specify the ONLY keyword.", 0, null);
                    }
                    if (source >= 0) {
                        cascaded.addAll(dependentViews(table, drop, cascaded));
                        notices.addAll(dependentForeignKeys(table, drop, source));
                    }
                    if (source >= 0) {
                        droppedColumns.add(drop.columnName());
                    }
                    columns.remove(position);
                    String dropped = drop.columnName();
                    addedConstraints.removeIf(constraint -> constraint.columnNames().contains(dropped));
                    rewrite = true;
                }
                case AlterTableAction.SetDefault set -> {
                    int position = existing(columns, set.columnName(), table);
                    NewColumn column = columns.get(position);
                    ColumnDefault value = set.expressionText() == null ? null
                            : services.planColumnDefault(set.expressionText(), column.definition(), settings);
                    columns.set(position, column.with(column.definition().withDefault(value)));
                }
                case AlterTableAction.AddIdentity add -> {
                    int position = existing(columns, add.columnName(), table);
                    NewColumn column = columns.get(position);
                    ColumnDefinition definition = column.definition();
                    TypeKind type = definition.type().kind();
                    if (type != TypeKind.SMALLINT && type != TypeKind.INTEGER && type != TypeKind.BIGINT) {
                        throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
                    }
                    if (!definition.notNull()) {
                        throw ParallaxException.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                                "column \"%s\" of relation \"%s\" must be declared NOT NULL before identity can be added",
                                definition.name(), table.name());
                    }
                    if (column.identity() != null || definition.defaultValue() != null) {
                        boolean identity = column.identity() != null && column.identity().kind() != ColumnDefault.Identity.NONE
                                || definition.defaultValue() != null && definition.defaultValue().identity() != ColumnDefault.Identity.NONE;
                        throw ParallaxException.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, identity
                                ? "column \"%s\" of relation \"%s\" is already an identity column"
                                : "column \"%s\" of relation \"%s\" already has a default value", definition.name(), table.name());
                    }
                    columns.set(position, new NewColumn(definition, column.source(), add.identity()));
                }
                case AlterTableAction.SetNotNull set -> {
                    int position = existing(columns, set.columnName(), table);
                    NewColumn column = columns.get(position);
                    ColumnDefinition definition = column.definition();
                    if (set.notNull() == definition.notNull()) {
                        continue;
                    }
                    if (table.parent() != null) {
                        if (!set.notNull() && table.parent().columns().get(column.source()).notNull()) {
                            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "column \"%s\" is marked NOT NULL in parent table",
                                    set.columnName());
                        }
                        if (set.notNull()) {
                            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                    "ALTER TABLE ... SET NOT NULL on a partition is not supported: alter the partitioned table \"%s\"",
                                    table.parent().name());
                        }
                    }
                    if (!set.notNull() && column.source() >= 0 && inPrimaryKey(table, column.source())) {
                        throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "column \"%s\" is in a primary key", set.columnName());
                    }
                    columns.set(position, column.with(new ColumnDefinition(definition.name(), definition.type(), set.notNull(),
                            definition.defaultValue())));
                    rewrite |= set.notNull();
                }
                case AlterTableAction.AddKey add -> {
                    TableConstraint key = add.constraint();
                    if (table.parent() != null || table.isPartitioned()) {
                        throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                "ALTER TABLE ... ADD %s of a partitioned table or a partition is not supported yet",
                                key.primaryKey() ? "PRIMARY KEY" : "UNIQUE");
                    }
                    for (String name : key.columnNames()) {
                        existing(columns, name, table);
                    }
                    if (key.primaryKey()) {
                        if (hasPrimaryKey(table) || addedConstraints.stream().anyMatch(TableConstraint::primaryKey)) {
                            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION,
                                    "multiple primary keys for table \"%s\" are not allowed", table.name());
                        }
                        // As PostgreSQL, the key's columns become NOT NULL; the rewrite refuses NULLs held (23502).
                        for (String name : key.columnNames()) {
                            int position = position(columns, name);
                            NewColumn column = columns.get(position);
                            ColumnDefinition definition = column.definition();
                            if (!definition.notNull()) {
                                columns.set(position, column.with(new ColumnDefinition(definition.name(), definition.type(), true,
                                        definition.defaultValue())));
                            }
                        }
                    }
                    addedConstraints.add(key);
                    rewrite = true;
                }
                case AlterTableAction.AddCheck add -> throw new IllegalStateException("constraint actions run in CheckConstraintCommand");
                case AlterTableAction.DropConstraint drop -> throw new IllegalStateException("constraint actions run in CheckConstraintCommand");
                case AlterTableAction.AddForeignKey add -> throw new IllegalStateException("constraint actions run in CheckConstraintCommand");
            }
        }
        if (rewrite) {
            rewrite(table, columns, addedConstraints, null);
            // A dropped column's comment goes with it (one added later under its name has none).
            long oid = catalog.relationOid(table.name());
            for (String dropped : droppedColumns) {
                catalog.setComment(oid, dropped, null);
            }
            List<String> dropped = new ArrayList<>();
            for (View view : cascaded) {
                catalog.dropView(view.name());
                dropped.add("drop cascades to view " + view.name());
            }
            if (dropped.size() == 1) {
                notices.add(new Notice(Notice.NOTICE, dropped.getFirst(), null, SqlState.SUCCESSFUL_COMPLETION.code()));
            } else if (!dropped.isEmpty()) {
                notices.add(new Notice(Notice.NOTICE, "drop cascades to " + dropped.size() + " other objects", String.join("\n", dropped),
                        SqlState.SUCCESSFUL_COMPLETION.code()));
            }
        } else {
            changeInPlace(table, columns, alter.only());
        }
        return CommandResult.withMessages("ALTER TABLE", notices);
    }

    /**
     * The views using the dropped column ({@link ViewColumnUses}) not yet in {@code already}: with
     * CASCADE they go with it, else PostgreSQL's 2BP01 names them.
     */
    private List<View> dependentViews(Table table, AlterTableAction.DropColumn drop, List<View> already) {
        if (session.catalog().isTemporary(table)) {
            // No view reads a temporary table; those naming a permanent one it hides read that one.
            return List.of();
        }
        Set<String> tableNames = new HashSet<>();
        for (Table each : table.withPartitions()) {
            tableNames.add(each.name());
        }
        List<View> using = new ArrayList<>(ViewColumnUses.viewsUsing(session.catalog(), tableNames, drop.columnName()));
        using.removeAll(already);
        if (using.isEmpty() || drop.cascade()) {
            return using;
        }
        List<String> lines = new ArrayList<>();
        for (View view : using) {
            lines.add("view " + view.name() + " depends on column " + drop.columnName() + " of table " + table.name());
        }
        throw new ParallaxException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column " + drop.columnName() + " of table "
                + table.name() + " because other objects depend on it", String.join("\n", lines),
                "Use DROP ... CASCADE to drop the dependent objects too.", 0, null);
    }

    /**
     * Defaults, identities added to columns and DROP NOT NULL: the definitions change where they are,
     * on the partitions too (defaults: unless ONLY). An identity's sequence is made first.
     */
    private void changeInPlace(Table table, List<NewColumn> columns, boolean only) {
        Map<String, IdentityClause> identities = new LinkedHashMap<>();
        List<ColumnDefinition> definitions = new ArrayList<>(columns.size());
        for (NewColumn column : columns) {
            definitions.add(column.definition());
            if (column.identity() != null) {
                identities.put(column.definition().name(), column.identity());
            }
        }
        if (!identities.isEmpty()) {
            List<Sequence> created = new ArrayList<>();
            Catalog namespace = utility.namespaceOf(table);
            try {
                definitions = utility.withIdentities(namespace, table.name(), definitions, identities, created);
            } catch (RuntimeException failure) {
                for (Sequence sequence : created) {
                    namespace.dropSequence(sequence.name());
                }
                throw failure;
            }
            for (int column = 0; column < columns.size(); column++) {
                columns.set(column, columns.get(column).with(definitions.get(column)));
            }
        }
        List<Table> changed = table.withPartitions();
        for (int column = 0; column < columns.size(); column++) {
            ColumnDefinition before = table.columns().get(column);
            ColumnDefinition after = columns.get(column).definition();
            for (Table each : changed) {
                boolean partition = each != table;
                if (!java.util.Objects.equals(before.defaultValue(), after.defaultValue()) && !(partition && only)) {
                    each.setColumnDefault(column, after.defaultValue());
                }
                if (before.notNull() && !after.notNull()) {
                    each.dropColumnNotNull(column);
                }
            }
        }
        session.catalog().touch();
    }

    private static int position(List<NewColumn> columns, String name) {
        for (int index = 0; index < columns.size(); index++) {
            if (columns.get(index).definition().name().equals(name)) {
                return index;
            }
        }
        return -1;
    }

    /** The position of column {@code name}; 42703 when there is none. */
    private static int existing(List<NewColumn> columns, String name, Table table) {
        int position = position(columns, name);
        if (position < 0) {
            throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name, table.name());
        }
        return position;
    }

    private static boolean hasPrimaryKey(Table table) {
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            if (constraint.primaryKey()) {
                return true;
            }
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            if (constraint.primaryKey()) {
                return true;
            }
        }
        return false;
    }

    private static boolean inPrimaryKey(Table table, int column) {
        String name = table.columns().get(column).name();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            if (constraint.primaryKey() && constraint.index().definition().columnNames().contains(name)) {
                return true;
            }
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            if (constraint.primaryKey() && constraint.columnNames().contains(name)) {
                return true;
            }
        }
        return false;
    }

    // ---- CREATE UNIQUE INDEX and DROP INDEX of one ----

    /**
     * CREATE UNIQUE INDEX {@code name} (checked to be free) on {@code table}: a unique index on
     * Chronicle Map as a UNIQUE constraint's, but without the constraint (PostgreSQL lists none in
     * pg_constraint). The rows fill it through the rewrite, which holds the table as ALTER TABLE does
     * (writers wait, so none can slip a duplicate past the build, and a write planned before fails
     * with 40001 and is planned again) and leaves the table as it was when a key is duplicated (23505
     * {@code could not create unique index}). A partitioned table's index is one index shared by its
     * partitions, as its UNIQUE constraints are; it must hold the partition key (PostgreSQL's 0A000).
     * PostgreSQL builds the index beside the table under a SHARE lock, so readers go on meanwhile;
     * here scans wait for the rewrite too.
     */
    Result addUniqueIndex(Table table, String name, CreateIndexStatement create) {
        if (table.isSystemView()) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "cannot create index on relation \"%s\"", table.name())
                    .withDetail("This operation is not supported for views.");
        }
        if (table.parent() != null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "CREATE UNIQUE INDEX on a partition is not supported: create it on the partitioned table \"%s\"", table.parent().name());
        }
        if (table.isPartitioned()) {
            if (create.only()) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "CREATE UNIQUE INDEX ON ONLY a partitioned table is not supported");
            }
            for (int keyColumn : table.partitionKey().columns()) {
                String column = table.columns().get(keyColumn).name();
                if (!create.columnNames().contains(column)) {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                                    "unique constraint on partitioned table must include all partitioning columns")
                            .withDetail("UNIQUE constraint on table \"" + table.name() + "\" lacks column \"" + column
                                    + "\" which is part of the partition key.");
                }
            }
        }
        Set<String> distinct = new HashSet<>(create.columnNames());
        if (distinct.size() != create.columnNames().size()) {
            // PostgreSQL accepts a column twice in an index; a key of Parallax names each column once.
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "a unique index naming a column twice is not supported");
        }
        try {
            rewrite(table, unchangedColumns(table), List.of(new TableConstraint(name, false, create.columnNames(), true)), null);
        } catch (ParallaxException failure) {
            if (failure.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                // Another session took the name while we built.
                return CommandResult.withMessages("CREATE INDEX", List.of(new Notice(Notice.NOTICE,
                        "relation \"" + name + "\" already exists, skipping", null, SqlState.DUPLICATE_TABLE.code())));
            }
            throw failure;
        }
        return new CommandResult("CREATE INDEX");
    }

    /**
     * DROP INDEX of the unique index {@code name} that CREATE UNIQUE INDEX made on {@code table}
     * (the caller checked it is one): the table is rewritten without it, as ALTER TABLE rewrites,
     * so a writer planned before fails (40001) and plans again instead of writing to a closed
     * index; the index's memory is freed with the old table's.
     */
    void dropUniqueIndex(Table table, String name) {
        rewrite(table, unchangedColumns(table), List.of(), name);
    }

    private static List<NewColumn> unchangedColumns(Table table) {
        List<NewColumn> columns = new ArrayList<>();
        for (int column = 0; column < table.columns().size(); column++) {
            columns.add(new NewColumn(table.columns().get(column), column, null));
        }
        return columns;
    }

    /**
     * The foreign keys of other tables that reference the dropped column: 2BP01 as PostgreSQL's,
     * or with CASCADE a NOTICE each (the rewrite drops them; a key of the table's own on the
     * column goes without a word, as in PostgreSQL).
     */
    private static List<Notice> dependentForeignKeys(Table table, AlterTableAction.DropColumn drop, int column) {
        List<Notice> notices = new ArrayList<>();
        for (ForeignKey key : table.referencedBy()) {
            if (key.referencing() == table || !key.isReferencedColumn(column)) {
                continue;
            }
            String detail = "constraint " + key.name() + " on table " + key.referencing().name() + " depends on column "
                    + drop.columnName() + " of table " + table.name();
            if (!drop.cascade()) {
                throw new ParallaxException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop column " + drop.columnName()
                        + " of table " + table.name() + " because other objects depend on it", detail,
                        "Use DROP ... CASCADE to drop the dependent objects too.", 0, null);
            }
            notices.add(new Notice(Notice.NOTICE, "drop cascades to constraint " + key.name() + " on table " + key.referencing().name(),
                    null));
        }
        return notices;
    }

    // ---- the rewrite ----

    /**
     * Rewrites {@code table} with {@code columns}, its keys that survive them but
     * {@code droppedKey} (a unique index's name, or null) and then {@code addedConstraints}.
     */
    private void rewrite(Table table, List<NewColumn> columns, List<TableConstraint> addedConstraints, String droppedKey) {
        Catalog catalog = session.catalog();
        List<Sequence> created = new ArrayList<>();
        Table replacement = null;
        List<OrderedIndex> indexes = new ArrayList<>();
        ExecutionContext context = session.newContext(null, false);
        boolean[] swapped = new boolean[1];
        try {
            List<ColumnDefinition> definitions = new ArrayList<>();
            Map<String, IdentityClause> identities = new LinkedHashMap<>();
            int[] sources = new int[columns.size()];
            for (int column = 0; column < sources.length; column++) {
                NewColumn each = columns.get(column);
                definitions.add(each.definition());
                sources[column] = each.source();
                if (each.identity() != null) {
                    identities.put(each.definition().name(), each.identity());
                }
            }
            if (!identities.isEmpty()) {
                definitions = utility.withIdentities(utility.namespaceOf(table), table.name(), definitions, identities, created);
            }
            if (definitions.isEmpty()) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "a table without columns is not supported");
            }
            replacement = table.isPartitioned() ? partitionedReplacement(table, definitions, sources, addedConstraints, droppedKey)
                    : plainReplacement(table, definitions, sources, addedConstraints, droppedKey);
            List<ColumnDefinition> added = new ArrayList<>();
            for (int column = 0; column < sources.length; column++) {
                if (sources[column] < 0) {
                    added.add(definitions.get(column));
                }
            }
            List<PagedTableStorage> storages = new ArrayList<>();
            for (Table source : table.withPartitions()) {
                if (!source.isPartitioned()) {
                    if (!(source.storage() instanceof PagedTableStorage paged)) {
                        throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a table", table.name());
                    }
                    storages.add(paged);
                }
            }
            Table built = replacement;
            ExclusiveAccess.run(storages, context::checkCancelled, () -> {
                long rows = 0;
                for (PagedTableStorage storage : storages) {
                    rows += storage.rowCount();
                }
                try (AddedColumnDefaults values = new AddedColumnDefaults(session, services, added, rows, context)) {
                    AlteredTableCopy.copy(table, built, sources, values, context);
                }
                indexes.addAll(rebuildIndexes(table, built, sources, context));
                catalog.replaceTable(table, built, indexes);
                session.temporaryTables().replaced(table, built);
                swapped[0] = true;
                // Writers waiting for these storages' locks now fail (40001) instead of writing to a table nobody reads.
                for (PagedTableStorage storage : storages) {
                    storage.close();
                }
            });
        } catch (RuntimeException failure) {
            if (!swapped[0]) {
                for (OrderedIndex index : indexes) {
                    index.close();
                }
                if (replacement != null) {
                    free(replacement);
                }
                for (Sequence sequence : created) {
                    catalog.dropSequence(sequence.name());
                }
            }
            throw asBuildError(OperatorResult.asParallaxException(failure));
        } finally {
            session.running().finish(context);
        }
        for (Table old : table.withPartitions()) {
            for (OrderedIndex index : old.indexes()) {
                index.close();
            }
        }
        // The parent first: once its table-wide indexes are closed, its partitions have no keys to take out of them.
        for (Table old : table.withPartitions()) {
            old.closeUniqueConstraints();
        }
        // A serial column's sequence goes with the column, as in PostgreSQL.
        Set<String> kept = new HashSet<>();
        for (NewColumn column : columns) {
            kept.add(column.definition().name());
        }
        for (Sequence sequence : catalog.sequences()) {
            if (table.name().equals(sequence.ownerTable()) && !kept.contains(sequence.ownerColumn())) {
                catalog.dropSequence(sequence.name());
            }
        }
    }

    /**
     * A duplicate met while the rows fill a key added with its column is PostgreSQL's index build
     * error: {@code could not create unique index "t_u_key"}, {@code Key (u)=(1) is duplicated.}
     */
    private static ParallaxException asBuildError(ParallaxException failure) {
        String prefix = "duplicate key value violates unique constraint ";
        if (failure.state() != SqlState.UNIQUE_VIOLATION || failure.getMessage() == null || !failure.getMessage().startsWith(prefix)) {
            return failure;
        }
        String detail = failure.detail() == null ? null : failure.detail().replace(" already exists.", " is duplicated.");
        return ParallaxException.of(SqlState.UNIQUE_VIOLATION, "could not create unique index %s",
                failure.getMessage().substring(prefix.length())).withDetail(detail);
    }

    /** Frees a replacement that did not make it into the catalog: its keys' indexes and its storages. */
    private static void free(Table replacement) {
        for (Table each : replacement.withPartitions()) {
            each.closeUniqueConstraints();
            each.storage().close();
        }
    }

    /** The old key's column names when none of its columns was dropped, else null (the key goes with the column). */
    private static List<String> keptKey(List<String> keyColumns, Table table, int[] sources) {
        for (String name : keyColumns) {
            int old = table.columnIndex(name);
            boolean kept = false;
            for (int source : sources) {
                kept |= source == old;
            }
            if (!kept) {
                return null;
            }
        }
        return keyColumns;
    }

    /**
     * The CHECK constraints of {@code table} over the new columns ({@code sources}: per new column
     * its old position, or -1): those reading a dropped column go with it, as PostgreSQL drops them.
     */
    private static List<CheckConstraint> keptChecks(Table table, int[] sources) {
        int[] newPositions = new int[table.columns().size()];
        java.util.Arrays.fill(newPositions, -1);
        for (int column = 0; column < sources.length; column++) {
            if (sources[column] >= 0) {
                newPositions[sources[column]] = column;
            }
        }
        List<CheckConstraint> kept = new ArrayList<>();
        for (CheckConstraint constraint : table.ownCheckConstraints()) {
            CheckConstraint moved = constraint.renumbered(newPositions);
            if (moved != null) {
                kept.add(moved);
            }
        }
        return kept;
    }

    /** The constraints and unique indexes of {@code table} that survive (all but {@code droppedKey}), with their names. */
    private static List<TableConstraint> keptConstraints(Table table, int[] sources, String droppedKey) {
        List<TableConstraint> kept = new ArrayList<>();
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            List<String> key = keptKey(constraint.index().definition().columnNames(), table, sources);
            if (key != null && !constraint.name().equals(droppedKey)) {
                kept.add(new TableConstraint(constraint.name(), constraint.primaryKey(), key, constraint.indexOnly()));
            }
        }
        return kept;
    }

    private Table plainReplacement(Table table, List<ColumnDefinition> definitions, int[] sources, List<TableConstraint> added,
                                   String droppedKey) {
        TableStorage storage = services.createStorage(definitions.stream().map(ColumnDefinition::type).toList());
        Table replacement = new Table(table.name(), definitions, storage);
        replacement.setStorageParameters(table.storageParameters());
        replacement.setCheckConstraints(keptChecks(table, sources));
        List<TableConstraint> constraints = keptConstraints(table, sources, droppedKey);
        constraints.addAll(added);
        long entries = Math.max(IndexDefinition.DEFAULT_INITIAL_ENTRIES, table.storage().rowCount());
        try {
            utility.addUniqueConstraints(utility.namespaceOf(table), replacement, constraints, entries, null);
        } catch (RuntimeException failure) {
            free(replacement);
            throw failure;
        }
        return replacement;
    }

    /**
     * A partitioned table's replacement: the same partition key (by column name), the surviving
     * table-wide keys (all but {@code droppedKey}) with fresh indexes, then {@code added} (a unique
     * index's, which include the partition key), and one partition per old partition (name, bound,
     * options, the shares of the kept keys under their old names, of the added ones under
     * PostgreSQL's names for a partition's).
     */
    private Table partitionedReplacement(Table table, List<ColumnDefinition> definitions, int[] sources, List<TableConstraint> added,
                                         String droppedKey) {
        int[] oldKey = table.partitionKey().columns();
        int[] newKey = new int[oldKey.length];
        for (int key = 0; key < oldKey.length; key++) {
            newKey[key] = newPosition(sources, oldKey[key]);
        }
        Table parent = Table.partitioned(table.name(), definitions, new PartitionKey(newKey));
        parent.setStorageParameters(table.storageParameters());
        parent.setCheckConstraints(keptChecks(table, sources));
        List<Integer> keptPositions = new ArrayList<>();
        List<UniqueIndex> tableIndexes = new ArrayList<>();
        try {
            List<PartitionedConstraint> old = table.partitionedConstraints();
            for (int position = 0; position < old.size(); position++) {
                PartitionedConstraint constraint = old.get(position);
                if (keptKey(constraint.columnNames(), table, sources) == null || constraint.name().equals(droppedKey)) {
                    continue;
                }
                tableIndexes.add(addTableIndex(parent, table, definitions, sources,
                        new TableConstraint(constraint.name(), constraint.primaryKey(), constraint.columnNames(), constraint.indexOnly())));
                keptPositions.add(position);
            }
            for (TableConstraint constraint : added) {
                tableIndexes.add(addTableIndex(parent, table, definitions, sources, constraint));
            }
            PartitionedTableStorage parentStorage = (PartitionedTableStorage) parent.storage();
            PagedTableStorage sibling = null;
            for (Table partition : table.partitionRouter().partitions()) {
                TableStorage storage = sibling != null ? sibling.emptySibling()
                        : services.createStorage(definitions.stream().map(ColumnDefinition::type).toList());
                if (storage instanceof PagedTableStorage paged) {
                    sibling = paged;
                }
                Table copy = new Table(partition.name(), definitions, storage);
                copy.setCheckConstraints(keptChecks(partition, sources));
                copy.setStorageParameters(partition.storageParameters());
                copy.setPartitionOf(parent, partition.partitionBound());
                List<TableConstraint> constraints = new ArrayList<>();
                for (int position : keptPositions) {
                    UniqueConstraint share = partition.uniqueConstraints().get(position);
                    constraints.add(new TableConstraint(share.name(), share.primaryKey(), share.index().definition().columnNames(),
                            share.indexOnly()));
                }
                for (TableConstraint constraint : added) {
                    constraints.add(new TableConstraint(null, constraint.primaryKey(), constraint.columnNames(), constraint.indexOnly()));
                }
                try {
                    utility.addUniqueConstraints(utility.namespaceOf(partition), copy, constraints, IndexDefinition.DEFAULT_INITIAL_ENTRIES,
                            tableIndexes);
                } catch (RuntimeException failure) {
                    copy.closeUniqueConstraints();
                    storage.close();
                    throw failure;
                }
                parentStorage.setRouter(parentStorage.router().with(copy));
            }
        } catch (RuntimeException failure) {
            free(parent);
            throw failure;
        }
        return parent;
    }

    /** Makes the table-wide index of {@code constraint} (named) on {@code parent}, the replacement of {@code table}; returns it. */
    private UniqueIndex addTableIndex(Table parent, Table table, List<ColumnDefinition> definitions, int[] sources, TableConstraint constraint) {
        List<DataType> keyTypes = new ArrayList<>();
        for (String column : constraint.columnNames()) {
            keyTypes.add(definitions.get(newPosition(sources, table.columnIndex(column))).type());
        }
        UniqueIndex index = UniqueIndexes.create(new IndexDefinition(constraint.name(), table.name(), constraint.columnNames(),
                keyTypes, constraint.primaryKey(), IndexDefinition.DEFAULT_INITIAL_ENTRIES), session.database().memory());
        parent.addPartitionedConstraint(new PartitionedConstraint(constraint.name(), constraint.primaryKey(),
                constraint.columnNames(), index, constraint.indexOnly()));
        return index;
    }

    private static int newPosition(int[] sources, int oldColumn) {
        for (int column = 0; column < sources.length; column++) {
            if (sources[column] == oldColumn) {
                return column;
            }
        }
        return -1;
    }

    /** The ordered indexes of {@code table} (and its partitions) whose columns all survive, built again on {@code replacement}'s. */
    private List<OrderedIndex> rebuildIndexes(Table table, Table replacement, int[] sources, ExecutionContext context) {
        Map<String, Table> replacements = new LinkedHashMap<>();
        for (Table each : replacement.withPartitions()) {
            replacements.put(each.name(), each);
        }
        List<OrderedIndex> built = new ArrayList<>();
        Settings settings = session.settings();
        try {
            for (Table old : table.withPartitions()) {
                for (OrderedIndex index : old.indexes()) {
                    int[] oldKey = index.keyColumns();
                    int[] newKey = new int[oldKey.length];
                    boolean kept = true;
                    for (int key = 0; key < oldKey.length; key++) {
                        newKey[key] = newPosition(sources, oldKey[key]);
                        kept &= newKey[key] >= 0;
                    }
                    if (kept) {
                        built.add(OrderedIndex.build(index.name(), replacements.get(old.name()), newKey, index.descendingKeys(),
                                SortOptions.forMaintenance(settings),
                                session.database().workers(), settings.getInt("max_parallel_maintenance_workers"),
                                settings.getInt("max_parallel_workers"), context));
                    }
                }
            }
        } catch (RuntimeException failure) {
            for (OrderedIndex index : built) {
                index.close();
            }
            throw failure;
        }
        return built;
    }
}
