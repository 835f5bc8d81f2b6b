package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ValuesNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.schema.TypeMapping;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexLiteral;

import java.util.ArrayList;
import java.util.List;

/** Values → ValuesNode with literals cast to the row type. */
final class ValuesTranslator {
    private ValuesTranslator() {
    }

    static PlanNode translate(Values values, RelTranslator translator) {
        List<DataType> types = values.getRowType().getFieldList().stream().map(RelDataTypeField::getType).map(TypeMapping::toEngine).toList();
        List<List<Expr>> rows = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            List<Expr> row = new ArrayList<>(tuple.size());
            for (int index = 0; index < tuple.size(); index++) {
                row.add(ArgumentTypes.castTo(translator.rex().translate(tuple.get(index)), types.get(index)));
            }
            rows.add(row);
        }
        return new ValuesNode(rows, types, translator.cost().rows(rows.size(), dev.parallax.planner.query.cost.CostModel.width(types)));
    }
}
