package dev.parallax.planner;

import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.expr.Expr;
import dev.parallax.planner.query.schema.CatalogSchema;
import dev.parallax.planner.statement.CheckClause;
import dev.parallax.planner.statement.RelationName;
import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.StorageParameters;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.vacuum.TableAnalyzer;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.plan.UniqueIndexScanNode;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.index.UniqueIndex;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.settings.SettingDefinition;
import dev.parallax.engine.settings.SettingRegistry;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.result.OperatorResult;
import dev.parallax.planner.result.TextRowsResult;
import dev.parallax.planner.statement.AlterSystemStatement;
import dev.parallax.planner.statement.AlterTableOptionsStatement;
import dev.parallax.planner.statement.CallStatement;
import dev.parallax.planner.statement.CopyStatement;
import dev.parallax.planner.statement.CopyToStatement;
import dev.parallax.planner.statement.CreateIndexStatement;
import dev.parallax.planner.statement.AlterTableStatement;
import dev.parallax.planner.statement.RenameColumnStatement;
import dev.parallax.planner.statement.RenameRelationStatement;
import dev.parallax.planner.statement.AlterSequenceStatement;
import dev.parallax.planner.statement.IdentityClause;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.statement.CreateSequenceStatement;
import dev.parallax.planner.statement.DropSequenceStatement;
import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.sequence.SequenceOptions;
import dev.parallax.planner.statement.CreatePartitionStatement;
import dev.parallax.planner.statement.HashPartitioning;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.partition.HashPartitionBound;
import dev.parallax.engine.partition.PartitionKey;
import dev.parallax.planner.statement.CreateTableAsStatement;
import dev.parallax.planner.statement.CreateTableStatement;
import dev.parallax.planner.statement.CreateViewStatement;
import dev.parallax.planner.statement.DropViewStatement;
import dev.parallax.planner.statement.DropIndexStatement;
import dev.parallax.planner.statement.DropTableStatement;
import dev.parallax.planner.statement.ForeignKeyClause;
import dev.parallax.planner.statement.EmptyStatement;
import dev.parallax.planner.statement.DeallocateStatement;
import dev.parallax.planner.statement.ExecuteStatement;
import dev.parallax.planner.statement.ExplainStatement;
import dev.parallax.planner.statement.PrepareStatement;
import dev.parallax.planner.statement.QueryStatement;
import dev.parallax.planner.statement.ResetStatement;
import dev.parallax.planner.statement.CommentStatement;
import dev.parallax.planner.statement.PrivilegeStatement;
import dev.parallax.planner.statement.SetConfigStatement;
import dev.parallax.planner.statement.SequenceOwner;
import dev.parallax.planner.statement.SetStatement;
import dev.parallax.planner.statement.ShowStatement;
import dev.parallax.planner.statement.Statement;
import dev.parallax.planner.statement.TableConstraint;
import dev.parallax.planner.statement.TemporaryTable;
import dev.parallax.planner.statement.TransactionStatement;
import dev.parallax.planner.statement.TruncateStatement;
import dev.parallax.planner.statement.VacuumStatement;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Runs the utility statements of a session: DDL, settings, table options, CALL dbgen, COPY and
 * transaction control, with PostgreSQL's command tags, notices and errors.
 */
final class UtilityCommands {
    private final SqlSession session;
    private final EngineServices services;

    UtilityCommands(SqlSession session, EngineServices services) {
        this.session = session;
        this.services = services;
    }

    Result run(Statement statement) {
        return switch (statement) {
            case CreateTableStatement create -> createTable(create);
            case CreateTableAsStatement create -> new CreateTableAsCommand(session, services).run(create);
            case CreatePartitionStatement create -> createPartition(create);
            case DropTableStatement drop -> dropTable(drop);
            case CreateIndexStatement create -> createIndex(create);
            case DropIndexStatement drop -> dropIndex(drop);
            case CreateViewStatement create -> createView(create);
            case DropViewStatement drop -> dropView(drop);
            case SetStatement set -> set(set);
            case SetConfigStatement setConfig -> setConfig(setConfig);
            case PrivilegeStatement privilege -> new PrivilegeCommand(session).run(privilege);
            case CommentStatement comment -> new CommentCommand(session).run(comment);
            case ShowStatement show -> show(show);
            case ResetStatement reset -> reset(reset);
            case AlterTableOptionsStatement alter -> alterTable(alter);
            case AlterTableStatement alter -> new AlterTableCommand(session, services, this).run(alter);
            case RenameRelationStatement rename -> renameRelation(rename);
            case RenameColumnStatement rename -> renameColumn(rename);
            case CreateSequenceStatement create -> createSequence(create);
            case DropSequenceStatement drop -> dropSequence(drop);
            case AlterSequenceStatement alter -> alterSequence(alter);
            case CallStatement call -> call(call);
            case CopyStatement copy -> copy(copy);
            case CopyToStatement copyTo -> new CopyCommands(session).to(copyTo);
            case TransactionStatement transaction -> transaction(transaction);
            case VacuumStatement vacuum -> new MaintenanceCommand(session).run(vacuum);
            case TruncateStatement truncate -> new TruncateCommand(session).run(truncate);
            case AlterSystemStatement alter -> alterSystem(alter);
            case EmptyStatement empty -> new CommandResult("");
            case QueryStatement query -> throw new IllegalArgumentException("not a utility statement: " + query.sql());
            case ExplainStatement explain -> throw new IllegalArgumentException("EXPLAIN is run by the session");
            case PrepareStatement prepare -> throw new IllegalArgumentException("PREPARE is run by the session");
            case ExecuteStatement execute -> throw new IllegalArgumentException("EXECUTE is run by the session");
            case DeallocateStatement deallocate -> throw new IllegalArgumentException("DEALLOCATE is run by the session");
        };
    }

    /** The name a setting is shown under (its registered spelling, e.g. {@code TimeZone}); 42704 when unknown. */
    static String settingName(String name) {
        SettingDefinition definition = SettingRegistry.find(name);
        if (definition == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
        }
        return definition.name();
    }

    /** PostgreSQL's outcome of IF EXISTS for a relation that is not there: the command's tag and a NOTICE. */
    private static Result skippedMissing(String commandTag, String relation) {
        return new CommandResult(commandTag, 0, List.of("relation \"" + relation + "\" does not exist, skipping"));
    }

    /** PostgreSQL's outcome of IF NOT EXISTS for a name taken: the command's tag and a NOTICE with 42P07. */
    static Result skippedExisting(String commandTag, String relation) {
        return CommandResult.withMessages(commandTag, List.of(new Notice(Notice.NOTICE,
                "relation \"" + relation + "\" already exists, skipping", null, SqlState.DUPLICATE_TABLE.code())));
    }

    /** The catalog as the session sees it: its temporary tables first. */
    private Catalog catalog() {
        return session.catalog();
    }

    /**
     * Where a new relation's name must be free and where it goes: the session's temporary
     * namespace for a temporary table, else the database's (a temporary table of the same name
     * does not keep a permanent one from being created, as in PostgreSQL).
     */
    private Catalog namespace(TemporaryTable temporary) {
        return temporary != null ? session.catalog().temporary() : session.catalog().shared();
    }

