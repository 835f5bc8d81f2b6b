package dev.parallax.planner.query.convert;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.TableSpool;
import org.apache.calcite.rel.logical.LogicalRepeatUnion;
import org.apache.calcite.schema.TransientTable;

import java.util.List;

/**
 * WITH RECURSIVE as Calcite converts it: a RepeatUnion of the non-recursive and the recursive
 * term, each under a TableSpool that writes the rows to a transient table the recursive term
 * scans. Parallax's Recursive Union keeps the rows itself: the spools go, and the recursive term's
 * scans of the transient table become {@link WorkTableScanRel}s, which no rule or translator takes
 * for a scan of a catalog table.
 */
public final class RecursiveReferences {
    private RecursiveReferences() {
    }

    public static RelNode apply(RelNode root) {
        return root.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalRepeatUnion repeatUnion) {
                RelNode seed = withoutSpool(repeatUnion.getSeedRel()).accept(this);
                RelNode iterative = withoutSpool(repeatUnion.getIterativeRel()).accept(this);
                double seedRows = seed.getCluster().getMetadataQuery().getRowCount(seed);
                iterative = iterative.accept(references(repeatUnion.getTransientTable(), seedRows));
                return repeatUnion.copy(repeatUnion.getTraitSet(), List.of(seed, iterative));
            }
        });
    }

    private static RelNode withoutSpool(RelNode node) {
        return node instanceof TableSpool spool ? spool.getInput() : node;
    }

    /** Replaces the scans of {@code table} by WorkTable Scans. */
    private static RelShuttleImpl references(RelOptTable table, double seedRows) {
        List<String> name = table.getQualifiedName();
        return new RelShuttleImpl() {
            @Override
            public RelNode visit(TableScan scan) {
                if (scan.getTable().unwrap(TransientTable.class) != null && scan.getTable().getQualifiedName().equals(name)) {
                    return new WorkTableScanRel(scan.getCluster(), scan.getTraitSet(), name.getLast(), scan.getRowType(), seedRows);
                }
                return scan;
            }
        };
    }
}
