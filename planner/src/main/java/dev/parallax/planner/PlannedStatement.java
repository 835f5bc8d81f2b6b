package dev.parallax.planner;

import dev.parallax.ResultColumn;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.type.DataType;

import java.util.List;
import java.util.Objects;

/**
 * A query planned by the query planner, ready to run any number of times: the physical plan, its
 * result columns, the inferred parameter types, whether it returns rows (SELECT, VALUES) or a row
 * count (INSERT: the plan's single BIGINT row), and the command name of its tag.
 */
public record PlannedStatement(PlanNode root, List<ResultColumn> columns, List<DataType> parameterTypes,
                               boolean returnsRows, String commandName) {
    public PlannedStatement {
        Objects.requireNonNull(root, "root");
        columns = List.copyOf(columns);
        parameterTypes = List.copyOf(parameterTypes);
        Objects.requireNonNull(commandName, "commandName");
    }
}