    /** The namespace {@code table} is in: where the relations made for it (keys, sequences) go. */
    Catalog namespaceOf(Table table) {
        return session.catalog().isTemporary(table) ? session.catalog().temporary() : session.catalog().shared();
    }

    /** The tag and GLOBAL's warning of CREATE TABLE, also for a temporary table. */
    static Result created(String commandTag, TemporaryTable temporary) {
        if (temporary == null || !temporary.global()) {
            return new CommandResult(commandTag);
        }
        return CommandResult.withMessages(commandTag, List.of(new Notice(Notice.WARNING, TemporaryTable.GLOBAL_WARNING, null)));
    }

    private Result createTable(CreateTableStatement create) {
        Catalog catalog = namespace(create.temporary());
        if (catalog.findTable(create.tableName()) != null) {
            if (create.ifNotExists()) {
                return skippedExisting("CREATE TABLE", create.tableName());
            }
            throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", create.tableName());
        }
        StorageParameters parameters = StorageParameters.NONE.with(create.storageParameters(), create.partitioning() != null);
        List<ColumnDefinition> columns = withDefaults(create.columns(), create.defaultExpressions());
        Set<String> keyNames = new HashSet<>();
        for (TableConstraint constraint : create.constraints()) {
            if (constraint.name() != null) {
                keyNames.add(constraint.name());
            }
        }
        List<CheckConstraint> checks = planChecks(create.tableName(), columns, create.checks(), List.of(), keyNames);
        if (create.identities().isEmpty()) {
            return create.partitioning() != null ? createPartitionedTable(catalog, create, columns, parameters, checks)
                    : createPlainTable(catalog, create, columns, parameters, checks);
        }
        // serial and identity columns: their sequences first (the table's defaults name them), gone again on any failure.
        List<Sequence> owned = new ArrayList<>();
        try {
            List<ColumnDefinition> withSequences = withIdentities(catalog, create.tableName(), columns, create.identities(), owned);
            Result result = create.partitioning() != null ? createPartitionedTable(catalog, create, withSequences, parameters, checks)
                    : createPlainTable(catalog, create, withSequences, parameters, checks);
            Table created = catalog.findTable(create.tableName());
            if (created == null || !created.columns().equals(withSequences)) {
                dropAll(catalog, owned);
            }
            return result;
        } catch (RuntimeException failure) {
            dropAll(catalog, owned);
            throw failure;
        }
    }

    /** Records a new temporary table's ON COMMIT action with the session. */
    private void noteTemporary(Catalog catalog, String tableName, TemporaryTable temporary) {
        Table table = catalog.findTable(tableName);
        if (temporary != null && table != null) {
            session.temporaryTables().created(table, temporary.onCommit());
        }
    }

    /**
     * The CHECK constraints {@code clauses} of table {@code tableName} over {@code columns}, planned,
     * named as PostgreSQL names them: a given name (42710 when the table has one so named), else
     * {@code table_column_check} when the condition reads one column and {@code table_check}
     * otherwise, a number appended while the name is taken. {@code existing} are the table's
     * CHECK constraints, {@code otherNames} the names of its other constraints.
     */
    List<CheckConstraint> planChecks(String tableName, List<ColumnDefinition> columns, List<CheckClause> clauses,
                                     List<CheckConstraint> existing, Set<String> otherNames) {
        Set<String> existingNames = new HashSet<>(otherNames);
        for (CheckConstraint constraint : existing) {
            existingNames.add(constraint.name());
        }
        Set<String> taken = new HashSet<>(existingNames);
        List<CheckConstraint> planned = new ArrayList<>();
        for (CheckClause clause : clauses) {
            Expr condition;
            try {
                condition = services.planCheckCondition(tableName, columns, clause.expressionText(), session.settings());
            } catch (ParallaxException failure) {
                throw failure.position() == 0 ? failure : failure.withPosition(failure.position() + clause.textOffset());
            }
            String name = clause.name();
            if (name == null) {
                Set<Integer> read = new java.util.TreeSet<>();
                CheckConstraint.collectColumns(condition, read);
                String base = tableName + "_" + (read.size() == 1 ? columns.get(read.iterator().next()).name() + "_" : "") + "check";
                name = base;
                for (int suffix = 1; taken.contains(name); suffix++) {
                    name = base + suffix;
                }
            } else if (taken.contains(name)) {
                // PostgreSQL's wording differs between a name taken by another constraint of the statement and one the table has.
                throw existingNames.contains(name)
                        ? ParallaxException.of(SqlState.DUPLICATE_OBJECT, "constraint \"%s\" for relation \"%s\" already exists", name, tableName)
                        : ParallaxException.of(SqlState.DUPLICATE_OBJECT, "check constraint \"%s\" already exists", name);
            }
            taken.add(name);
            planned.add(new CheckConstraint(name, condition, catalog().allocateObjectId()));
        }
        return planned;
    }

    private static void dropAll(Catalog namespace, List<Sequence> sequences) {
        for (Sequence sequence : sequences) {
            namespace.dropSequence(sequence.name());
        }
    }

    /**
     * The columns with the defaults of their serial / identity clauses: each gets a sequence of its
     * own type named as PostgreSQL names it ({@code table_column_seq}, a number appended while the
     * name is taken), owned by the table; the sequences are added to {@code namespace} (the table's) and to {@code owned}.
     */
    List<ColumnDefinition> withIdentities(Catalog namespace, String tableName, List<ColumnDefinition> columns,
                                          Map<String, IdentityClause> identities, List<Sequence> owned) {
        List<ColumnDefinition> result = new ArrayList<>(columns.size());
        for (ColumnDefinition column : columns) {
            IdentityClause clause = identities.get(column.name());
            if (clause == null) {
                result.add(column);
                continue;
            }
            TypeKind kind = column.type().kind();
            if (kind != TypeKind.SMALLINT && kind != TypeKind.INTEGER && kind != TypeKind.BIGINT) {
                throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
            }
            SequenceOptions.Declared declared = clause.options();
            SequenceOptions options = SequenceOptions.resolve(new SequenceOptions.Declared(
                    declared.type() != null ? declared.type() : column.type(), declared.increment(), declared.minValue(),
                    declared.maxValue(), declared.start(), declared.cache(), declared.cycle()));
            String name = clause.sequenceName();
            if (name == null) {
                String base = tableName + "_" + column.name() + "_seq";
                name = base;
                for (int suffix = 1; namespace.relationExists(name); suffix++) {
                    name = base + suffix;
                }
            } else if (namespace.relationExists(name)) {
                throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", name);
            }
            Sequence sequence = new Sequence(name, options, tableName, column.name());
            namespace.addSequence(sequence);
            owned.add(sequence);
            result.add(column.withDefault(ColumnDefault.nextValue(name, clause.kind())));
        }
        return result;
    }

