package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.View;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.List;
import java.util.Objects;

/**
 * A view seen by Calcite: its row type is its query's, validated against the same catalog snapshot,
 * with the view's column names; where it is referenced, its query is expanded in place (through
 * the converter's view expander), so the planner optimizes it together with the outer query.
 */
public final class EngineView extends AbstractTable implements TranslatableTable {
    /** Validates a view's query; gives its row type (field names are the query's). */
    @FunctionalInterface
    public interface QueryTypes {
        RelDataType rowType(String query, RelDataTypeFactory typeFactory);
    }

    private final View view;
    private final QueryTypes queryTypes;

    public EngineView(View view, QueryTypes queryTypes) {
        this.view = Objects.requireNonNull(view, "view");
        this.queryTypes = Objects.requireNonNull(queryTypes, "queryTypes");
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        List<RelDataTypeField> fields = queryTypes.rowType(view.query(), typeFactory).getFieldList();
        RelDataTypeFactory.Builder builder = typeFactory.builder();
        for (int index = 0; index < fields.size(); index++) {
            builder.add(view.columnNames().get(index), fields.get(index).getType());
        }
        return builder.build();
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
        RelDataType rowType = relOptTable.getRowType();
        RelRoot root = context.expandView(rowType, view.query(), List.of(), List.of(view.name()));
        // Renames the query's columns to the view's (the types are the same: one validation gave both).
        return RelOptUtil.createCastRel(root.project(), rowType, true);
    }
}
