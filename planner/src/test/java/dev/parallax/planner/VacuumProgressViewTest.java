package dev.parallax.planner;

import dev.parallax.engine.vacuum.VacuumProgress;
import dev.parallax.planner.progress.VacuumProgressRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** pg_stat_progress_vacuum: the tables being vacuumed now, from the database's registry. */
class VacuumProgressViewTest extends SmallPagesDatabaseTest {
    private static final String VIEW_QUERY = "select pid, datname, relid = (select oid from pg_class where relname = 't'), phase, "
            + "heap_blks_total, heap_blks_scanned, heap_blks_vacuumed, index_vacuum_count, max_dead_tuples is null, "
            + "num_dead_tuples is null from pg_stat_progress_vacuum";

    @Test
    void showsATableFromItsFirstPageReportUntilItsLast() {
        rows("create table t (id integer)");
        VacuumProgressRegistry registry = database.vacuumProgressRegistry();
        List<String> alsoTold = new ArrayList<>();
        VacuumProgress progress = registry.forSession(7, (table, done, total) -> alsoTold.add(table + " " + done + "/" + total));
        assertEquals(List.of(), rows(VIEW_QUERY));
        progress.pagesVacuumed("t", 3, 10);
        // A participant reporting an earlier page does not move the figure back.
        progress.pagesVacuumed("t", 2, 10);
        assertEquals(List.of(List.of(7, "parallax", true, "scanning heap", 10L, 3L, 3L, 0L, true, true)), rows(VIEW_QUERY));
        progress.pagesVacuumed("t", 10, 10);
        assertEquals(List.of(), rows(VIEW_QUERY));
        assertEquals(List.of("t 3/10", "t 2/10", "t 10/10"), alsoTold);
    }

    @Test
    void aFinishedStatementLeavesNothingBehind() {
        rows("create table t (id integer)");
        rows("create table u (id integer)");
        VacuumProgress progress = database.vacuumProgressRegistry().forSession(3, VacuumProgress.NONE);
        progress.pagesVacuumed("t", 1, 4);
        progress.pagesVacuumed("u", 1, 4);
        database.vacuumProgressRegistry().forSession(4, VacuumProgress.NONE).pagesVacuumed("u", 2, 8);
        assertEquals(List.of(List.of(3, "t"), List.of(3, "u"), List.of(4, "u")),
                rows("select pid, (select relname from pg_class c where c.oid = v.relid) from pg_stat_progress_vacuum v order by 1, 2"));
        // Cancelled or failed: the statement's end takes its tables off the view.
        database.vacuumProgressRegistry().sessionFinished(3);
        assertEquals(List.of(List.of(4)), rows("select pid from pg_stat_progress_vacuum"));
    }

    @Test
    void vacuumStatementsAndAutovacuumEndWithAnEmptyView() {
        rows("create table t (id integer, note text)");
        rows("insert into t select g, 'note ' || g from generate_series(1, 20000) as s(g)");
        rows("delete from t where id % 3 = 0");
        rows("vacuum (parallel 1) t");
        assertEquals(List.of(List.of(0L)), rows("select count(*) from pg_stat_progress_vacuum"));
        rows("delete from t where id % 3 = 1");
        assertEquals(1, database.autovacuum().runRound().size());
        assertEquals(List.of(List.of(0L)), rows("select count(*) from pg_stat_progress_vacuum"));
        assertEquals(List.of(List.of(6667L)), rows("select count(*) from t"));
    }
}
