package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

import java.util.List;

/**
 * The recursive reference to the query {@code name} inside its recursive term (PostgreSQL's
 * WorkTable Scan): the rows the previous run of the term produced. Calcite reads it as a scan of a
 * transient table, which the translators would take for a catalog table ({@link RecursiveReferences}
 * puts this node in its place). PostgreSQL estimates ten times the non-recursive term's rows.
 */
public final class WorkTableScanRel extends AbstractRelNode {
    private static final double ROWS_PER_NON_RECURSIVE_ROW = 10;

    private final String name;
    private final double nonRecursiveRows;

    public WorkTableScanRel(RelOptCluster cluster, RelTraitSet traits, String name, RelDataType rowType, double nonRecursiveRows) {
        super(cluster, traits);
        this.name = name;
        this.rowType = rowType;
        this.nonRecursiveRows = nonRecursiveRows;
    }

    /** The name of the recursive query read. */
    public String name() {
        return name;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new WorkTableScanRel(getCluster(), traitSet, name, rowType, nonRecursiveRows);
    }

    @Override
    public double estimateRowCount(RelMetadataQuery metadata) {
        return Math.max(1, nonRecursiveRows * ROWS_PER_NON_RECURSIVE_ROW);
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        return super.explainTerms(writer).item("name", name);
    }
}
