package dev.parallax.planner.query.convert;

import dev.parallax.planner.query.function.SetReturningOperator;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's ProjectSet as a logical node: the input's columns, then one column per
 * set-returning call ({@link SetReturningOperator}) over the input row; each input row gives as
 * many rows as its longest call yields, the calls in lockstep. Calcite's rules know nothing of it,
 * so no filter or projection moves through it (a filter on its output is not one on its input).
 */
public final class ProjectSetRel extends SingleRel {
    /** PostgreSQL's estimate of rows per call of a set-returning function without a support function's. */
    private static final double ROWS_PER_CALL = 10;

    private final List<RexCall> calls;

    public ProjectSetRel(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexCall> calls) {
        super(cluster, traits, input);
        this.calls = List.copyOf(calls);
    }

    /** The set-returning calls, over the input's columns. */
    public List<RexCall> calls() {
        return calls;
    }

    @Override
    protected RelDataType deriveRowType() {
        RelDataTypeFactory.Builder builder = getCluster().getTypeFactory().builder().addAll(input.getRowType().getFieldList());
        for (int index = 0; index < calls.size(); index++) {
            builder.add("srf$" + index, calls.get(index).getType());
        }
        return builder.uniquify().build();
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new ProjectSetRel(getCluster(), traitSet, sole(inputs), calls);
    }

    @Override
    public RelNode accept(RexShuttle shuttle) {
        List<RexCall> changed = new ArrayList<>(calls.size());
        boolean same = true;
        for (RexCall call : calls) {
            RexNode result = call.accept(shuttle);
            same &= result == call;
            changed.add((RexCall) result);
        }
        return same ? this : new ProjectSetRel(getCluster(), traitSet, input, changed);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery metadata) {
        return metadata.getRowCount(input) * ROWS_PER_CALL;
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer).item("calls", calls);
    }
}
