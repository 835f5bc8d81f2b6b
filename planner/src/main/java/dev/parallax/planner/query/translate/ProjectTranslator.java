package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Project → ProjectNode; a projection of plain columns straight over a table scan becomes the
 * scan's column list, so the scan reads only the columns the query needs.
 */
final class ProjectTranslator {
    private ProjectTranslator() {
    }

    static PlanNode translate(Project project, RelTranslator translator) {
        if (project.getInput() instanceof TableScan scan && project.getProjects().stream().allMatch(RexInputRef.class::isInstance)) {
            int[] columns = project.getProjects().stream().mapToInt(node -> ((RexInputRef) node).getIndex()).toArray();
            return TableScanTranslator.scanOf(scan.getTable().unwrapOrThrow(EngineTable.class).table(), columns, translator);
        }
        PlanNode input;
        List<RexNode> projects = project.getProjects();
        if (project.getInput() instanceof TableScan scan) {
            TableScanTranslator.PrunedScan pruned = TableScanTranslator.pruned(scan, projects, translator);
            input = pruned.scan();
            projects = pruned.nodes();
        } else {
            input = translator.translate(project.getInput());
        }
        List<Expr> expressions = new ArrayList<>(project.getProjects().size());
        boolean identity = project.getProjects().size() == input.outputTypes().size();
        for (int index = 0; index < projects.size(); index++) {
            RexNode node = projects.get(index);
            Expr expression = translator.rex().translate(node);
            identity &= expression instanceof ColumnRef ref && ref.index() == index && ref.type().equals(input.outputTypes().get(index));
            expressions.add(expression);
        }
        if (identity) {
            return input;
        }
        var types = expressions.stream().map(Expr::type).toList();
        return new ProjectNode(input, expressions, translator.cost().project(input.estimate(), expressions, types));
    }

}
