package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [table [(column, ...)] [, ...]]},
 * {@code VACUUM (option [, ...]) [table ...]} and {@code ANALYZE [VERBOSE] [table ...]} (then
 * {@code vacuum} is false and {@code analyze} true). No tables means every user table.
 *
 * @param parallelWorkers the PARALLEL option: workers that vacuum the tables side by side (each
 *                        takes the next table when it becomes free), or -1 when not given
 */
public record VacuumStatement(boolean vacuum, boolean full, boolean verbose, boolean analyze, int parallelWorkers,
                              List<VacuumTarget> targets) implements Statement {
    public VacuumStatement {
        targets = List.copyOf(targets);
    }

    /** A table named by the statement, with the columns to analyze (empty: all) and its 1-based position in the text. */
    public record VacuumTarget(RelationName tableName, List<String> columnNames, int position) {
        public VacuumTarget {
            columnNames = List.copyOf(columnNames);
        }
    }
}
