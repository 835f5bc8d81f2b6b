package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.ResultColumn;

import java.io.PrintStream;
import java.util.List;

/**
 * psql's {@code --csv} format: a header line (unless tuples only), fields separated by commas,
 * quoted only when they hold a comma, a quote, a line break, or are exactly {@code \.} (which
 * COPY would read as end of data); NULL is an empty field, no footer.
 */
final class CsvResultPrinter implements ResultPrinter {
    private static final char SEPARATOR = ',';

    private final boolean tuplesOnly;

    private final String nullDisplay;

    CsvResultPrinter(boolean tuplesOnly) {
        this(tuplesOnly, null);
    }

    CsvResultPrinter(boolean tuplesOnly, String nullDisplay) {
        this.tuplesOnly = tuplesOnly;
        this.nullDisplay = nullDisplay;
    }

    @Override
    public long print(Result result, PrintStream out) {
        StringBuilder line = new StringBuilder();
        if (!tuplesOnly) {
            List<ResultColumn> columns = result.columns();
            for (int column = 0; column < columns.size(); column++) {
                if (column > 0) {
                    line.append(SEPARATOR);
                }
                appendField(line, columns.get(column).name());
            }
            line.append('\n');
            out.print(line);
        }
        return ResultRows.forEach(result, nullDisplay, row -> {
            line.setLength(0);
            for (int column = 0; column < row.length; column++) {
                if (column > 0) {
                    line.append(SEPARATOR);
                }
                if (row[column] != null) {
                    appendField(line, row[column]);
                }
            }
            line.append('\n');
            out.print(line);
        });
    }

    static void appendField(StringBuilder line, String value) {
        if (!needsQuotes(value)) {
            line.append(value);
            return;
        }
        line.append('"');
        for (int index = 0; index < value.length(); index++) {
            char character = value.charAt(index);
            if (character == '"') {
                line.append('"');
            }
            line.append(character);
        }
        line.append('"');
    }

    private static boolean needsQuotes(String value) {
        if (value.equals("\\.")) {
            return true;
        }
        for (int index = 0; index < value.length(); index++) {
            char character = value.charAt(index);
            if (character == SEPARATOR || character == '"' || character == '\n' || character == '\r') {
                return true;
            }
        }
        return false;
    }
}
