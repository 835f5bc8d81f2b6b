package dev.parallax.engine.operator;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Executor;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Test helpers: contexts, tables filled from Java values, and running plans into rows of Java values. */
public final class TestExecution {
    private TestExecution() {
    }

    public static ExecutionContext context(WorkerPool workers, Settings settings, Object... parameters) {
        return new ExecutionContext(new MemoryManager(1L << 30), workers, settings, parameters, 0, false);
    }

    public static ExecutionContext analyzeContext(WorkerPool workers, Settings settings) {
        return new ExecutionContext(new MemoryManager(1L << 30), workers, settings, new Object[0], 0, true);
    }

    /** A table whose rows are given as Java values (Long, Double, String for text, null). */
    public static Table table(String name, List<String> columnNames, List<DataType> types, int rowsPerPage, List<List<Object>> rows) {
        InMemoryTableStorage storage = new InMemoryTableStorage(types, rowsPerPage);
        List<ColumnDefinition> columns = new ArrayList<>();
        for (int index = 0; index < types.size(); index++) {
            columns.add(new ColumnDefinition(columnNames.get(index), types.get(index), false));
        }
        if (!rows.isEmpty()) {
            storage.append(batch(types, rows));
        }
        return new Table(name, columns, storage);
    }

    public static Batch batch(List<DataType> types, List<List<Object>> rows) {
        Batch batch = Batch.create(types, Math.max(1, rows.size()));
        for (int row = 0; row < rows.size(); row++) {
            for (int column = 0; column < types.size(); column++) {
                Object value = rows.get(row).get(column);
                ConstantValues.store(batch.column(column), row, value instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : value);
            }
        }
        batch.setRowCount(rows.size());
        return batch;
    }

    public static List<List<Object>> run(PlanNode plan, ExecutionContext context) {
        return run(plan, context, null);
    }

    public static List<List<Object>> run(PlanNode plan, ExecutionContext context, ExecutionStatistics statistics) {
        try (Operator operator = Executor.open(plan, context, statistics)) {
            return drain(operator);
        }
    }

    public static List<List<Object>> drain(Operator operator) {
        List<List<Object>> rows = new ArrayList<>();
        Batch batch;
        while ((batch = operator.next()) != null) {
            for (int index = 0; index < batch.selectedCount(); index++) {
                int position = batch.position(index);
                List<Object> row = new ArrayList<>();
                for (ColumnVector column : batch.columns()) {
                    Object value = ConstantValues.read(column, position);
                    row.add(column instanceof BytesVector && value != null ? new String((byte[]) value, StandardCharsets.UTF_8) : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** Rows sorted by their text form, to compare multisets. */
    public static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((left, right) -> Arrays.toString(left.toArray()).compareTo(Arrays.toString(right.toArray())));
        return copy;
    }

    public static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
