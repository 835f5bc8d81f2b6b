package dev.parallax.cli;

import dev.parallax.Result;
import dev.parallax.engine.type.SessionTimeZone;
import dev.parallax.engine.type.ValueText;
import dev.parallax.engine.vector.Batch;

import java.util.function.Consumer;

/** Walks the rows of a result as PostgreSQL text (null for SQL NULL), honouring each batch's selection. */
final class ResultRows {
    private ResultRows() {
    }

    /**
     * Reads every remaining batch of {@code result} and hands each row to {@code action}. The array
     * passed is reused for the next row: copy it to keep it. Returns the number of rows.
     */
    static long forEach(Result result, Consumer<String[]> action) {
        return forEach(result, null, action);
    }

    /** As {@link #forEach(Result, Consumer)}, showing NULL as {@code nullDisplay} when it is not null. */
    static long forEach(Result result, String nullDisplay, Consumer<String[]> action) {
        String[] row = new String[result.columns().size()];
        SessionTimeZone zone = result.timeZone();
        long rows = 0;
        Batch batch;
        while ((batch = result.nextBatch()) != null) {
            int count = batch.selectedCount();
            for (int index = 0; index < count; index++) {
                int position = batch.position(index);
                for (int column = 0; column < row.length; column++) {
                    String text = ValueText.format(batch.column(column), position, zone);
                    row[column] = text == null ? nullDisplay : text;
                }
                action.accept(row);
                rows++;
            }
        }
        return rows;
    }

    /** psql's footer: {@code (1 row)} or {@code (N rows)}. */
    static String footer(long rows) {
        return rows == 1 ? "(1 row)" : "(" + rows + " rows)";
    }
}
