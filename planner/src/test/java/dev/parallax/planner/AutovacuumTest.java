package dev.parallax.planner;

import dev.parallax.Autovacuum;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.vacuum.MaintenanceResult;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.LongVector;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The autovacuum daemon, its rounds driven from the test (no sleeping), and pg_stat_user_tables. */
class AutovacuumTest extends SmallPagesDatabaseTest {
    private void run(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
        }
    }

    /** Deletes the live rows whose first column matches, through the storage. */
    private void deleteWhere(String table, LongPredicate predicate) {
        PagedTableStorage storage = (PagedTableStorage) database.catalog().table(table).storage();
        Batch ids = Batch.create(List.of(storage.columnTypes().getFirst()), 16);
        for (int page = 0; page < storage.pageCount(); page++) {
            int slots = storage.pageRowSlots(page);
            int[] all = new int[slots];
            Arrays.setAll(all, slot -> slot);
            storage.readSlots(page, all, slots, new int[] {0}, ids);
            for (int slot = 0; slot < slots; slot++) {
                if (!storage.isDeleted(page, slot) && predicate.test(((LongVector) ids.column(0)).get(slot))) {
                    storage.delete(page, slot);
                }
            }
        }
    }

    @Test
    void vacuumsATableOnceItsDeadRowsPassTheThreshold() {
        run("create table t (id integer, name text)");
        run("create table quiet (id integer)");
        run("insert into t select g, 'name ' || g from generate_series(1, 1000) as s(g)");
        run("insert into quiet values (1), (2)");
        // 100 dead of 900 live: 100 <= 50 + 0.2 * 900 = 230, nothing to do yet.
        deleteWhere("t", id -> id <= 100);
        assertEquals(List.of(), database.autovacuum().runRound());
        assertEquals(List.of(List.of("t", 900L, 100L, 0L)),
                rows("select relname, n_live_tup, n_dead_tup, autovacuum_count from pg_stat_user_tables where relname = 't'"));
        // 300 dead of 700 live: 300 > 50 + 0.2 * 700 = 190.
        deleteWhere("t", id -> id <= 300);
        List<MaintenanceResult> round = database.autovacuum().runRound();
        assertEquals(1, round.size());
        assertEquals("t", round.getFirst().task().table().name());
        assertEquals(300, round.getFirst().vacuum().rowsRemoved());
        assertEquals(List.of(
                        List.of("public", "quiet", 2L, 0L, true, true, 0L, 0L),
                        List.of("public", "t", 700L, 0L, true, false, 0L, 1L)),
                rows("select schemaname, relname, n_live_tup, n_dead_tup, last_vacuum is null, last_autovacuum is null, "
                        + "vacuum_count, autovacuum_count from pg_stat_user_tables order by relname"));
        assertEquals(List.of(List.of(700L)), rows("select count(*) from t"));
        // Nothing left to do.
        assertEquals(List.of(), database.autovacuum().runRound());
    }

    @Test
    void manualVacuumAndAnalyzeShowInTheView() {
        run("create table t (id integer)");
        run("insert into t select g from generate_series(1, 10) as s(g)");
        run("vacuum t");
        run("vacuum t");
        run("analyze t");
        List<List<Object>> row = rows("select vacuum_count, autovacuum_count, analyze_count, autoanalyze_count, "
                + "last_vacuum is not null, last_analyze is not null, last_autoanalyze is null from pg_stat_user_tables");
        assertEquals(List.of(List.of(2L, 0L, 1L, 0L, true, true, true)), row);
        Object lastVacuum = rows("select last_vacuum from pg_stat_user_tables").getFirst().getFirst();
        assertNotNull(lastVacuum);
    }

    @Test
    void offMeansNoVacuumAndTheSettingsFollowTheConfiguration() {
        run("create table t (id integer)");
        run("insert into t select g from generate_series(1, 1000) as s(g)");
        deleteWhere("t", id -> id % 2 == 0);
        Autovacuum autovacuum = database.autovacuum();
        assertTrue(autovacuum.needsVacuum(database.catalog().table("t")));
        autovacuum.configure(new Autovacuum.Configuration(false, 50, 0.2, Duration.ofMinutes(1), 3));
        assertEquals(List.of(), autovacuum.runRound());
        assertEquals(List.of(List.of("off")), rows("show autovacuum"));
        // A higher threshold: 500 dead rows are not enough.
        autovacuum.configure(new Autovacuum.Configuration(true, 500, 0.0, Duration.ofSeconds(30), 3));
        assertFalse(autovacuum.needsVacuum(database.catalog().table("t")));
        assertEquals(List.of(List.of("500")), rows("show autovacuum_vacuum_threshold"));
        assertEquals(List.of(List.of("0")), rows("show autovacuum_vacuum_scale_factor"));
        assertEquals(List.of(List.of("30s")), rows("show autovacuum_naptime"));
        autovacuum.configure(Autovacuum.Configuration.defaults());
        assertEquals(List.of(List.of("1min")), rows("show autovacuum_naptime"));
        assertEquals(List.of(List.of("0.2")), rows("show autovacuum_vacuum_scale_factor"));
        assertEquals(1, autovacuum.runRound().size());
        assertEquals(List.of(List.of(0L, 1L)), rows("select n_dead_tup, autovacuum_count from pg_stat_user_tables"));
    }

    @Test
    void aTablesStorageParametersOverrideTheDatabasesSettings() {
        run("create table strict (id integer) with (autovacuum_vacuum_threshold = 10, autovacuum_vacuum_scale_factor = 0)");
        run("create table lax (id integer)");
        run("create table off (id integer) with (autovacuum_enabled = false)");
        for (String table : List.of("strict", "lax", "off")) {
            run("insert into " + table + " select g from generate_series(1, 1000) as s(g)");
            // 20 dead of 980 live: past strict's 10 + 0 * 980, below the database's 50 + 0.2 * 980.
            run("delete from " + table + " where id <= 20");
        }
        Autovacuum autovacuum = database.autovacuum();
        assertTrue(autovacuum.needsVacuum(database.catalog().table("strict")));
        assertFalse(autovacuum.needsVacuum(database.catalog().table("lax")));
        assertEquals(List.of("strict"), autovacuum.runRound().stream().map(done -> done.task().table().name()).toList());
        // Far past the database's threshold: lax goes, off stays off until its parameter is reset.
        for (String table : List.of("lax", "off")) {
            run("delete from " + table + " where id <= 700");
        }
        assertEquals(List.of("lax"), autovacuum.runRound().stream().map(done -> done.task().table().name()).toList());
        run("alter table off reset (autovacuum_enabled)");
        assertEquals(List.of("off"), autovacuum.runRound().stream().map(done -> done.task().table().name()).toList());
        // The database's switch wins over a table's autovacuum_enabled = true, as in PostgreSQL.
        run("alter table lax set (autovacuum_enabled = true, autovacuum_vacuum_threshold = 0)");
        run("delete from lax where id <= 800");
        run("alter system set autovacuum = off");
        assertEquals(List.of(), autovacuum.runRound());
    }

    @Test
    void sessionsCannotChangeTheDaemonsSettings() {
        ParallaxException set = assertThrows(ParallaxException.class, () -> run("set autovacuum = off"));
        assertEquals(SqlState.CANT_CHANGE_RUNTIME_PARAM, set.state());
        assertEquals("parameter \"autovacuum\" cannot be changed now", set.getMessage());
        ParallaxException reset = assertThrows(ParallaxException.class, () -> run("reset autovacuum_naptime"));
        assertEquals("parameter \"autovacuum_naptime\" cannot be changed now", reset.getMessage());
        assertEquals(List.of(List.of("on")), rows("show autovacuum"));
        assertEquals(List.of(List.of("50")), rows("show autovacuum_vacuum_threshold"));
    }

    @Test
    void alterSystemChangesTheDaemonsSettingsForEverySession() {
        run("create table t (id integer)");
        run("insert into t select g from generate_series(1, 1000) as s(g)");
        deleteWhere("t", id -> id % 2 == 0);
        Autovacuum autovacuum = database.autovacuum();
        // 500 dead rows: not more than 500 + 0 * 500.
        run("alter system set autovacuum_vacuum_threshold = 500");
        run("ALTER SYSTEM SET Autovacuum_Vacuum_Scale_Factor TO '0'");
        assertEquals(List.of(List.of(true)), rows("select pg_reload_conf()"));
        assertFalse(autovacuum.needsVacuum(database.catalog().table("t")));
        assertEquals(List.of(), autovacuum.runRound());
        try (Session other = database.openSession(); Result shown = other.execute("show autovacuum_vacuum_threshold")) {
            assertEquals(List.of(List.of("500")), shown.fetchAll());
        }
        run("alter system set autovacuum_vacuum_threshold to default");
        run("alter system set autovacuum = off");
        run("alter system set autovacuum_naptime = 5");
        assertEquals(new Autovacuum.Configuration(false, 50, 0.0, Duration.ofSeconds(5), 3), autovacuum.configuration());
        assertEquals(List.of(), autovacuum.runRound());
        run("alter system reset autovacuum");
        assertEquals(1, autovacuum.runRound().size());
        run("alter system reset all");
        assertEquals(Autovacuum.Configuration.defaults(), autovacuum.configuration());
    }

    @Test
    void alterSystemRefusesWhatPostgresRefuses() {
        assertRefused(SqlState.INVALID_PARAMETER_VALUE,
                "-1 is outside the valid range for parameter \"autovacuum_vacuum_threshold\" (0 .. 2147483647)",
                "alter system set autovacuum_vacuum_threshold = -1");
        assertRefused(SqlState.INVALID_PARAMETER_VALUE, "parameter \"autovacuum\" requires a Boolean value",
                "alter system set autovacuum = maybe");
        assertRefused(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"no_such_setting\"",
                "alter system set no_such_setting = 1");
        assertRefused(SqlState.FEATURE_NOT_SUPPORTED, "ALTER SYSTEM is not supported for parameter \"work_mem\"",
                "alter system set work_mem = '8MB'");
        run("begin");
        assertRefused(SqlState.ACTIVE_SQL_TRANSACTION, "ALTER SYSTEM cannot run inside a transaction block",
                "alter system set autovacuum = off");
        run("rollback");
        assertEquals(Autovacuum.Configuration.defaults(), database.autovacuum().configuration());
    }

    private void assertRefused(SqlState state, String message, String sql) {
        ParallaxException failure = assertThrows(ParallaxException.class, () -> run(sql));
        assertEquals(state, failure.state());
        assertEquals(message, failure.getMessage());
    }

    @Test
    void theViewCannotBeWrittenOrDropped() {
        assertThrows(ParallaxException.class, () -> run("drop table pg_stat_user_tables"));
        assertEquals(List.of(List.of(0L)), rows("select count(*) from pg_stat_user_tables"));
    }
}
