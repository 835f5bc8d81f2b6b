package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.List;

/**
 * {@code WITH RECURSIVE name AS (non-recursive term UNION [ALL] recursive term)}, PostgreSQL's
 * Recursive Union: the rows of {@code nonRecursive}, then the rows of {@code recursive} run again
 * and again, each run reading through {@link WorkTableScanNode}s of {@code workTable} only the
 * rows the previous run produced, until a run produces none. With {@code distinct} (UNION) a row
 * equal to one produced before, by any run or earlier in the same run, is dropped before it is
 * returned or passed on. Both inputs produce the same column types; the planner casts the
 * recursive term to the non-recursive term's types.
 */
public record RecursiveUnionNode(PlanNode nonRecursive, PlanNode recursive, boolean distinct, int workTable, String name,
                                 PlanEstimate estimate) implements PlanNode {
    public RecursiveUnionNode {
        if (!nonRecursive.outputTypes().equals(recursive.outputTypes())) {
            throw new IllegalArgumentException("Recursive Union inputs differ in types: " + nonRecursive.outputTypes()
                    + " and " + recursive.outputTypes());
        }
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(nonRecursive, recursive);
    }

    @Override
    public List<DataType> outputTypes() {
        return nonRecursive.outputTypes();
    }
}
