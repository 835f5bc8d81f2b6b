package dev.parallax.engine.vacuum;

/**
 * Told how far a vacuum of one table has got; called once per page by the participant vacuuming it
 * (in a parallel VACUUM several participants report pages of one table, not in page order), so
 * implementations are thread-safe.
 */
@FunctionalInterface
public interface VacuumProgress {
    VacuumProgress NONE = (table, pagesDone, pagesTotal) -> {
    };

    /** {@code pagesDone} of {@code pagesTotal} pages of {@code tableName} were vacuumed. */
    void pagesVacuumed(String tableName, long pagesDone, long pagesTotal);
}
