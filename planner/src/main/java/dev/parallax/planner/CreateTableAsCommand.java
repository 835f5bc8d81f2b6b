package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.StorageParameters;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.statement.CreateTableAsStatement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs CREATE TABLE ... AS and SELECT ... INTO in PostgreSQL 15's order: the query is planned first
 * (its errors come first, as from PostgreSQL's parse analysis); then a relation of the name is 42P07,
 * or with IF NOT EXISTS a notice and nothing done; then the column names are checked (42601 for more
 * names than the query has columns, 42701 for a name twice). The table gets the query's column names
 * and types (a column of unknown type, such as a bare NULL, is text), no constraints and no defaults.
 * <p>
 * The rows go in by the INSERT ... SELECT machinery (participants of a Gather writing their own
 * pages when the query scans enough for workers) while the table is not yet in the catalog: no other
 * statement sees it half filled or writes to it, and a query failing midway leaves no table behind
 * (its pages go back). The tag is {@code SELECT n}, or {@code CREATE TABLE AS} when nothing is
 * inserted (WITH NO DATA, or skipped), as PostgreSQL's.
 */
final class CreateTableAsCommand {
    private static final String TAG = "CREATE TABLE AS";

    private final SqlSession session;
    private final EngineServices services;

    CreateTableAsCommand(SqlSession session, EngineServices services) {
        this.session = session;
        this.services = services;
    }

    Result run(CreateTableAsStatement create) {
        // A temporary table's name need only be free among the session's temporary relations.
        Catalog catalog = create.temporary() != null ? session.catalog().temporary() : session.catalog().shared();
        Table[] made = new Table[1];
        boolean[] exists = new boolean[1];
        PlannedStatement insert;
        try {
            insert = services.planInsertFromQuery(create.query(), session.settings(), columns -> {
                if (catalog.relationExists(create.tableName())) {
                    exists[0] = true;
                    throw ParallaxException.of(SqlState.DUPLICATE_TABLE, "relation \"%s\" already exists", create.tableName());
                }
                made[0] = newTable(create, columns);
                // As in PostgreSQL: after the query's own errors and the name's, before any row (22023 leaves no table).
                made[0].setStorageParameters(StorageParameters.NONE.with(create.storageParameters(), false));
                return made[0];
            });
        } catch (ParallaxException failure) {
            if (made[0] != null) {
                made[0].storage().close();
            }
            if (exists[0] && create.ifNotExists()) {
                return UtilityCommands.skippedExisting(TAG, create.tableName());
            }
            throw failure.position() > 0 ? failure.withPosition(failure.position() + create.queryOffset()) : failure;
        }
        Table table = made[0];
        try {
            Result result = create.withData() ? session.start(insert, new Object[0]) : new CommandResult(TAG);
            catalog.addTable(table);
            if (create.temporary() != null) {
                session.temporaryTables().created(table, create.temporary().onCommit());
            }
            return result;
        } catch (RuntimeException failure) {
            table.storage().close();
            if (failure instanceof ParallaxException duplicate && duplicate.state() == SqlState.DUPLICATE_TABLE && create.ifNotExists()) {
                // Another session created the name while the query ran.
                return UtilityCommands.skippedExisting(TAG, create.tableName());
            }
            throw failure;
        }
    }

    /** The table (not cataloged) for the query's {@code columns}, renamed by the statement's column list. */
    private Table newTable(CreateTableAsStatement create, List<ResultColumn> columns) {
        if (create.columnNames().size() > columns.size()) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "too many column names were specified");
        }
        List<ColumnDefinition> definitions = new ArrayList<>(columns.size());
        Set<String> names = new HashSet<>();
        for (int index = 0; index < columns.size(); index++) {
            ResultColumn column = columns.get(index);
            String name = index < create.columnNames().size() ? create.columnNames().get(index) : column.name();
            if (!names.add(name)) {
                throw ParallaxException.of(SqlState.DUPLICATE_COLUMN, "column \"%s\" specified more than once", name);
            }
            definitions.add(new ColumnDefinition(name, columnType(name, column.type()), false));
        }
        return new Table(create.tableName(), definitions, services.createStorage(definitions.stream().map(ColumnDefinition::type).toList()));
    }

    /**
     * The column type for a query column of {@code type}: PostgreSQL resolves a column of unknown
     * type (a bare NULL) to text. Parallax keeps year-month and day-time intervals apart, which a
     * table column of PostgreSQL's one interval type could not: 0A000, as CREATE TABLE has no interval.
     */
    private static DataType columnType(String name, DataType type) {
        if (type.kind() == TypeKind.NULL) {
            return DataType.TEXT;
        }
        DataType scalar = type.kind() == TypeKind.ARRAY ? type.element() : type;
        if (type.isVector() || scalar.kind() == TypeKind.INTERVAL_YEAR_MONTH || scalar.kind() == TypeKind.INTERVAL_DAY_TIME) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "column \"%s\" has type %s, which Parallax tables cannot hold yet",
                    name, type.sqlName());
        }
        return type;
    }
}