    private Result createPlainTable(Catalog catalog, CreateTableStatement create, List<ColumnDefinition> columns,
                                    StorageParameters parameters, List<CheckConstraint> checks) {
        TableStorage storage = services.createStorage(columns.stream().map(ColumnDefinition::type).toList());
        Table table = new Table(create.tableName(), columns, storage);
        table.setStorageParameters(parameters);
        table.setCheckConstraints(checks);
        List<ForeignKey> foreignKeys = new ArrayList<>();
        try {
            addUniqueConstraints(catalog, table, create.constraints(), IndexDefinition.DEFAULT_INITIAL_ENTRIES, null);
            // Declared (and refused) before the table exists; added once it does.
            Set<String> constraintNames = ForeignKeyCommand.constraintNames(table);
            for (ForeignKeyClause clause : create.foreignKeys()) {
                foreignKeys.add(new ForeignKeyCommand(session, services).declare(catalog, table, clause, constraintNames,
                        create.temporary() != null));
            }
            catalog.addTable(table);
        } catch (RuntimeException failure) {
            table.closeUniqueConstraints();
            storage.close();
            if (failure instanceof ParallaxException duplicate && duplicate.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                // Another session created it between our check and our insert.
                return skippedExisting("CREATE TABLE", create.tableName());
            }
            throw failure;
        }
        try {
            for (ForeignKey key : foreignKeys) {
                catalog.addForeignKey(key);
            }
        } catch (RuntimeException failure) {
            catalog.dropTable(table.name());
            throw failure;
        }
        noteTemporary(catalog, create.tableName(), create.temporary());
        return created("CREATE TABLE", create.temporary());
    }

