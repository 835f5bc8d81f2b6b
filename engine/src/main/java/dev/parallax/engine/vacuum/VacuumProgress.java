package dev.parallax.engine.vacuum;

/** Told how far a vacuum of one table has got; called by the vacuuming thread once per page. */
@FunctionalInterface
public interface VacuumProgress {
    VacuumProgress NONE = (table, pagesDone, pagesTotal) -> {
    };

    /** {@code pagesDone} of {@code pagesTotal} pages of {@code tableName} were vacuumed. */
    void pagesVacuumed(String tableName, long pagesDone, long pagesTotal);
}
