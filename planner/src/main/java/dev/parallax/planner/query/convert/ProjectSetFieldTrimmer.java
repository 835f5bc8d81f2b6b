package dev.parallax.planner.query.convert;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mappings;

import java.util.List;
import java.util.Set;

/**
 * Calcite's column trimming, which gives a node it does not know back untrimmed together with
 * everything below it; a {@link ProjectSetRel} keeps its columns (it copies every input column
 * into its rows, and {@link SetReturningProjections} already narrowed its input to the used ones)
 * but its input is trimmed as any other, so a join or scan below reads only what is needed.
 * A projection's volatile columns are kept (see {@link #trimFields(Project, ImmutableBitSet, Set)}).
 */
public final class ProjectSetFieldTrimmer extends RelFieldTrimmer {
    public ProjectSetFieldTrimmer(SqlValidator validator, RelBuilder relBuilder) {
        super(validator, relBuilder);
    }

    /**
     * Keeps a projection's volatile columns although nothing above reads them, as PostgreSQL keeps
     * them in a subquery's output: {@code select g from (select g, nextval('s') from t) s} advances
     * the sequence once per row.
     */
    @Override
    public TrimResult trimFields(Project project, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
        ImmutableBitSet.Builder kept = fieldsUsed.rebuild();
        List<RexNode> expressions = project.getProjects();
        for (int column = 0; column < expressions.size(); column++) {
            if (!RexUtil.isDeterministic(expressions.get(column))) {
                kept.set(column);
            }
        }
        return super.trimFields(project, kept.build(), extraFields);
    }

    /** Called by RelFieldTrimmer's reflective dispatch. */
    public TrimResult trimFields(ProjectSetRel projectSet, ImmutableBitSet fieldsUsed, Set<RelDataTypeField> extraFields) {
        RelNode input = projectSet.getInput();
        int inputWidth = input.getRowType().getFieldCount();
        TrimResult trimmed = trimChild(projectSet, input, ImmutableBitSet.range(inputWidth), extraFields);
        RelNode result = trimmed.left == input ? projectSet : projectSet.copy(projectSet.getTraitSet(), List.of(trimmed.left));
        return result(result, Mappings.createIdentity(result.getRowType().getFieldCount()));
    }
}
