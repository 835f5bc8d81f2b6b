package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * psql's default aligned format (border 1), byte for byte: headers centered, numeric columns
 * right-aligned and the others left-aligned, a {@code ---+---} rule, multi-line values continued
 * with a {@code +} marker, no trailing padding after the last column, a {@code (N rows)} footer and
 * a blank line. Column widths need every row, so the rows are held until the last batch.
 */
final class AlignedResultPrinter implements ResultPrinter {
    private final boolean tuplesOnly;
    private final String nullDisplay;

    AlignedResultPrinter(boolean tuplesOnly) {
        this(tuplesOnly, null);
    }

    AlignedResultPrinter(boolean tuplesOnly, String nullDisplay) {
        this.tuplesOnly = tuplesOnly;
        this.nullDisplay = nullDisplay;
    }

    @Override
    public long print(Result result, PrintStream out) {
        List<ResultColumn> columns = result.columns();
        int columnCount = columns.size();
        CellText[] header = new CellText[columnCount];
        int[] widths = new int[columnCount];
        boolean[] rightAligned = new boolean[columnCount];
        for (int column = 0; column < columnCount; column++) {
            header[column] = CellText.of(columns.get(column).name());
            // psql sizes columns by their headers even when it does not print them (-t).
            widths[column] = header[column].maxWidth();
            rightAligned[column] = columns.get(column).type().kind().isNumeric();
        }
        List<CellText[]> rows = new ArrayList<>();
        ResultRows.forEach(result, nullDisplay, values -> {
            CellText[] cells = new CellText[columnCount];
            for (int column = 0; column < columnCount; column++) {
                cells[column] = CellText.of(values[column]);
                widths[column] = Math.max(widths[column], cells[column].maxWidth());
            }
            rows.add(cells);
        });

        StringBuilder text = new StringBuilder();
        if (!tuplesOnly) {
            if (columnCount == 0) {
                text.append("--\n");
            } else {
                appendHeader(text, header, widths);
                appendRule(text, widths);
            }
        }
        if (columnCount > 0) {
            for (CellText[] cells : rows) {
                appendRow(text, cells, widths, rightAligned);
                if (text.length() > 1 << 16) {
                    out.print(text);
                    text.setLength(0);
                }
            }
        }
        if (!tuplesOnly) {
            text.append(ResultRows.footer(rows.size())).append('\n');
        }
        text.append('\n');
        out.print(text);
        return rows.size();
    }

    private static void appendHeader(StringBuilder text, CellText[] header, int[] widths) {
        int lines = maxLines(header);
        for (int line = 0; line < lines; line++) {
            text.append(' ');
            for (int column = 0; column < header.length; column++) {
                CellText cell = header[column];
                boolean hasLine = line < cell.lineCount();
                int cellWidth = hasLine ? cell.widths()[line] : 0;
                int padding = widths[column] - cellWidth;
                spaces(text, padding / 2);
                if (hasLine) {
                    text.append(cell.lines()[line]);
                }
                spaces(text, (padding + 1) / 2);
                text.append(line + 1 < cell.lineCount() ? '+' : ' ');
                if (column + 1 < header.length) {
                    text.append("| ");
                }
            }
            text.append('\n');
        }
    }

    private static void appendRule(StringBuilder text, int[] widths) {
        for (int column = 0; column < widths.length; column++) {
            if (column > 0) {
                text.append('+');
            }
            text.append("-".repeat(widths[column] + 2));
        }
        text.append('\n');
    }

    private static void appendRow(StringBuilder text, CellText[] cells, int[] widths, boolean[] rightAligned) {
        int lines = maxLines(cells);
        int last = cells.length - 1;
        for (int line = 0; line < lines; line++) {
            text.append(' ');
            for (int column = 0; column <= last; column++) {
                CellText cell = cells[column];
                boolean hasLine = line < cell.lineCount();
                boolean continues = line + 1 < cell.lineCount();
                // The last column is padded only where a marker follows it, as psql does.
                boolean pad = column < last || continues;
                if (hasLine) {
                    int padding = widths[column] - cell.widths()[line];
                    if (rightAligned[column]) {
                        spaces(text, padding);
                        text.append(cell.lines()[line]);
                    } else {
                        text.append(cell.lines()[line]);
                        if (pad) {
                            spaces(text, padding);
                        }
                    }
                } else if (pad) {
                    spaces(text, widths[column]);
                }
                if (column < last) {
                    text.append(continues ? '+' : ' ').append("| ");
                } else if (continues) {
                    text.append('+');
                }
            }
            text.append('\n');
        }
    }

    private static int maxLines(CellText[] cells) {
        int lines = 1;
        for (CellText cell : cells) {
            lines = Math.max(lines, cell.lineCount());
        }
        return lines;
    }

    private static void spaces(StringBuilder text, int count) {
        for (int index = 0; index < count; index++) {
            text.append(' ');
        }
    }
}
