package dev.parallax.cli;

import dev.parallax.planner.result.TextRowsResult;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * psql's aligned table with a title, as its describe commands print: the title centered over the
 * table (left-aligned when wider), then the table, then either the {@code (N rows)} footer or the
 * command's own footer lines ({@code Options: ...}) — never both.
 */
final class TitledTable {
    private TitledTable() {
    }

    /**
     * The table text. {@code footers} null keeps the row-count footer; a list (even empty)
     * replaces it.
     */
    static String format(String title, List<String> columns, List<String[]> rows, List<String> footers) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream stream = new PrintStream(buffer, false, StandardCharsets.UTF_8);
             TextRowsResult result = new TextRowsResult(columns, rows, "SELECT " + rows.size(), List.of())) {
            new AlignedResultPrinter(false).print(result, stream);
        }
        String table = buffer.toString(StandardCharsets.UTF_8);
        // The rule line spans the table: psql's width_total.
        int ruleStart = table.indexOf('\n') + 1;
        int tableWidth = DisplayWidth.of(table.substring(ruleStart, table.indexOf('\n', ruleStart)));
        StringBuilder text = new StringBuilder();
        int titleWidth = DisplayWidth.of(title);
        if (titleWidth < tableWidth) {
            text.repeat(' ', (tableWidth - titleWidth) / 2);
        }
        text.append(title).append('\n');
        if (footers == null) {
            text.append(table);
        } else {
            // Drop "(N rows)\n\n" and put the command's footers in its place.
            int footerStart = table.lastIndexOf('\n', table.length() - 3) + 1;
            text.append(table, 0, footerStart);
            for (String footer : footers) {
                text.append(footer).append('\n');
            }
            text.append('\n');
        }
        return text.toString();
    }
}
