package dev.parallax.planner;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.operator.dml.AlteredTableCopy;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.ArrayList;
import java.util.List;

/**
 * The values ALTER TABLE ... ADD COLUMN gives the rows a table holds: each added column's default
 * evaluated once per row, as PostgreSQL's rewrite does ({@code random()} differs from row to row,
 * {@code nextval} numbers them, {@code now()} is one value for the statement), NULL for a column
 * without a default. One query, {@code SELECT (default), ... FROM generate_series(1, rows)}, run by
 * the engine's vectorized expressions, its values converted to the column types as an INSERT
 * converts them (PostgreSQL's assignment cast: 22001 for a too-long varchar).
 */
final class AddedColumnDefaults implements AlteredTableCopy.AddedValues, AutoCloseable {
    private final ExecutionContext context;
    /** Per added column, its position among the query's columns, or -1 for a column without default (NULL). */
    private final int[] queryColumns;
    private final Operator operator;
    private final VectorExpression[] conversions;
    private final ColumnVector[] converted;
    private Batch current;
    private int consumed;

    /** Prepares the values of {@code rows} rows of {@code addedColumns} (in the table's order). */
    AddedColumnDefaults(SqlSession session, EngineServices services, List<ColumnDefinition> addedColumns, long rows,
                        ExecutionContext context) {
        this.context = context;
        this.queryColumns = new int[addedColumns.size()];
        List<String> items = new ArrayList<>();
        List<ColumnDefinition> queried = new ArrayList<>();
        for (int column = 0; column < queryColumns.length; column++) {
            ColumnDefinition definition = addedColumns.get(column);
            if (definition.defaultValue() == null || rows == 0) {
                queryColumns[column] = -1;
                continue;
            }
            queryColumns[column] = items.size();
            items.add("(" + definition.defaultValue().expressionText() + ")");
            queried.add(definition);
        }
        this.conversions = new VectorExpression[queried.size()];
        this.converted = new ColumnVector[queried.size()];
        if (queried.isEmpty()) {
            this.operator = null;
            return;
        }
        PlannedStatement planned = session.planFor("SELECT " + String.join(", ", items) + " FROM generate_series(1, " + rows + ")")
                .statement();
        for (int column = 0; column < conversions.length; column++) {
            conversions[column] = ExpressionCompiler.compileAssignment(new ColumnRef(column, planned.columns().get(column).type()),
                    queried.get(column).type(), context);
        }
        this.operator = services.open(planned.root(), context);
    }

    @Override
    public void fill(ColumnVector[] targets, int count) {
        for (int column = 0; column < targets.length; column++) {
            if (queryColumns[column] < 0) {
                for (int row = 0; row < count; row++) {
                    targets[column].setNull(row);
                }
            }
        }
        if (operator == null) {
            return;
        }
        int filled = 0;
        while (filled < count) {
            if (current == null || consumed == current.selectedCount()) {
                current = operator.next();
                consumed = 0;
                if (current == null) {
                    throw new IllegalStateException("the default values ran out after " + filled + " of " + count + " rows");
                }
                for (int column = 0; column < conversions.length; column++) {
                    converted[column] = conversions[column].evaluate(current);
                }
            }
            int take = Math.min(count - filled, current.selectedCount() - consumed);
            for (int column = 0; column < targets.length; column++) {
                int queryColumn = queryColumns[column];
                if (queryColumn < 0) {
                    continue;
                }
                ColumnVector source = converted[queryColumn];
                for (int index = 0; index < take; index++) {
                    targets[column].copyFrom(source, current.position(consumed + index), filled + index);
                }
            }
            consumed += take;
            filled += take;
        }
    }

    @Override
    public void close() {
        if (operator != null) {
            operator.close();
        }
    }
}
