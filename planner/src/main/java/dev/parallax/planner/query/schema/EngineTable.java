package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.List;

/** An engine table seen by Calcite's validator: its columns with mapped types and its row count. */
public final class EngineTable extends AbstractTable {
    private final Table table;

    public EngineTable(Table table) {
        this.table = table;
    }

    public Table table() {
        return table;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        // Every column is nullable to Calcite: NOT NULL is enforced by the engine's insert operator
        // on the rows it stores, with PostgreSQL's 23502 error and DETAIL, for omitted columns,
        // explicit NULLs and INSERT ... SELECT alike (Calcite's validator would reject only omitted
        // columns, with a message of its own).
        for (ColumnDefinition column : table.columns()) {
            builder.add(column.name(), TypeMapping.toCalcite(typeFactory, column.type(), true));
        }
        return builder.build();
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(table.storage().rowCount(), List.of());
    }
}
