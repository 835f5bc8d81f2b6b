package dev.parallax.engine.plan;

import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/** Checks and column types shared by the join nodes. */
final class JoinNodes {
    private JoinNodes() {
    }

    static List<DataType> joinedTypes(PlanNode probe, PlanNode build) {
        List<DataType> types = new ArrayList<>(probe.outputTypes());
        types.addAll(build.outputTypes());
        return types;
    }

    static List<DataType> outputTypes(List<DataType> joinedTypes, int[] outputColumns) {
        List<DataType> types = new ArrayList<>(outputColumns.length);
        for (int column : outputColumns) {
            types.add(joinedTypes.get(column));
        }
        return types;
    }

    static void checkOutput(JoinType joinType, PlanNode probe, PlanNode build, int[] outputColumns) {
        int probeWidth = probe.outputTypes().size();
        int limit = joinType.emitsPairs() ? probeWidth + build.outputTypes().size() : probeWidth;
        for (int column : outputColumns) {
            if (column < 0 || column >= limit) {
                throw new IllegalArgumentException("output column " + column + " is not a column of the " + joinType + " join's output");
            }
        }
    }
}
