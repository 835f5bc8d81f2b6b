package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;
import dev.parallax.planner.result.TextRowsResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * psql's {@code \x auto} for the aligned format: the rows are printed expanded when the aligned
 * table would be wider than the terminal and has more than one column (one column is narrower
 * aligned), aligned otherwise. Without a terminal (width 0: scripts, pipes) it is always aligned,
 * as psql does when its output is not a terminal. The rows are held to measure them first, which
 * the aligned format does anyway.
 */
final class AutoExpandedResultPrinter implements ResultPrinter {
    private final boolean tuplesOnly;
    private final String nullDisplay;
    private final IntSupplier terminalWidth;

    /** {@code terminalWidth} gives the terminal's columns at print time, or 0 when there is none. */
    AutoExpandedResultPrinter(boolean tuplesOnly, String nullDisplay, IntSupplier terminalWidth) {
        this.tuplesOnly = tuplesOnly;
        this.nullDisplay = nullDisplay;
        this.terminalWidth = terminalWidth;
    }

    @Override
    public long print(Result result, PrintStream out) {
        int width = terminalWidth.getAsInt();
        AlignedResultPrinter aligned = new AlignedResultPrinter(tuplesOnly, nullDisplay);
        List<ResultColumn> columns = result.columns();
        if (width <= 0 || columns.size() <= 1) {
            return aligned.print(result, out);
        }
        List<String[]> rows = new ArrayList<>();
        ResultRows.forEach(result, values -> rows.add(values.clone()));
        try (TextRowsResult held = TextRowsResult.typed(columns, rows)) {
            ResultPrinter printer = alignedWidth(columns, rows) > width
                    ? new ExpandedResultPrinter(tuplesOnly, nullDisplay) : aligned;
            return printer.print(held, out);
        }
    }

    /** The width of the aligned table's widest line (its rule): columns, " | " between them, a space each side. */
    private int alignedWidth(List<ResultColumn> columns, List<String[]> rows) {
        int total = 3 * (columns.size() - 1) + 2;
        for (int column = 0; column < columns.size(); column++) {
            int widest = CellText.of(columns.get(column).name()).maxWidth();
            for (String[] row : rows) {
                String value = row[column] == null ? nullDisplay : row[column];
                widest = Math.max(widest, CellText.of(value).maxWidth());
            }
            total += widest;
        }
        return total;
    }
}
