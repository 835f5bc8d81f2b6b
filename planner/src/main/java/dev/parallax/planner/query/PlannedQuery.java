package dev.parallax.planner.query;

import dev.parallax.ResultColumn;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * A planned SELECT/VALUES/INSERT: the engine plan, the result columns as PostgreSQL labels them,
 * the type of each parameter ($1 first), whether it returns rows (SELECT) or a count (INSERT),
 * and the command tag's verb.
 */
public record PlannedQuery(PlanNode root, List<ResultColumn> columns, List<DataType> parameterTypes, boolean returnsRows,
                           String commandName) {
    public PlannedQuery {
        columns = List.copyOf(columns);
        parameterTypes = List.copyOf(parameterTypes);
    }
}
