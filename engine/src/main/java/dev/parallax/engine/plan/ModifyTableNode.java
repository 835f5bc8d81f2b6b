package dev.parallax.engine.plan;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * INSERT ... [ON CONFLICT] [RETURNING], UPDATE and DELETE on one table (PostgreSQL's ModifyTable).
 * All or nothing: the statement's changes become visible in one step, or not at all.
 *
 * @param operation   INSERT, UPDATE or DELETE
 * @param table       the target table
 * @param input       INSERT: the proposed rows, one column per table column (converted to the column
 *                    types by assignment rules when executed); UPDATE/DELETE: a Seq Scan of all the
 *                    table's columns, under a Filter holding the WHERE condition when there is one
 *                    (the operator reads the rows itself, with their row ids); on a partitioned
 *                    table a {@link PartitionAppendNode} of such a scan per partition kept by pruning
 *                    (its runtime pruning applied when execution starts)
 * @param lookup      UPDATE/DELETE: a point lookup through a unique index instead of the scan, or null;
 *                    on a partitioned table (here and in {@code onConflict}) a partition's constraint
 *                    stands for the parent's constraint over the same columns
 * @param assignments UPDATE: per table column its new value over the old row's columns, or null
 *                    where the column keeps its value; empty otherwise
 * @param onConflict  INSERT ... ON CONFLICT, or null
 * @param returning   RETURNING expressions over the new row (INSERT, UPDATE) or the deleted row
 *                    (DELETE); empty without RETURNING, when the output is one BIGINT row: the count
 * @param rowIdColumn UPDATE/DELETE whose target rows come out of a plan (a join with FROM / USING
 *                    tables, a semi or anti join for a subquery in WHERE, a scalar subquery): -1
 *                    otherwise. Then {@code input} is that plan, run by the operator: its rows start
 *                    with the target row's columns, then its row id ({@link SeqScanNode#ROW_ID}) at
 *                    this position and its partition ordinal ({@link SeqScanNode#PARTITION_ORDINAL})
 *                    right after it, then whatever else the statement reads (the other tables'
 *                    columns, the SET values). A target row may come more than once (joined to several
 *                    rows): it is changed once, with its first row, as PostgreSQL changes it with one of
 *                    them. {@code assignments} and {@code returning} are then over the input row, RETURNING
 *                    with the target columns replaced by the new version (UPDATE)
 */
public record ModifyTableNode(ModifyOperation operation, Table table, PlanNode input, KeyLookup lookup, List<Expr> assignments,
                              OnConflict onConflict, List<Expr> returning, PlanEstimate estimate, int rowIdColumn) implements PlanNode {
    /** A node whose UPDATE or DELETE reads its target rows itself (or an INSERT). */
    public ModifyTableNode(ModifyOperation operation, Table table, PlanNode input, KeyLookup lookup, List<Expr> assignments,
                           OnConflict onConflict, List<Expr> returning, PlanEstimate estimate) {
        this(operation, table, input, lookup, assignments, onConflict, returning, estimate, -1);
    }

    public ModifyTableNode {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(input, "input");
        assignments = Collections.unmodifiableList(new ArrayList<>(assignments));
        returning = List.copyOf(returning);
        if (operation == ModifyOperation.UPDATE && assignments.size() != table.columns().size()) {
            throw new IllegalArgumentException("an update assigns per table column: " + assignments.size());
        }
    }

    /** Whether the input is a plan whose rows name the target rows ({@link #rowIdColumn}). */
    public boolean readsTargetRowsFromInput() {
        return rowIdColumn >= 0;
    }

    /** The WHERE condition of an UPDATE or DELETE (from its Filter input), or null (also when the input plan applies it). */
    public Expr condition() {
        if (rowIdColumn >= 0) {
            return null;
        }
        PlanNode scan = input instanceof PartitionAppendNode append && !append.inputs().isEmpty() ? append.inputs().getFirst() : input;
        return scan instanceof FilterNode filter ? filter.condition() : null;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        if (returning.isEmpty()) {
            return List.of(DataType.BIGINT);
        }
        return returning.stream().map(Expr::type).toList();
    }
}
