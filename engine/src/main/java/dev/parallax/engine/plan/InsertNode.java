package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * Appends the input rows to {@code table}. The input produces exactly the table's columns in
 * order, already of the column types (the planner adds casts and defaults). Output: one BIGINT row,
 * the number of rows inserted. All or nothing: on any error no row is visible.
 */
public record InsertNode(Table table, PlanNode input, PlanEstimate estimate) implements PlanNode {
    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        return List.of(DataType.BIGINT);
    }
}
