package dev.parallax.engine.operator.join;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.OperatorBuilder;
import dev.parallax.engine.operator.BatchCopier;
import dev.parallax.engine.plan.CorrelateNode;
import dev.parallax.engine.plan.JoinType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.Arrays;

/**
 * Runs a {@link CorrelateNode}: for each live outer row, binds the correlated columns as
 * parameters, builds the inner plan's operators for that run and reads them (SEMI and ANTI stop at
 * the first inner row), then closes them. This is the fallback for subqueries the planner could not
 * turn into joins: one build of the inner plan per outer row, as PostgreSQL re-runs a SubPlan, so it
 * suits the few-row outer inputs of catalog queries. An inner run can give more rows than an output
 * batch holds: the operator keeps the run open and resumes it on the next call.
 */
final class CorrelateOperator implements Operator {
    private final CorrelateNode node;
    private final OperatorBuilder builder;
    private final ExecutionContext context;
    private final Operator outer;
    private final JoinType joinType;
    private final int[] correlatedColumns;
    private final int parameterSlots;
    private final int outerWidth;
    private final Batch output;
    /** The output's inner columns, as a batch that inner rows are appended to. */
    private final Batch innerColumns;
    private Batch outerBatch;
    /** Index into the outer batch's live rows of the row whose inner run is open (or next). */
    private int outerIndex;
    private Operator innerRun;
    private boolean matched;

    CorrelateOperator(CorrelateNode node, OperatorBuilder builder, Operator outer, Batch output) {
        this.node = node;
        this.builder = builder;
        this.context = builder.context();
        this.outer = outer;
        this.joinType = node.joinType();
        this.correlatedColumns = node.correlatedColumns();
        int slots = context.parameterCount();
        for (int column : correlatedColumns) {
            slots = Math.max(slots, node.parameterIndex(column) + 1);
        }
        this.parameterSlots = slots;
        this.outerWidth = node.outer().outputTypes().size();
        this.output = output;
        this.innerColumns = new Batch(Arrays.copyOfRange(output.columns(), outerWidth, output.columnCount()));
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        output.reset();
        int produced = 0;
        while (produced < Batch.DEFAULT_CAPACITY) {
            if (innerRun == null && !startNextRun()) {
                break;
            }
            Batch inner = innerRun.next();
            int position = outerBatch.position(outerIndex);
            if (inner == null) {
                finishRun();
                if (!matched && (joinType == JoinType.LEFT || joinType == JoinType.ANTI)) {
                    copyOuterRow(position, produced, 1);
                    for (int column = outerWidth; column < output.columnCount(); column++) {
                        output.column(column).setNull(produced);
                    }
                    produced++;
                }
                continue;
            }
            matched = true;
            switch (joinType) {
                case SEMI -> {
                    finishRun();
                    copyOuterRow(position, produced, 1);
                    produced++;
                }
                case ANTI -> finishRun();
                case INNER, LEFT -> {
                    int count = inner.selectedCount();
                    copyOuterRow(position, produced, count);
                    BatchCopier.appendLiveRows(inner, innerColumns, produced);
                    produced += count;
                }
                case RIGHT, FULL -> throw new IllegalStateException("correlated " + joinType + " join");
            }
        }
        if (produced == 0) {
            return null;
        }
        output.setRowCount(produced);
        return output;
    }

    /** Opens the inner run of the next live outer row; false when the outer input is exhausted. */
    private boolean startNextRun() {
        if (outerBatch != null) {
            outerIndex++;
        }
        while (outerBatch == null || outerIndex >= outerBatch.selectedCount()) {
            outerBatch = outer.next();
            if (outerBatch == null) {
                return false;
            }
            outerIndex = 0;
        }
        int position = outerBatch.position(outerIndex);
        Object[] parameters = context.parameters(parameterSlots);
        for (int column : correlatedColumns) {
            parameters[node.parameterIndex(column)] = value(outerBatch.column(column), position);
        }
        innerRun = builder.forCorrelatedRun(context.withParameters(parameters)).build(node.inner());
        matched = false;
        return true;
    }

    private void finishRun() {
        Operator run = innerRun;
        innerRun = null;
        run.close();
    }

    /** The value at {@code position} in the engine representation of a parameter (Long, Double, byte[]), or null. */
    private static Object value(ColumnVector vector, int position) {
        if (vector.isNull(position)) {
            return null;
        }
        return switch (vector) {
            case LongVector longs -> longs.values()[position];
            case DoubleVector doubles -> doubles.values()[position];
            case BytesVector bytes -> bytes.getBytes(position);
        };
    }

    /** Copies the outer row at {@code position} into output rows {@code target..target+count-1}. */
    private void copyOuterRow(int position, int target, int count) {
        output.ensureCapacity(target + count);
        for (int column = 0; column < outerWidth; column++) {
            ColumnVector source = outerBatch.column(column);
            ColumnVector destination = output.column(column);
            for (int row = target; row < target + count; row++) {
                destination.copyFrom(source, position, row);
            }
        }
    }

    @Override
    public void close() {
        try {
            if (innerRun != null) {
                finishRun();
            }
        } finally {
            outer.close();
        }
    }
}
