package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;

import java.util.List;

/**
 * Rows on their way into a table: PostgreSQL's assignment conversion from the source types to the
 * column types (a too-long varchar or a bit string of the wrong length is an error, not truncated
 * as an explicit cast would), the NOT NULL check on the converted rows and the table's CHECK
 * constraints ({@link CheckedRows}). Shared by INSERT (plain and ON CONFLICT) and UPDATE.
 */
final class AssignedRows {
    private final Table table;
    /** Per column: the assignment conversion from the input's type, or null when the types are equal. */
    private final VectorExpression[] conversions;
    private final ColumnVector[] converted;
    /** The table's CHECK constraints, or null when it has none. */
    private final CheckedRows checks;

    /** Converts input rows of {@code inputTypes} (one per table column) to the table's column types. */
    AssignedRows(List<DataType> inputTypes, Table table, ExecutionContext context) {
        this.table = table;
        List<DataType> columnTypes = table.columnTypes();
        if (inputTypes.size() != columnTypes.size()) {
            throw new IllegalArgumentException("insert input has " + inputTypes.size() + " columns, table "
                    + table.name() + " has " + columnTypes.size());
        }
        this.conversions = new VectorExpression[columnTypes.size()];
        this.converted = new ColumnVector[columnTypes.size()];
        this.checks = CheckedRows.of(table, context);
        for (int column = 0; column < conversions.length; column++) {
            DataType source = inputTypes.get(column);
            DataType target = columnTypes.get(column);
            if (!source.equals(target)) {
                conversions[column] = ExpressionCompiler.compileAssignment(new ColumnRef(column, source), target, context);
            }
        }
    }

    /**
     * The rows of {@code input} converted to the column types, with {@code input}'s selection, NOT NULL
     * (23502) and CHECK constraints (23514) checked. The result's vectors may be the input's or the conversions' own: valid until
     * the next call.
     */
    Batch convert(Batch input) {
        for (int column = 0; column < converted.length; column++) {
            converted[column] = conversions[column] == null ? input.column(column) : conversions[column].evaluate(input);
        }
        Batch assigned = new Batch(converted.clone());
        assigned.setRowCount(input.rowCount());
        if (input.selection() != null) {
            assigned.setSelection(input.selection(), input.selectedCount());
        }
        checkNotNull(table, assigned);
        if (checks != null) {
            checks.check(assigned, table);
        }
        return assigned;
    }

    /** Raises PostgreSQL's 23502 for the first live row of {@code batch} (table columns) with a NULL in a NOT NULL column. */
    static void checkNotNull(Table table, Batch batch) {
        List<ColumnDefinition> columns = table.columns();
        for (int column = 0; column < columns.size(); column++) {
            ColumnVector vector = batch.column(column);
            if (!columns.get(column).notNull() || !vector.mayHaveNulls()) {
                continue;
            }
            for (int index = 0; index < batch.selectedCount(); index++) {
                int position = batch.position(index);
                if (vector.isNull(position)) {
                    throw new ParallaxException(SqlState.NOT_NULL_VIOLATION,
                            "null value in column \"" + columns.get(column).name() + "\" of relation \"" + table.name()
                                    + "\" violates not-null constraint")
                            .withDetail("Failing row contains " + rowText(batch, position) + ".");
                }
            }
        }
    }

    /** PostgreSQL's DETAIL form of a row: {@code (1, abc, null)}. */
    static String rowText(Batch batch, int position) {
        StringBuilder text = new StringBuilder("(");
        for (int column = 0; column < batch.columnCount(); column++) {
            if (column > 0) {
                text.append(", ");
            }
            String value = ValueText.format(batch.column(column), position);
            text.append(value == null ? "null" : value);
        }
        return text.append(')').toString();
    }
}
