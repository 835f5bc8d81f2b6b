package dev.parallax.planner;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.progress.CatalogViewStorage;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code pg_prepared_statements} system view: the named prepared statements of the session
 * that reads it (SQL PREPARE and the wire protocol's named statements), PostgreSQL 15's columns.
 * Where Parallax differs: {@code prepare_time} is a timestamp (UTC) since Parallax has no
 * timestamptz; {@code parameter_types} is text[] of the types' names, which prints as PostgreSQL's
 * regtype[] does; {@code generic_plans} counts every execution (EXPLAIN EXECUTE included), since
 * each runs the plan made once at PREPARE with its parameters bound when it starts, which is
 * PostgreSQL's generic plan, and {@code custom_plans} is always 0 (Parallax makes none).
 */
public final class PreparedStatementsView {
    public static final String VIEW_NAME = "pg_prepared_statements";
    static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("name", DataType.TEXT, true),
            new ColumnDefinition("statement", DataType.TEXT, true),
            new ColumnDefinition("prepare_time", DataType.TIMESTAMP, true),
            new ColumnDefinition("parameter_types", DataType.array(DataType.TEXT), true),
            new ColumnDefinition("from_sql", DataType.BOOLEAN, true),
            new ColumnDefinition("generic_plans", DataType.BIGINT, true),
            new ColumnDefinition("custom_plans", DataType.BIGINT, true));
    private static final DataType TYPE_NAMES = DataType.array(DataType.TEXT);

    private PreparedStatementsView() {
    }

    /** The view's catalog table; it has no rows of its own: each session scans {@link #storage} instead. */
    public static Table table() {
        return Table.systemView(VIEW_NAME, COLUMNS, new CatalogViewStorage(VIEW_NAME, COLUMNS, List::of));
    }

    /** The view's rows in the session that holds {@code statements}, read when scanned. */
    static TableStorage storage(NamedStatements statements) {
        return new CatalogViewStorage(VIEW_NAME, COLUMNS, () -> rows(statements));
    }

    private static List<Object[]> rows(NamedStatements statements) {
        List<Object[]> rows = new ArrayList<>();
        for (NamedStatements.NamedStatement statement : statements.list()) {
            Object[] typeNames = statement.parameterTypes().stream().map(DataType::nameWithoutModifier).toArray();
            rows.add(new Object[] {statement.name(), statement.text(), statement.prepareTime(),
                    ParameterBinder.convert(TYPE_NAMES, typeNames), statement.fromSql(), statement.query().executions(), 0L});
        }
        return rows;
    }
}
