package dev.parallax.planner.progress;

import dev.parallax.engine.vacuum.VacuumProgress;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tables being vacuumed now in one database, each with the session vacuuming it and how far it
 * has got: what {@code pg_stat_progress_vacuum} shows. A table appears with its first page report
 * and goes once all its pages are done (or its statement ends: {@link #sessionFinished}). Several
 * participants of a parallel VACUUM report pages of one table out of order; the furthest report
 * counts. Thread-safe.
 */
public final class VacuumProgressRegistry {
    /** A table being vacuumed now, as the view shows it. */
    public record TableVacuum(int session, String table, long pagesDone, long pagesTotal) {
    }

    private record Key(int session, String table) {
    }

    private final ConcurrentHashMap<Key, AtomicLong[]> running = new ConcurrentHashMap<>();

    /**
     * The progress sink of a VACUUM run by {@code session}: reports into this registry, and to
     * {@code also} (the statement's own progress in pg_stat_progress).
     */
    public VacuumProgress forSession(int session, VacuumProgress also) {
        Objects.requireNonNull(also, "also");
        return (table, pagesDone, pagesTotal) -> {
            also.pagesVacuumed(table, pagesDone, pagesTotal);
            Key key = new Key(session, table);
            if (pagesDone >= pagesTotal) {
                running.remove(key);
                return;
            }
            AtomicLong[] figures = running.computeIfAbsent(key, ignored -> new AtomicLong[] {new AtomicLong(), new AtomicLong()});
            figures[0].accumulateAndGet(pagesDone, Math::max);
            figures[1].set(pagesTotal);
        };
    }

    /** Forgets every table {@code session} was vacuuming: its statement ended, finished or not. */
    public void sessionFinished(int session) {
        running.keySet().removeIf(key -> key.session() == session);
    }

    /** The tables being vacuumed now, by session then table name. */
    public List<TableVacuum> snapshot() {
        List<TableVacuum> vacuums = new ArrayList<>();
        running.forEach((key, figures) -> vacuums.add(new TableVacuum(key.session(), key.table(), figures[0].get(), figures[1].get())));
        vacuums.sort(Comparator.comparingInt(TableVacuum::session).thenComparing(TableVacuum::table));
        return vacuums;
    }
}
