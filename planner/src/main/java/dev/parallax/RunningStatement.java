package dev.parallax;

/**
 * A statement running in some session of a {@link Database}, with its progress as last reported:
 * what it is doing ({@code phase}, e.g. "scan lineitem", "dbgen", "COPY t"), {@code done} of
 * {@code total} {@code unit}s (total 0 when unknown), and seconds since it started. The rows of
 * the {@code pg_stat_progress} view.
 */
public record RunningStatement(int session, String query, String phase, long done, long total, String unit,
                               double elapsedSeconds) {
}