    /**
     * A partitioned table (no storage of its own) with its constraints' names, and with
     * {@code PARTITIONS n} its n partitions; all of it or, on any error, none.
     */
    private Result createPartitionedTable(Catalog catalog, CreateTableStatement create, List<ColumnDefinition> columns,
                                          StorageParameters parameters, List<CheckConstraint> checks) {
        if (!create.foreignKeys().isEmpty()) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED,
                    "foreign keys on partitioned tables and partitions are not supported yet (table \"%s\")", create.tableName());
        }
        HashPartitioning partitioning = create.partitioning();
        int[] keyColumns = new int[partitioning.keyColumnNames().size()];
        for (int key = 0; key < keyColumns.length; key++) {
            keyColumns[key] = indexOf(columns, partitioning.keyColumnNames().get(key));
        }
        Table parent = Table.partitioned(create.tableName(), columns, new PartitionKey(keyColumns));
        parent.setStorageParameters(parameters);
        parent.setCheckConstraints(checks);
        Set<String> chosen = new HashSet<>();
        for (TableConstraint constraint : create.constraints()) {
            if (constraint.name() != null) {
                chosen.add(constraint.name());
            }
        }
        try {
            for (TableConstraint constraint : create.constraints()) {
                String defaultName = constraint.primaryKey() ? create.tableName() + "_pkey"
                        : create.tableName() + "_" + String.join("_", constraint.columnNames()) + "_key";
                String name = constraint.name() != null ? constraint.name() : unusedName(catalog, defaultName, chosen);
                List<DataType> keyTypes = new ArrayList<>();
                for (String column : constraint.columnNames()) {
                    keyTypes.add(columns.get(indexOf(columns, column)).type());
                }
                // One index for the whole table, its partitions' constraints sharing it (PartitionUniqueIndex).
                UniqueIndex index = UniqueIndexes.create(new IndexDefinition(name, create.tableName(), constraint.columnNames(),
                        keyTypes, constraint.primaryKey(), IndexDefinition.DEFAULT_INITIAL_ENTRIES), session.database().memory());
                parent.addPartitionedConstraint(new PartitionedConstraint(name, constraint.primaryKey(), constraint.columnNames(), index));
            }
            catalog.addTable(parent);
        } catch (RuntimeException failure) {
            parent.closeUniqueConstraints();
            if (failure instanceof ParallaxException duplicate && duplicate.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                return skippedExisting("CREATE TABLE", create.tableName());
            }
            throw failure;
        }
        try {
            int partitions = partitioning.partitions();
            for (int remainder = 0; remainder < partitions; remainder++) {
                addPartition(catalog, parent, create.tableName() + "_" + remainder, new HashPartitionBound(partitions, remainder),
                        StorageParameters.NONE);
            }
        } catch (RuntimeException failure) {
            catalog.dropTable(parent.name());
            throw failure;
        }
        noteTemporary(catalog, create.tableName(), create.temporary());
        return created("CREATE TABLE", create.temporary());
    }

    /** The columns with their DEFAULT expressions checked and attached (a NULL default is no default). */
    private List<ColumnDefinition> withDefaults(List<ColumnDefinition> columns, Map<String, String> defaultExpressions) {
        if (defaultExpressions.isEmpty()) {
            return columns;
        }
        List<ColumnDefinition> result = new ArrayList<>(columns.size());
        for (ColumnDefinition column : columns) {
            String expression = defaultExpressions.get(column.name());
            result.add(expression == null ? column
                    : column.withDefault(services.planColumnDefault(expression, column, session.settings())));
        }
        return result;
    }

    private Result createSequence(CreateSequenceStatement create) {
        Catalog catalog = catalog();
        if (catalog.relationExists(create.sequenceName())) {
            if (create.ifNotExists()) {
                return skippedExisting("CREATE SEQUENCE", create.sequenceName());
            }
            throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", create.sequenceName());
        }
        SequenceOptions options = SequenceOptions.resolve(create.options());
        SequenceOwner owner = create.ownedBy() == null ? SequenceOwner.NONE : checkedOwner(catalog, create.ownedBy());
        try {
            catalog.addSequence(new Sequence(create.sequenceName(), options, ownerTableName(catalog, owner), owner.columnName()));
        } catch (ParallaxException duplicate) {
            if (duplicate.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                return skippedExisting("CREATE SEQUENCE", create.sequenceName());
            }
            throw duplicate;
        }
        return new CommandResult("CREATE SEQUENCE");
    }

    /**
     * DROP SEQUENCE: every name is checked first (no partial effect). A sequence a column's default
     * uses (serial, identity) goes with its table only: 2BP01, as PostgreSQL without CASCADE.
     */
    private Result dropSequence(DropSequenceStatement drop) {
        Catalog catalog = catalog();
        for (RelationName sequenceName : drop.sequenceNames()) {
            Catalog namespace = sequenceName.namespace(catalog);
            String name = sequenceName.name();
            Sequence sequence = namespace.findSequence(name);
            if (sequence == null) {
                if (namespace.relationExists(name)) {
                    throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
                }
                if (!drop.ifExists()) {
                    throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "sequence \"%s\" does not exist", name);
                }
                continue;
            }
            if (sequence.ownerTable() != null && namespace.findTable(sequence.ownerTable()) != null) {
                throw ParallaxException.of(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                                "cannot drop sequence %s because other objects depend on it", name)
                        .withDetail("default value for column " + sequence.ownerColumn() + " of table " + sequence.ownerTable()
                                + " depends on sequence " + name)
                        .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
            }
        }
        List<String> notices = new ArrayList<>();
        for (RelationName name : drop.sequenceNames()) {
            if (!name.namespace(catalog).dropSequence(name.name())) {
                notices.add("sequence \"" + name.name() + "\" does not exist, skipping");
            }
        }
        return new CommandResult("DROP SEQUENCE", 0, notices);
    }

    /** ALTER SEQUENCE: the options written replace the sequence's (checked together), then RESTART. */
    private Result alterSequence(AlterSequenceStatement alter) {
        Catalog catalog = catalog();
        Catalog namespace = alter.sequenceName().namespace(catalog);
        String name = alter.sequenceName().name();
        Sequence sequence = namespace.findSequence(name);
        if (sequence == null) {
            if (namespace.relationExists(name)) {
                throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
            }
            if (alter.ifExists()) {
                return skippedMissing("ALTER SEQUENCE", name);
            }
            throw alter.sequenceName().notFound();
        }
        SequenceOwner owner = alter.ownedBy() == null ? null : checkedOwner(catalog, alter.ownedBy());
        SequenceOptions current = sequence.options();
        SequenceOptions.Declared written = alter.options();
        SequenceOptions changed = SequenceOptions.resolve(new SequenceOptions.Declared(
                written.type() != null ? written.type() : current.type(),
                written.increment() != null ? written.increment() : current.increment(),
                written.minValue() != null ? written.minValue() : current.minValue(),
                written.maxValue() != null ? written.maxValue() : current.maxValue(),
                written.start() != null ? written.start() : current.start(),
                written.cache() != null ? written.cache() : current.cache(),
                written.cycle() != null ? written.cycle() : current.cycle()));
        if (alter.restart()) {
            Sequence probe = new Sequence(sequence.name(), changed, null, null);
            probe.restart(alter.restartValue());
        }
        sequence.setOptions(changed);
        if (alter.restart()) {
            sequence.restart(alter.restartValue());
        }
        if (owner != null) {
            sequence.setOwner(ownerTableName(catalog, owner), owner.columnName());
        }
        catalog.touch();
        return new CommandResult("ALTER SEQUENCE");
    }

    /**
     * The owner OWNED BY names, checked as PostgreSQL checks it: 42P01 for a missing table, 42809
     * for a relation that is not a table, 42703 for a missing column.
     */
    private static SequenceOwner checkedOwner(Catalog catalog, SequenceOwner owner) {
        if (owner.none()) {
            return owner;
        }
        Catalog namespace = owner.tableName().namespace(catalog);
        String name = owner.tableName().name();
        Table table = namespace.findTable(name);
        if (table == null || table.isSystemView()) {
            if (namespace.findView(name) != null) {
                // PostgreSQL lets a view own a sequence; Parallax drops owned sequences with tables only.
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "a sequence owned by a view is not supported");
            }
            if (table != null || namespace.relationExists(name)) {
                throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "sequence cannot be owned by relation \"%s\"", name)
                        .withDetail("This operation is not supported for " + (table != null ? "views."
                                : namespace.findSequence(name) != null ? "sequences." : "indexes."));
            }
            throw owner.tableName().notFound();
        }
        if (table.columnIndex(owner.columnName()) < 0) {
            throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                    owner.columnName(), name);
        }
        return owner;
    }

    /** The name of the table a checked OWNED BY names (null for NONE), as the sequence records its owner. */
    private static String ownerTableName(Catalog catalog, SequenceOwner owner) {
        return owner.none() ? null : owner.tableName().table(catalog).name();
    }

    /** ALTER TABLE / ALTER VIEW ... RENAME TO, with PostgreSQL's errors (see {@link Catalog#renameRelation}). */
    private Result renameRelation(RenameRelationStatement rename) {
        Catalog catalog = catalog();
        String tag = rename.view() ? "ALTER VIEW" : "ALTER TABLE";
        Catalog namespace = rename.name().namespace(catalog);
        String name = rename.name().name();
        Table table = namespace.findTable(name);
        if (table == null && namespace.findView(name) == null && rename.ifExists()) {
            return skippedMissing(tag, name);
        }
        if (rename.view() && table != null) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a view", name);
        }
        if (table == null && namespace.findView(name) == null) {
            throw rename.name().notFound();
        }
        namespace.renameRelation(name, rename.newName());
        return new CommandResult(tag);
    }

    /**
     * ALTER TABLE ... RENAME COLUMN, on a partitioned table's partitions too. PostgreSQL's errors:
     * 42703 for no such column, 42701 for a name taken, 42P16 for a partition's column (it is its
     * parent's) or ONLY on a partitioned table.
     */
    private Result renameColumn(RenameColumnStatement rename) {
        Catalog catalog = catalog();
        Table table = rename.tableName().findTable(catalog);
        if (table == null) {
            if (rename.ifExists()) {
                return skippedMissing("ALTER TABLE", rename.tableName().name());
            }
            throw rename.tableName().notFound();
        }
        if (table.isSystemView()) {
            throw ParallaxException.of(SqlState.INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog", table.name());
        }
        int column = table.columnIndex(rename.columnName());
        if (column < 0) {
            throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" does not exist", rename.columnName());
        }
        if (table.parent() != null) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "cannot rename inherited column \"%s\"", rename.columnName());
        }
        if (table.isPartitioned() && rename.only()) {
            throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "inherited column \"%s\" must be renamed in child tables too",
                    rename.columnName());
        }
        if (table.columnIndex(rename.newName()) >= 0) {
            throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" of relation \"%s\" already exists",
                    rename.newName(), table.name());
        }
        catalog.renameColumn(table, column, rename.newName());
        return new CommandResult("ALTER TABLE");
    }

    private static int indexOf(List<ColumnDefinition> columns, String name) {
        for (int index = 0; index < columns.size(); index++) {
            if (columns.get(index).name().equals(name)) {
                return index;
            }
        }
        throw new IllegalArgumentException("no column " + name);
    }

    private Result createPartition(CreatePartitionStatement create) {
        Catalog catalog = namespace(create.temporary());
        if (catalog.findTable(create.tableName()) != null) {
            if (create.ifNotExists()) {
                return skippedExisting("CREATE TABLE", create.tableName());
            }
            throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", create.tableName());
        }
        Table parent = create.parentName().table(catalog());
        if (!parent.isPartitioned()) {
            throw ParallaxException.of(SqlState.INVALID_OBJECT_DEFINITION, "\"%s\" is not partitioned", parent.name());
        }
        // A partition lives as long as its parent: PostgreSQL refuses to mix the two kinds (42809).
        boolean temporaryParent = catalog().isTemporary(parent);
        if (temporaryParent != (create.temporary() != null)) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "cannot create a %s relation as partition of %s relation \"%s\"",
                    temporaryParent ? "permanent" : "temporary", temporaryParent ? "temporary" : "permanent", parent.name());
        }
        addPartition(catalog, parent, create.tableName(), new HashPartitionBound(create.modulus(), create.remainder()),
                StorageParameters.NONE.with(create.storageParameters(), false));
        noteTemporary(catalog, create.tableName(), create.temporary());
        return created("CREATE TABLE", create.temporary());
    }

    /**
     * Creates partition {@code name} of {@code parent}: the parent's columns, its own storage and one
     * unique index per constraint of the parent (named as PostgreSQL names a partition's indexes,
     * e.g. {@code p_0_pkey}), sized for a share of a table's default entries.
     */
    private void addPartition(Catalog catalog, Table parent, String name, HashPartitionBound bound, StorageParameters parameters) {
        List<ColumnDefinition> columns = parent.columns();
        List<Table> siblings = parent.partitionRouter().partitions();
        // Siblings share their storage's page layout (PagedTableStorage.emptySibling).
        TableStorage storage = !siblings.isEmpty() && siblings.getFirst().storage() instanceof PagedTableStorage sibling
                ? sibling.emptySibling() : services.createStorage(columns.stream().map(ColumnDefinition::type).toList());
        Table partition = new Table(name, columns, storage);
        partition.setStorageParameters(parameters);
        partition.setPartitionOf(parent, bound);
        List<TableConstraint> constraints = new ArrayList<>();
        List<UniqueIndex> tableIndexes = new ArrayList<>();
        for (PartitionedConstraint constraint : parent.partitionedConstraints()) {
            constraints.add(new TableConstraint(null, constraint.primaryKey(), constraint.columnNames(), constraint.indexOnly()));
            tableIndexes.add(constraint.index());
        }
        try {
            addUniqueConstraints(catalog, partition, constraints, IndexDefinition.DEFAULT_INITIAL_ENTRIES, tableIndexes);
            catalog.addTable(partition);
        } catch (RuntimeException failure) {
            partition.closeUniqueConstraints();
            storage.close();
            throw failure;
        }
    }

    /**
     * Adds the PRIMARY KEY and UNIQUE constraints to {@code table} (empty, not in the catalog yet),
     * each an index of its own sized for {@code initialEntries}, or with {@code tableIndexes} the
     * shares of a partitioned table's indexes (in the constraints' order); named as PostgreSQL names
     * them, with names free in {@code namespace}, the one the table goes to.
     */
    void addUniqueConstraints(Catalog namespace, Table table, List<TableConstraint> constraints, long initialEntries,
                              List<UniqueIndex> tableIndexes) {
        Set<String> chosen = new HashSet<>();
        for (TableConstraint constraint : constraints) {
            if (constraint.name() != null) {
                chosen.add(constraint.name());
            }
        }
        for (int position = 0; position < constraints.size(); position++) {
            TableConstraint constraint = constraints.get(position);
            List<String> columnNames = constraint.columnNames();
            int[] keyColumns = new int[columnNames.size()];
            List<DataType> keyTypes = new ArrayList<>(keyColumns.length);
            for (int key = 0; key < keyColumns.length; key++) {
                keyColumns[key] = table.columnIndex(columnNames.get(key));
                keyTypes.add(table.columns().get(keyColumns[key]).type());
            }
            // A partition's share of a unique index is named as PostgreSQL names a partition's index: p_0_a_idx.
            String defaultName = constraint.primaryKey() ? IndexDefinition.primaryKey(table.name(), columnNames, keyTypes).constraintName()
                    : constraint.indexOnly() ? indexName(table.name(), columnNames)
                    : IndexDefinition.unique(table.name(), columnNames, keyTypes).constraintName();
            String name = constraint.name() != null ? constraint.name() : unusedName(namespace, defaultName, chosen);
            IndexDefinition definition = new IndexDefinition(name, table.name(), columnNames, keyTypes, constraint.primaryKey(), initialEntries);
            UniqueIndex index = tableIndexes == null ? UniqueIndexes.create(definition, session.database().memory())
                    : UniqueIndexes.partitionShare(definition, tableIndexes.get(position));
            try {
                table.addUniqueConstraint(new UniqueConstraint(index, keyColumns, constraint.indexOnly()));
            } catch (RuntimeException failure) {
                index.close();
                throw failure;
            }
        }
    }

    /**
     * PostgreSQL's choice of a default constraint name: {@code name} itself, or the first of
     * {@code name1, name2, ...} that no relation and no other constraint of the statement uses.
     */
    private static String unusedName(Catalog catalog, String name, Set<String> chosen) {
        String candidate = name;
        for (int suffix = 1; catalog.relationExists(candidate) || chosen.contains(candidate); suffix++) {
            candidate = name + suffix;
        }
        chosen.add(candidate);
        return candidate;
    }

    private Result dropTable(DropTableStatement drop) {
        // Check every name first, so that a missing one leaves the others in place (no partial effect).
        for (RelationName tableName : drop.tableNames()) {
            Catalog catalog = tableName.namespace(catalog());
            String name = tableName.name();
            if (catalog.findTable(name) == null && catalog.findIndex(name) != null) {
                throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table", null,
                        "Use DROP INDEX to remove an index.", 0, null);
            }
            if (catalog.findView(name) != null) {
                throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a table", null,
                        "Use DROP VIEW to remove a view.", 0, null);
            }
        }
        if (!drop.ifExists()) {
            for (RelationName name : drop.tableNames()) {
                if (name.findTable(catalog()) == null) {
                    throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "table \"%s\" does not exist", name.name());
                }
            }
        }
        // Foreign keys of other tables that reference a dropped one: 2BP01, or with CASCADE dropped first.
        Set<Table> dropped = new HashSet<>();
        for (RelationName name : drop.tableNames()) {
            Table table = name.findTable(catalog());
            if (table != null) {
                dropped.add(table);
            }
        }
        List<ForeignKey> dependents = new ArrayList<>();
        for (RelationName name : drop.tableNames()) {
            Table table = name.findTable(catalog());
            if (table == null) {
                continue;
            }
            for (ForeignKey key : table.referencedBy()) {
                if (!dropped.contains(key.referencing()) && !dependents.contains(key)) {
                    dependents.add(key);
                }
            }
        }
        List<Notice> messages = new ArrayList<>();
        if (!dependents.isEmpty()) {
            ForeignKey first = dependents.getFirst();
            if (!drop.cascade()) {
                StringBuilder detail = new StringBuilder();
                for (ForeignKey key : dependents) {
                    detail.append(detail.isEmpty() ? "" : "\n").append("constraint ").append(key.name()).append(" on table ")
                            .append(describedName(key.referencing())).append(" depends on table ").append(describedName(key.referenced()));
                }
                throw new ParallaxException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                        "cannot drop table " + describedName(first.referenced()) + " because other objects depend on it", detail.toString(),
                        "Use DROP ... CASCADE to drop the dependent objects too.", 0, null);
            }
            for (ForeignKey key : dependents) {
                session.catalog().dropForeignKey(key);
            }
            if (dependents.size() == 1) {
                messages.add(new Notice(Notice.NOTICE, "drop cascades to constraint " + first.name() + " on table "
                        + first.referencing().name(), null));
            } else {
                StringBuilder detail = new StringBuilder();
                for (ForeignKey key : dependents) {
                    detail.append(detail.isEmpty() ? "" : "\n").append("drop cascades to constraint ").append(key.name())
                            .append(" on table ").append(key.referencing().name());
                }
                messages.add(new Notice(Notice.NOTICE, "drop cascades to " + dependents.size() + " other objects", detail.toString()));
            }
        }
        for (String skipped : dropEach(drop.tableNames(), "table", drop.ifExists(), name -> name.namespace(catalog()).dropTable(name.name()))) {
            messages.add(new Notice(Notice.NOTICE, skipped, null));
        }
        return CommandResult.withMessages("DROP TABLE", messages);
    }

    /**
     * {@code table} as PostgreSQL's descriptions of objects name it: with its schema when its name
     * alone finds another relation (a temporary table of the name hides it).
     */
    private String describedName(Table table) {
        return catalog().findTable(table.name()) == table ? table.name() : CatalogSchema.PUBLIC + "." + table.name();
    }

    /**
     * CREATE [OR REPLACE] VIEW: plans the query once (so a view that cannot run is refused now, as
     * PostgreSQL does) and catalogs its text and column names; the planner expands the text where
     * the view is used; the columns' types are recorded with it. As in PostgreSQL, OR REPLACE keeps
     * the existing columns (names and recorded types, in order) and may only add columns at the end.
     */
    private Result createView(CreateViewStatement create) {
        Catalog catalog = catalog();
        PlannedStatement planned = session.planFor(create.query()).statement();
        if (!planned.returnsRows()) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "syntax error at or near \"%s\"",
                    create.query().split("\\s+", 2)[0]);
        }
        if (!planned.parameterTypes().isEmpty()) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $1");
        }
        if (session.catalog().hasTemporaryTables() && readsTemporaryTable(planned.root())) {
            // Every session would expand the view's text against its own tables.
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "views over temporary tables are not supported", null,
                    "PostgreSQL makes such a view temporary; Parallax has no temporary views.", 0, null);
        }
        List<ResultColumn> columns = planned.columns();
        if (create.columnNames().size() > columns.size()) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "CREATE VIEW specifies more column names than columns");
        }
        List<String> names = new ArrayList<>(create.columnNames());
        for (int index = names.size(); index < columns.size(); index++) {
            names.add(columns.get(index).name());
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", name);
            }
        }
        View existing = catalog.findView(create.viewName());
        if (create.orReplace() && existing == null && catalog.relationExists(create.viewName())) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a view", create.viewName());
        }
        if (create.orReplace() && existing != null) {
            List<DataType> old = existing.columnTypes();
            if (columns.size() < old.size()) {
                throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION, "cannot drop columns from view");
            }
            for (int index = 0; index < old.size(); index++) {
                if (!existing.columnNames().get(index).equals(names.get(index))) {
                    throw new ParallaxException(SqlState.INVALID_TABLE_DEFINITION, "cannot change name of view column \""
                            + existing.columnNames().get(index) + "\" to \"" + names.get(index) + "\"", null,
                            "Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.", 0, null);
                }
                if (!old.get(index).equals(columns.get(index).type())) {
                    throw ParallaxException.of(SqlState.INVALID_TABLE_DEFINITION,
                            "cannot change data type of view column \"%s\" from %s to %s", names.get(index),
                            old.get(index).sqlName(), columns.get(index).type().sqlName());
                }
            }
        }
        List<DataType> types = new ArrayList<>(columns.size());
        for (ResultColumn column : columns) {
            types.add(column.type());
        }
        catalog.addView(new View(create.viewName(), names, types, create.query()), create.orReplace());
        return new CommandResult("CREATE VIEW");
    }

    /** Whether {@code node} or a node below it reads one of the session's temporary tables. */
    private boolean readsTemporaryTable(PlanNode node) {
        Table table = switch (node) {
            case SeqScanNode scan -> scan.table();
            case IndexScanNode scan -> scan.table();
            case UniqueIndexScanNode scan -> scan.table();
            default -> null;
        };
        if (table != null && session.catalog().isTemporary(table.parent() != null ? table.parent() : table)) {
            return true;
        }
        for (PlanNode input : node.inputs()) {
            if (readsTemporaryTable(input)) {
                return true;
            }
        }
        return false;
    }

    private Result dropView(DropViewStatement drop) {
        Catalog catalog = catalog();
        // Check every name first, so that a missing one leaves the others in place (no partial effect).
        for (RelationName viewName : drop.viewNames()) {
            Catalog namespace = viewName.namespace(catalog);
            String name = viewName.name();
            if (namespace.findView(name) == null && namespace.relationExists(name)) {
                String hint = namespace.findTable(name) != null ? "Use DROP TABLE to remove a table."
                        : namespace.findIndex(name) != null ? "Use DROP INDEX to remove an index." : null;
                throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not a view", null, hint, 0, null);
            }
            if (!drop.ifExists() && namespace.findView(name) == null) {
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "view \"%s\" does not exist", name);
            }
        }
        return new CommandResult("DROP VIEW", 0, dropEach(drop.viewNames(), "view", drop.ifExists(), name -> name.namespace(catalog).dropView(name.name())));
    }

    /**
     * Drops each named relation of {@code kind} ("table", "view") with {@code drop}, after the
     * caller checked them all; one that is gone (IF EXISTS, or dropped by another session since the
     * check) is a notice with IF EXISTS and 42P01 without.
     */
    private static List<String> dropEach(List<RelationName> names, String kind, boolean ifExists, Predicate<RelationName> drop) {
        List<String> notices = new ArrayList<>();
        for (RelationName name : names) {
            if (!drop.test(name)) {
                // PostgreSQL names the relation without its schema here.
                if (!ifExists) {
                    throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "%s \"%s\" does not exist", kind, name.name());
                }
                notices.add(kind + " \"" + name.name() + "\" does not exist, skipping");
            }
        }
        return notices;
    }

    /**
     * Builds the index with a parallel sort (maintenance_work_mem, max_parallel_maintenance_workers)
     * and catalogs it. Rows appended later make it stale (see {@link OrderedIndex#isCurrent}); the
     * build reads the pages without blocking writers, which is what CONCURRENTLY asks for.
     */
    private Result createIndex(CreateIndexStatement create) {
        Table table = create.tableName().table(catalog());
        // The index goes to its table's schema, where its name must be free.
        Catalog catalog = namespaceOf(table);
        int[] keyColumns = new int[create.columnNames().size()];
        for (int key = 0; key < keyColumns.length; key++) {
            String column = create.columnNames().get(key);
            keyColumns[key] = table.columnIndex(column);
            if (keyColumns[key] < 0) {
                throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" does not exist", column);
            }
        }
        String name = create.indexName() != null ? create.indexName() : chooseIndexName(catalog, table.name(), create.columnNames());
        if (catalog.relationExists(name)) {
            if (create.ifNotExists()) {
                return skippedExisting("CREATE INDEX", name);
            }
            throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        }
        if (create.unique()) {
            if (create.descending().contains(true)) {
                // A unique index is a hash map (Chronicle Map): it has no order to declare.
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "DESC keys of a unique index are not supported");
            }
            return new AlterTableCommand(session, services, this).addUniqueIndex(table, name, create);
        }
        Settings settings = session.settings();
        // A statement context of its own: the build's progress shows in pg_stat_progress and the
        // shell's progress bar, and cancelling the statement stops the build.
        ExecutionContext context = session.newContext(null, false);
        OrderedIndex index;
        try {
            index = OrderedIndex.build(name, table, keyColumns, create.descendingKeys(), SortOptions.forMaintenance(settings),
                    session.database().workers(),
                    settings.getInt("max_parallel_maintenance_workers"), settings.getInt("max_parallel_workers"), context);
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            session.running().finish(context);
        }
        try {
            catalog.addIndex(index);
        } catch (RuntimeException failure) {
            index.close();
            if (failure instanceof ParallaxException duplicate && duplicate.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                // Another session took the name while we built.
                return skippedExisting("CREATE INDEX", name);
            }
            throw failure;
        }
        return new CommandResult("CREATE INDEX");
    }

    /** PostgreSQL's ChooseRelationName: {@code table_col1_col2_idx}, then with 1, 2, ... appended until unused. */
    private static String chooseIndexName(Catalog catalog, String tableName, List<String> columnNames) {
        String base = indexName(tableName, columnNames);
        String name = base;
        for (int suffix = 1; catalog.relationExists(name); suffix++) {
            name = base + suffix;
        }
        return name;
    }

    /** The name PostgreSQL gives an index of {@code tableName} on {@code columnNames} unless it is taken: {@code table_col1_col2_idx}. */
    private static String indexName(String tableName, List<String> columnNames) {
        return tableName + "_" + String.join("_", columnNames) + "_idx";
    }

    private Result dropIndex(DropIndexStatement drop) {
        // Check every name first, so that a wrong one leaves the others in place (no partial effect).
        for (RelationName indexName : drop.indexNames()) {
            Catalog catalog = indexName.namespace(catalog());
            String name = indexName.name();
            if (catalog.findIndex(name) == null && catalog.findKeyTable(name) != null) {
                checkDroppableUniqueIndex(catalog.findKeyTable(name), name);
            } else if (catalog.findIndex(name) == null) {
                if (catalog.findTable(name) != null) {
                    throw new ParallaxException(SqlState.WRONG_OBJECT_TYPE, "\"" + name + "\" is not an index", null,
                            "Use DROP TABLE to remove a table.", 0, null);
                }
                if (!drop.ifExists()) {
                    throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "index \"%s\" does not exist", name);
                }
            }
        }
        List<String> notices = new ArrayList<>();
        for (RelationName indexName : drop.indexNames()) {
            Catalog catalog = indexName.namespace(catalog());
            String name = indexName.name();
            Table keyTable = catalog.findIndex(name) == null ? catalog.findKeyTable(name) : null;
            if (keyTable != null) {
                new AlterTableCommand(session, services, this).dropUniqueIndex(keyTable, name);
            } else if (!catalog.dropIndex(name)) {
                if (!drop.ifExists()) {
                    // Dropped by another session after our check.
                    throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "index \"%s\" does not exist", name);
                }
                notices.add("index \"" + name + "\" does not exist, skipping");
            }
        }
        return new CommandResult("DROP INDEX", 0, notices);
    }

    /**
     * DROP INDEX of a key's index: only a unique index of CREATE UNIQUE INDEX on the table itself
     * goes; PostgreSQL's 2BP01 for a constraint's index and for a partition's share of its parent's.
     */
    private static void checkDroppableUniqueIndex(Table table, String name) {
        Table parent = table.parent();
        List<UniqueConstraint> constraints = table.uniqueConstraints();
        for (int position = 0; position < constraints.size(); position++) {
            UniqueConstraint constraint = constraints.get(position);
            if (!constraint.name().equals(name)) {
                continue;
            }
            if (parent != null && constraint.indexOnly()) {
                String parentIndex = parent.partitionedConstraints().get(position).name();
                throw new ParallaxException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop index " + name + " because index "
                        + parentIndex + " requires it", null, "You can drop index " + parentIndex + " instead.", 0, null);
            }
            if (!constraint.indexOnly()) {
                throw requiredByConstraint(name, table.name());
            }
            return;
        }
        for (PartitionedConstraint constraint : table.partitionedConstraints()) {
            if (constraint.name().equals(name) && !constraint.indexOnly()) {
                throw requiredByConstraint(name, table.name());
            }
        }
    }

    private static ParallaxException requiredByConstraint(String name, String tableName) {
        return new ParallaxException(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, "cannot drop index " + name + " because constraint " + name
                + " on table " + tableName + " requires it", null, "You can drop constraint " + name + " on table " + tableName + " instead.", 0, null);
    }

    private Result set(SetStatement set) {
        checkSessionSetting(set.name());
        Settings settings = session.settings();
        TransactionBlock block = session.transactionBlock();
        if (set.local() && block.inBlock()) {
            block.beforeSetLocal(settings, settingName(set.name()));
            apply(settings, set);
            return new CommandResult("SET");
        }
        if (set.local()) {
            // PostgreSQL: outside a transaction block SET LOCAL is checked, warned about and has no effect.
            Settings scratch = settings.snapshot();
            apply(scratch, set);
            return new CommandResult("SET", 0, List.of("SET LOCAL can only be used in transaction blocks"));
        }
        apply(settings, set);
        block.afterSet(settingName(set.name()));
        return new CommandResult("SET");
    }

    /**
     * {@code SELECT set_config('name', 'value', is_local)}: SET, or SET LOCAL when is_local, answered
     * with the setting's new value. Outside a transaction block a local value lasts only for the
     * statement's own transaction, so it is applied to a copy of the settings (to check it and show
     * it) and is gone afterwards; PostgreSQL warns for SET LOCAL there, not for set_config.
     */
    private Result setConfig(SetConfigStatement call) {
        checkSessionSetting(call.name());
        String name = settingName(call.name());
        Settings settings = session.settings();
        TransactionBlock block = session.transactionBlock();
        Settings target = settings;
        if (call.local() && block.inBlock()) {
            block.beforeSetLocal(settings, name);
        } else if (call.local()) {
            target = settings.snapshot();
        }
        apply(target, new SetStatement(call.name(), call.value(), call.local()));
        if (!call.local()) {
            block.afterSet(name);
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {shownValue(target, name)});
        return new TextRowsResult(List.of("set_config"), rows, "SELECT 1", List.of());
    }

    private static void apply(Settings settings, SetStatement set) {
        if (set.value() == null) {
            settings.reset(set.name());
        } else {
            settings.set(set.name(), set.value());
        }
    }

    private Result show(ShowStatement show) {
        Settings settings = session.settings();
        if (show.all()) {
            List<SettingDefinition> definitions = new ArrayList<>(SettingRegistry.all());
            definitions.sort(Comparator.comparing(definition -> definition.name().toLowerCase(java.util.Locale.ROOT)));
            List<String[]> rows = new ArrayList<>(definitions.size());
            for (SettingDefinition definition : definitions) {
                rows.add(new String[] {definition.name(), shownValue(settings, definition.name()), definition.description()});
            }
            return new TextRowsResult(List.of("name", "setting", "description"), rows, "SHOW", List.of());
        }
        String name = settingName(show.name());
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {shownValue(settings, name)});
        return new TextRowsResult(List.of(name), rows, "SHOW", List.of());
    }

    private Result reset(ResetStatement reset) {
        if (reset.all()) {
            session.settings().resetAll();
        } else {
            checkSessionSetting(reset.name());
            session.settings().reset(reset.name());
        }
        return new CommandResult("RESET");
    }

    /** The autovacuum settings are the database's, not a session's: PostgreSQL's 55P02 for SET and RESET. */
    private static void checkSessionSetting(String name) {
        if (dev.parallax.Autovacuum.ownsSetting(name)) {
            throw ParallaxException.of(SqlState.CANT_CHANGE_RUNTIME_PARAM, "parameter \"%s\" cannot be changed now",
                    settingName(name));
        }
    }

    /**
     * ALTER SYSTEM: the database-wide settings are the autovacuum daemon's; they apply at once (an
     * in-memory database has no postgresql.auto.conf to write and reload). Session settings have no
     * database-wide default to change yet: 0A000 for them.
     */
    private Result alterSystem(AlterSystemStatement alter) {
        dev.parallax.Autovacuum autovacuum = session.database().autovacuum();
        if (alter.name() == null) {
            autovacuum.configure(dev.parallax.Autovacuum.Configuration.defaults());
            return new CommandResult("ALTER SYSTEM");
        }
        String name = settingName(alter.name());
        if (!dev.parallax.Autovacuum.ownsSetting(name)) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "ALTER SYSTEM is not supported for parameter \"%s\"", name)
                    .withHint("Only the autovacuum settings are database-wide; SET changes the others for a session.");
        }
        autovacuum.alterSetting(name, alter.value());
        return new CommandResult("ALTER SYSTEM");
    }

    /** SHOW's text of {@code name}: the session's value, or the database's for the autovacuum settings. */
    private String shownValue(Settings settings, String name) {
        return dev.parallax.Autovacuum.ownsSetting(name) ? session.database().autovacuum().showSetting(name) : settings.show(name);
    }

    private Result alterTable(AlterTableOptionsStatement alter) {
        Table table = alter.tableName().table(catalog());
        table.setStorageParameters(table.storageParameters().with(alter.set(), table.isPartitioned()).without(alter.reset()));
        catalog().touch();
        return new CommandResult("ALTER TABLE");
    }

    private Result call(CallStatement call) {
        if (!call.procedure().equals("dbgen") || call.arguments().size() != 1
                || (call.arguments().getFirst().name() != null && !call.arguments().getFirst().name().equals("sf"))) {
            StringBuilder signature = new StringBuilder(call.procedure()).append('(');
            for (int index = 0; index < call.arguments().size(); index++) {
                CallStatement.CallArgument argument = call.arguments().get(index);
                signature.append(index == 0 ? "" : ", ").append(argument.name() == null ? "" : argument.name() + " => ")
                        .append(argument.string() ? "unknown" : "numeric");
            }
            throw new ParallaxException(SqlState.UNDEFINED_FUNCTION, "procedure " + signature + ") does not exist", null,
                    "No procedure matches the given name and argument types. You might need to add explicit type casts.",
                    call.position(), null);
        }
        String text = call.arguments().getFirst().value();
        double scaleFactor;
        try {
            scaleFactor = Double.parseDouble(text);
        } catch (NumberFormatException notANumber) {
            throw ParallaxException.of(SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type numeric: \"%s\"", text);
        }
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "dbgen scale factor must be positive: %s", text);
        }
        ExecutionContext context = session.newContext(null, false);
        try {
            services.generateTpch(scaleFactor, context);
            analyzeTpchKeys(context);
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            session.running().finish(context);
        }
        return new CommandResult("CALL");
    }

    /**
     * ANALYZE of the TPC-H tables dbgen just loaded, as a TPC-H kit runs ANALYZE after loading: the
     * planner orders joins by the keys' distinct counts and the filtered columns' figures
     * ({@code n_name = 'SAUDI ARABIA'} is one nation of 25, {@code o_orderstatus = 'F'} one status of 3).
     */
    private void analyzeTpchKeys(ExecutionContext context) {
        for (String name : List.of("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")) {
            Table table = catalog().table(name);
            TableStatistics statistics = TableAnalyzer.analyze(table, null, context::isCancelled);
            if (statistics == null) {
                context.checkCancelled();
            }
            table.setStatistics(statistics);
        }
    }

    private Result copy(CopyStatement copy) {
        Table table = copy.tableName().table(catalog());
        int[] columns;
        if (copy.columns().isEmpty()) {
            columns = new int[table.columns().size()];
            for (int index = 0; index < columns.length; index++) {
                columns[index] = index;
            }
        } else {
            columns = new int[copy.columns().size()];
            Set<String> seen = new HashSet<>();
            for (int index = 0; index < columns.length; index++) {
                String name = copy.columns().get(index);
                if (!seen.add(name)) {
                    throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", name);
                }
                columns[index] = table.columnIndex(name);
                if (columns[index] < 0) {
                    throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                            name, table.name());
                }
            }
        }
        if (copy.fileName() == null) {
            if (!isAllColumnsInOrder(columns, table.columns().size())) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "COPY with a column list is not supported yet")
                        .withHint("List all columns of \"" + table.name() + "\" in table order, or none.");
            }
            return new CopyCommands(session).fromStdin(table, copy.options());
        }
        Path file = Path.of(copy.fileName());
        if (!Files.isRegularFile(file)) {
            String reason = Files.isDirectory(file) ? "Is a directory" : "No such file or directory";
            throw ParallaxException.of(Files.isDirectory(file) ? SqlState.WRONG_OBJECT_TYPE : SqlState.UNDEFINED_FILE,
                    "could not open file \"%s\" for reading: %s", copy.fileName(), reason);
        }
        ExecutionContext context = session.newContext(null, false);
        long rows;
        try {
            rows = services.copyFrom(table, columns, file, copy.options(), context);
        } catch (RuntimeException failure) {
            throw OperatorResult.asParallaxException(failure);
        } finally {
            session.running().finish(context);
        }
        return new CommandResult("COPY " + rows, rows, List.of());
    }

    private static boolean isAllColumnsInOrder(int[] columns, int columnCount) {
        if (columns.length != columnCount) {
            return false;
        }
        for (int index = 0; index < columns.length; index++) {
            if (columns[index] != index) {
                return false;
            }
        }
        return true;
    }

    private Result transaction(TransactionStatement transaction) {
        TransactionBlock block = session.transactionBlock();
        return switch (transaction.kind()) {
            case BEGIN -> block.begin(session.settings(), "BEGIN");
            case START -> block.begin(session.settings(), "START TRANSACTION");
            case COMMIT -> block.commit(session.settings());
            case ROLLBACK -> block.rollback(session.settings());
        };
    }
}
