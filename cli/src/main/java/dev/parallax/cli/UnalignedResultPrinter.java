package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;

import java.io.PrintStream;
import java.util.List;

/** psql's unaligned format ({@code -A}): fields joined by a separator, NULL as an empty field. */
final class UnalignedResultPrinter implements ResultPrinter {
    private final String fieldSeparator;
    private final boolean tuplesOnly;

    private final String nullDisplay;

    UnalignedResultPrinter(String fieldSeparator, boolean tuplesOnly) {
        this(fieldSeparator, tuplesOnly, null);
    }

    UnalignedResultPrinter(String fieldSeparator, boolean tuplesOnly, String nullDisplay) {
        this.fieldSeparator = fieldSeparator;
        this.tuplesOnly = tuplesOnly;
        this.nullDisplay = nullDisplay;
    }

    @Override
    public long print(Result result, PrintStream out) {
        if (!tuplesOnly) {
            StringBuilder header = new StringBuilder();
            List<ResultColumn> columns = result.columns();
            for (int column = 0; column < columns.size(); column++) {
                if (column > 0) {
                    header.append(fieldSeparator);
                }
                header.append(columns.get(column).name());
            }
            out.print(header);
            out.print('\n');
        }
        StringBuilder line = new StringBuilder();
        long rows = ResultRows.forEach(result, nullDisplay, row -> {
            line.setLength(0);
            for (int column = 0; column < row.length; column++) {
                if (column > 0) {
                    line.append(fieldSeparator);
                }
                if (row[column] != null) {
                    line.append(row[column]);
                }
            }
            line.append('\n');
            out.print(line);
        });
        if (!tuplesOnly) {
            out.print(ResultRows.footer(rows));
            out.print('\n');
        }
        return rows;
    }
}
