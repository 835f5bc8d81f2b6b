package dev.parallax.engine.operator.dml;

import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.eval.ExpressionCompiler;
import dev.parallax.engine.expr.eval.Predicate;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * A table's CHECK constraints compiled for one writer (INSERT, UPDATE, ON CONFLICT DO UPDATE, COPY,
 * the prepared point upsert): per constraint the vectorized predicate {@code condition IS FALSE},
 * compiled once, which selects the rows that violate it (a NULL condition passes, as in
 * PostgreSQL). Checking a batch evaluates each predicate over the batch into one reused selection
 * array: nothing is allocated or interpreted per row. Writers hold null instead of an instance
 * when the table has no constraint ({@link #of}), so they pay one null test.
 */
public final class CheckedRows {
    private final List<CheckConstraint> constraints;
    private final Predicate[] violations;
    private int[] violating = new int[0];

    private CheckedRows(List<CheckConstraint> constraints, ExecutionContext context) {
        this.constraints = constraints;
        this.violations = new Predicate[constraints.size()];
        for (int index = 0; index < violations.length; index++) {
            Call violated = new Call(Function.IS_FALSE, DataType.BOOLEAN, constraints.get(index).condition());
            violations[index] = ExpressionCompiler.compilePredicate(violated, context);
        }
    }

    /** The checks of rows written to {@code table} (its partitions' too), or null when it has no CHECK constraint. */
    public static CheckedRows of(Table table, ExecutionContext context) {
        List<CheckConstraint> constraints = table.checkConstraints();
        return constraints.isEmpty() ? null : new CheckedRows(constraints, context);
    }

    /**
     * Raises PostgreSQL's 23514 for the first constraint that a live row of {@code rows} (the
     * table's columns) violates, naming {@code relation}, or the partition the row belongs to when
     * {@code relation} is partitioned, as PostgreSQL checks a row in its partition.
     */
    public void check(Batch rows, Table relation) {
        if (violating.length < rows.rowCount()) {
            violating = new int[Math.max(rows.rowCount(), 2 * violating.length)];
        }
        for (int index = 0; index < violations.length; index++) {
            if (violations[index].select(rows, violating) > 0) {
                throw violation(rows, violating[0], constraints.get(index), relation);
            }
        }
    }

    private static ParallaxException violation(Batch rows, int position, CheckConstraint constraint, Table relation) {
        Table reported = relation;
        if (relation.isPartitioned()) {
            PartitionRouter router = relation.partitionRouter();
            int[] ordinals = new int[rows.rowCount()];
            router.route(rows, ordinals);
            if (ordinals[position] != PartitionRouter.NO_PARTITION) {
                reported = router.partitions().get(ordinals[position]);
            }
        }
        return ParallaxException.of(SqlState.CHECK_VIOLATION, "new row for relation \"%s\" violates check constraint \"%s\"",
                reported.name(), constraint.name()).withDetail("Failing row contains " + AssignedRows.rowText(rows, position) + ".");
    }
}
