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
        for (ColumnDefinition column : table.columns()) {
            builder.add(column.name(), TypeMapping.toCalcite(typeFactory, column.type(), !column.notNull()));
        }
        return builder.build();
    }

    @Override
    public Statistic getStatistic() {
        return Statistics.of(table.storage().rowCount(), List.of());
    }
}
