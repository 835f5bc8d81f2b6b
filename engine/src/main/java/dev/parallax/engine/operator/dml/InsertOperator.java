package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.util.List;

/**
 * Appends its input to a table, all or nothing: the input is collected fully first (an error
 * while producing it leaves the table untouched) and then handed to the storage in one append,
 * which itself appends all rows or none and enforces the table's unique constraints
 * ({@link TableAppender}). Emits one BIGINT row: the number of rows inserted.
 * <p>
 * Values reach the table through PostgreSQL's assignment conversion (a too-long varchar or a
 * bit string of the wrong length is an error, not truncated as an explicit cast would), and
 * NOT NULL columns are checked here, on the converted rows, so INSERT ... SELECT is covered too.
 */
public final class InsertOperator implements Operator {
    private final Operator input;
    private final Table table;
    private final List<DataType> columnTypes;
    /** Per column: the assignment conversion from the input's type, or null when the types are equal. */
    private final VectorExpression[] assignments;
    private final ExecutionContext context;
    private boolean done;

    public InsertOperator(Operator input, List<DataType> inputTypes, Table table, ExecutionContext context) {
        this.input = input;
        this.table = table;
        this.columnTypes = table.columnTypes();
        this.context = context;
        if (inputTypes.size() != columnTypes.size()) {
            throw new IllegalArgumentException("insert input has " + inputTypes.size() + " columns, table "
                    + table.name() + " has " + columnTypes.size());
        }
        this.assignments = new VectorExpression[columnTypes.size()];
        for (int column = 0; column < assignments.length; column++) {
            DataType source = inputTypes.get(column);
            DataType target = columnTypes.get(column);
            if (!source.equals(target)) {
                assignments[column] = ExpressionCompiler.compileAssignment(new ColumnRef(column, source), target, context);
            }
        }
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        done = true;
        Batch rows = BatchCopier.emptyLike(columnTypes, Batch.DEFAULT_CAPACITY);
        ColumnVector[] converted = new ColumnVector[columnTypes.size()];
        int rowCount = 0;
        Batch batch;
        while ((batch = input.next()) != null) {
            context.checkCancelled();
            for (int column = 0; column < converted.length; column++) {
                converted[column] = assignments[column] == null ? batch.column(column) : assignments[column].evaluate(batch);
            }
            Batch assigned = new Batch(converted);
            assigned.setRowCount(batch.rowCount());
            if (batch.selection() != null) {
                assigned.setSelection(batch.selection(), batch.selectedCount());
            }
            checkNotNull(assigned);
            BatchCopier.appendLiveRows(assigned, rows, rowCount);
            rowCount += assigned.selectedCount();
        }
        rows.setRowCount(rowCount);
        if (rowCount > 0) {
            TableAppender.appendAll(table, List.of(rows));
        }
        Batch result = Batch.create(List.of(DataType.BIGINT), 1);
        ((LongVector) result.column(0)).set(0, rowCount);
        result.setRowCount(1);
        return result;
    }

    private void checkNotNull(Batch batch) {
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
    private static String rowText(Batch batch, int position) {
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

    @Override
    public void close() {
        input.close();
    }
}
