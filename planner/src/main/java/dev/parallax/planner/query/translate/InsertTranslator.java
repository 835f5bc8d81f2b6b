package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.plan.AppendNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.core.TableModify;

import java.util.ArrayList;
import java.util.List;

/**
 * TableModify(INSERT) → InsertNode. Calcite's converter orders the source as the table's columns
 * with NULL for omitted ones, and its type coercion wraps source columns in casts to the column
 * types. Those casts have explicit-cast semantics (a too-long varchar is cut), while PostgreSQL
 * applies assignment conversion to INSERT (22001, 22026): so the top-level casts to exactly the
 * column type are removed here and the engine's insert operator converts with assignment rules
 * and checks NOT NULL. (A cast the user wrote to exactly the column's type is removed too; it then
 * raises where PostgreSQL would truncate: a rare case, accepted for now.)
 */
public final class InsertTranslator {
    private InsertTranslator() {
    }

    static PlanNode translate(TableModify modify, RelTranslator translator) {
        if (modify.getOperation() != TableModify.Operation.INSERT) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "%s is not supported yet",
                    modify.getOperation().name());
        }
        Table table = modify.getTable().unwrapOrThrow(EngineTable.class).table();
        PlanNode input = withoutCoercionCasts(translator.translate(modify.getInput()), table.columnTypes());
        input = withUnboundedAppend(input, translator);
        return insertNode(table, input, translator.cost());
    }

    /**
     * The insert of {@code input}'s rows (already the table's columns, of types the insert's
     * assignment conversion accepts) into {@code table}, costed as PostgreSQL costs ModifyTable: the
     * input plus one operator per row. CREATE TABLE ... AS builds its insert here too.
     */
    public static InsertNode insertNode(Table table, PlanNode input, CostModel cost) {
        PlanEstimate estimate = input.estimate();
        return new InsertNode(table, input, new PlanEstimate(estimate.startupCost(),
                estimate.totalCost() + cost.cpuOperatorCost() * estimate.rows(), 1, 8));
    }

    /**
     * A multi-row VALUES whose rows differ in type reaches here as an Append of one-row inputs, the
     * inputs cast by Calcite to the column types (explicit casts, cutting 'abcd' to varchar(3)).
     * Casts to a bounded string or bit type are widened to text or bit varying instead, so the
     * insert operator's assignment conversion raises 22001 / 22026 as PostgreSQL does.
     */
    private static PlanNode withUnboundedAppend(PlanNode input, RelTranslator translator) {
        if (input instanceof ProjectNode project && project.input() instanceof AppendNode append) {
            PlanNode widened = unbounded(append, translator);
            return widened == append ? input : new ProjectNode(widened, retyped(project.expressions(), widened.outputTypes()),
                    project.estimate());
        }
        return input instanceof AppendNode append ? unbounded(append, translator) : input;
    }

    private static PlanNode unbounded(AppendNode append, RelTranslator translator) {
        List<DataType> types = append.outputTypes();
        List<DataType> widenedTypes = types.stream().map(InsertTranslator::unbounded).toList();
        if (widenedTypes.equals(types)) {
            return append;
        }
        List<PlanNode> inputs = new ArrayList<>();
        for (PlanNode input : append.inputs()) {
            List<Expr> expressions = new ArrayList<>();
            for (int column = 0; column < types.size(); column++) {
                Expr expression = input instanceof ProjectNode project ? project.expressions().get(column)
                        : new ColumnRef(column, types.get(column));
                if (expression instanceof Cast cast && !widenedTypes.get(column).equals(types.get(column))
                        && unbounded(cast.input().type()).equals(widenedTypes.get(column))) {
                    expression = cast.input();
                }
                expressions.add(ArgumentTypes.castTo(expression, widenedTypes.get(column)));
            }
            PlanNode below = input instanceof ProjectNode project ? project.input() : input;
            inputs.add(new ProjectNode(below, expressions, input.estimate()));
        }
        return new AppendNode(inputs, append.estimate());
    }

    private static List<Expr> retyped(List<Expr> expressions, List<DataType> inputTypes) {
        List<Expr> result = new ArrayList<>(expressions.size());
        for (Expr expression : expressions) {
            result.add(expression instanceof ColumnRef ref ? new ColumnRef(ref.index(), inputTypes.get(ref.index())) : expression);
        }
        return result;
    }

    /** The unbounded type of a length-checked type (text for character types, bit varying for bit strings). */
    private static DataType unbounded(DataType type) {
        return switch (type.kind()) {
            case CHAR, VARCHAR, TEXT -> DataType.TEXT;
            case BIT, VARBIT -> DataType.VARBIT;
            default -> type;
        };
    }

    private static PlanNode withoutCoercionCasts(PlanNode input, List<DataType> columnTypes) {
        if (!(input instanceof ProjectNode project)) {
            return input;
        }
        List<Expr> expressions = new ArrayList<>(project.expressions().size());
        boolean changed = false;
        for (int index = 0; index < project.expressions().size(); index++) {
            Expr expression = project.expressions().get(index);
            if (expression instanceof Cast cast && cast.type().equals(columnTypes.get(index))) {
                expressions.add(cast.input());
                changed = true;
            } else {
                expressions.add(expression);
            }
        }
        return changed ? new ProjectNode(project.input(), expressions, project.estimate()) : input;
    }
}
