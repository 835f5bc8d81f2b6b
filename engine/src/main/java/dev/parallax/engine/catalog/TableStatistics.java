package dev.parallax.engine.catalog;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What ANALYZE learned about a table: its live rows and pages, and per column (in table order)
 * the statistics PostgreSQL keeps in pg_statistic that the planner's estimates use (null for a
 * column no ANALYZE has covered yet, e.g. after {@code ANALYZE t (a)}).
 */
public record TableStatistics(long rowCount, long pageCount, List<ColumnStatistics> columns, Instant analyzedAt) {
    public TableStatistics {
        columns = Collections.unmodifiableList(new ArrayList<>(columns));
        Objects.requireNonNull(analyzedAt, "analyzedAt");
    }

    /** The statistics of column {@code columnIndex} (table order), or null when not analyzed. */
    public ColumnStatistics column(int columnIndex) {
        return columns.get(columnIndex);
    }
}
