package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * psql's expanded format ({@code \x on}, border 1): each record under a {@code -[ RECORD n ]---+---}
 * rule sized to the widest column name and value, then one {@code name | value} line per column
 * with values left-aligned, continuation lines of multi-line values marked with {@code +}, a blank
 * line at the end and {@code (0 rows)} for an empty result. The rule needs the widest value, so
 * the rows are held until the last batch, as in the aligned format.
 */
final class ExpandedResultPrinter implements ResultPrinter {
    private final boolean tuplesOnly;
    private final String nullDisplay;

    ExpandedResultPrinter(boolean tuplesOnly, String nullDisplay) {
        this.tuplesOnly = tuplesOnly;
        this.nullDisplay = nullDisplay;
    }

    @Override
    public long print(Result result, PrintStream out) {
        List<ResultColumn> columns = result.columns();
        int columnCount = columns.size();
        CellText[] names = new CellText[columnCount];
        int nameWidth = 0;
        for (int column = 0; column < columnCount; column++) {
            names[column] = CellText.of(columns.get(column).name());
            nameWidth = Math.max(nameWidth, names[column].maxWidth());
        }
        List<CellText[]> rows = new ArrayList<>();
        int[] valueWidth = {0};
        ResultRows.forEach(result, nullDisplay, values -> {
            CellText[] cells = new CellText[columnCount];
            for (int column = 0; column < columnCount; column++) {
                cells[column] = CellText.of(values[column]);
                valueWidth[0] = Math.max(valueWidth[0], cells[column].maxWidth());
            }
            rows.add(cells);
        });
        StringBuilder text = new StringBuilder();
        if (rows.isEmpty()) {
            if (!tuplesOnly) {
                text.append("(0 rows)\n");
            }
        }
        for (int record = 0; record < rows.size(); record++) {
            if (!tuplesOnly) {
                appendRecordRule(text, record + 1, nameWidth, valueWidth[0]);
            } else if (record > 0) {
                text.append('\n');
            }
            CellText[] cells = rows.get(record);
            for (int column = 0; column < columnCount; column++) {
                appendField(text, names[column], cells[column], nameWidth);
            }
            if (text.length() > 1 << 16) {
                out.print(text);
                text.setLength(0);
            }
        }
        text.append('\n');
        out.print(text);
        return rows.size();
    }

    /**
     * The record rule as psql's {@code print_aligned_vertical_line} draws it: the label, dashes up
     * to the name column's width, {@code -+-} where the separator falls, dashes over the values;
     * a label longer than the name column swallows the separator and as many value dashes.
     */
    static void appendRecordRule(StringBuilder text, long record, int nameWidth, int valueWidth) {
        String label = "-[ RECORD " + record + " ]";
        text.append(label);
        int written = label.length();
        for (int position = written; position < nameWidth; position++) {
            text.append('-');
        }
        int overflow = written - nameWidth;
        if (overflow-- <= 0) {
            text.append('-');
        }
        if (overflow-- <= 0) {
            text.append('+');
        }
        if (overflow-- <= 0) {
            text.append('-');
        }
        for (int position = Math.max(overflow, 0); position < valueWidth; position++) {
            text.append('-');
        }
        text.append('\n');
    }

    private static void appendField(StringBuilder text, CellText name, CellText value, int nameWidth) {
        int lines = Math.max(name.lineCount(), value.lineCount());
        for (int line = 0; line < lines; line++) {
            int nameLineWidth = 0;
            if (line < name.lineCount()) {
                text.append(name.lines()[line]);
                nameLineWidth = name.widths()[line];
            }
            for (int position = nameLineWidth; position < nameWidth; position++) {
                text.append(' ');
            }
            text.append(line + 1 < name.lineCount() ? '+' : ' ').append("| ");
            if (line < value.lineCount()) {
                text.append(value.lines()[line]);
                if (line + 1 < value.lineCount()) {
                    text.append('+');
                }
            }
            text.append('\n');
        }
    }
}
