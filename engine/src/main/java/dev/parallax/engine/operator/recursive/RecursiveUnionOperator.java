package dev.parallax.engine.operator.recursive;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.operator.aggregate.DistinctRows;
import dev.parallax.engine.plan.RecursiveUnionNode;
import dev.parallax.engine.vector.Batch;

/**
 * Runs a {@link RecursiveUnionNode} as PostgreSQL's Recursive Union does: returns the
 * non-recursive term's rows, keeping a copy of each in the work table, then builds the recursive
 * term's operators for one run, which read the work table's rows and whose rows are returned and
 * kept for the next run; when a run ends the kept rows become the work table and the term runs
 * again, until a run keeps nothing. Rows stream out as they come, so a LIMIT above stops a
 * recursion that would never end; one that never ends is stopped by cancellation (checked per
 * batch and per run) or by the memory limit its work table and UNION's seen rows are charged to.
 */
final class RecursiveUnionOperator implements Operator {
    private final RecursiveUnionNode node;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final WorkTable workTable;
    /** The rows produced so far under UNION; null under UNION ALL. */
    private final DistinctRows seen;
    /** The non-recursive term's operator, then each run of the recursive term's; null once done. */
    private Operator current;

    RecursiveUnionOperator(RecursiveUnionNode node, OperatorBuilder builder, WorkTable workTable, DistinctRows seen,
                           Operator nonRecursive) {
        this.node = node;
        this.builder = builder;
        this.context = builder.context();
        this.workTable = workTable;
        this.seen = seen;
        this.current = nonRecursive;
    }

    @Override
    public Batch next() {
        while (current != null) {
            context.checkCancelled();
            Batch batch = current.next();
            if (batch == null) {
                startNextRun();
                continue;
            }
            if (seen != null && seen.keepNew(batch) == 0) {
                continue;
            }
            workTable.add(batch);
            return batch;
        }
        return null;
    }

    /** Ends the run of {@code current}; starts the next run of the recursive term when this one kept rows. */
    private void startNextRun() {
        Operator finished = current;
        current = null;
        finished.close();
        if (workTable.nextIsEmpty()) {
            workTable.close();
            return;
        }
        workTable.advance();
        current = builder.build(node.recursive());
    }

    @Override
    public void close() {
        try {
            if (current != null) {
                current.close();
                current = null;
            }
        } finally {
            try {
                workTable.close();
            } finally {
                if (seen != null) {
                    seen.close();
                }
            }
        }
    }
}
