package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.plan.AggregateNode;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.List;

/**
 * Union → AppendNode, each input cast to the union's row type where its types differ (Calcite types
 * a union by its inputs' least restrictive types; the engine's Append requires equal types).
 * UNION without ALL removes duplicates with a hash aggregate grouping on every column over the
 * Append, as PostgreSQL's HashAggregate over Append.
 */
final class UnionTranslator {
    private UnionTranslator() {
    }

    static PlanNode translate(Union union, RelTranslator translator) {
        List<DataType> types = union.getRowType().getFieldList().stream().map(RelDataTypeField::getType).map(TypeMapping::toEngine).toList();
        List<PlanNode> inputs = new ArrayList<>(union.getInputs().size());
        for (RelNode input : union.getInputs()) {
            inputs.add(castTo(translator.translate(input), types, translator.cost()));
        }
        List<PlanEstimate> estimates = inputs.stream().map(PlanNode::estimate).toList();
        AppendNode append = new AppendNode(inputs, translator.cost().append(estimates, CostModel.width(types)));
        if (union.all) {
            return append;
        }
        int[] keys = new int[types.size()];
        for (int column = 0; column < keys.length; column++) {
            keys[column] = column;
        }
        double groups = translator.cost().groups(append.estimate().rows(), keys.length);
        return new AggregateNode(append, AggregateMode.SINGLE, keys, List.of(),
                translator.cost().aggregate(append.estimate(), keys.length, 0, groups, types));
    }

    /** {@code input} with each column cast to {@code types} where its type differs (a projection), else as it is. */
    static PlanNode castTo(PlanNode input, List<DataType> types, CostModel cost) {
        if (input.outputTypes().equals(types)) {
            return input;
        }
        List<Expr> expressions = new ArrayList<>(types.size());
        for (int column = 0; column < types.size(); column++) {
            expressions.add(ArgumentTypes.castTo(new ColumnRef(column, input.outputTypes().get(column)), types.get(column)));
        }
        return new ProjectNode(input, expressions, cost.project(input.estimate(), expressions, types));
    }
}
