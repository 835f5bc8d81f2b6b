package dev.parallax.planner.progress;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pg_table_size and the other size functions report the off-heap bytes the catalog's objects hold
 * when the statement runs: a table's pages, a unique index's Chronicle Map reservation, an ordered
 * index's row ids; never a figure frozen into a cached or prepared plan.
 */
class RelationSizesTest {
    private static final int PAGE_SIZE = 8 * 1024;

    @Test
    void sizesAreTheBytesOfPagesAndIndexes() {
        try (Database database = Database.inMemory(DatabaseOptions.defaults().withPageSize(PAGE_SIZE));
             Session session = database.openSession()) {
            run(session, "create table sized (id int primary key, name text)");
            run(session, "insert into sized select g, 'name ' || g from generate_series(1, 5000) g");
            run(session, "create index sized_name on sized (name)");
            Table table = database.catalog().table("sized");
            long pages = (long) table.storage().pageCount() * PAGE_SIZE;
            long primaryKey = table.uniqueConstraints().getFirst().index().reservedBytes();
            long ordered = table.indexes().getFirst().sizeBytes();
            assertTrue(table.storage().pageCount() > 1 && primaryKey > 0 && ordered > 0);
            assertEquals(List.of(List.of(pages, pages, pages, primaryKey + ordered, pages + primaryKey + ordered)),
                    rows(session, "select pg_relation_size('sized'), pg_relation_size('sized', 'main'), pg_table_size('sized'),"
                            + " pg_indexes_size('sized'), pg_total_relation_size('sized')"));
            // An index is a relation of its own: its size is its memory, it has no indexes.
            assertEquals(List.of(List.of(primaryKey, primaryKey, 0L, primaryKey), List.of(ordered, ordered, 0L, ordered)),
                    rows(session, "select pg_relation_size(c.oid), pg_table_size(c.oid), pg_indexes_size(c.oid), pg_total_relation_size(c.oid)"
                            + " from pg_class c where c.relname in ('sized_pkey', 'sized_name') order by c.relname desc"));
            assertEquals(List.of(List.of(pages + primaryKey + ordered, pages + primaryKey + ordered)),
                    rows(session, "select pg_database_size('parallax'), pg_database_size(5)"));
            // Forks PostgreSQL keeps beside the data (free space map, visibility map, init) are empty here.
            assertEquals(List.of(Arrays.asList(0L, 0L, 0L, null)),
                    rows(session, "select pg_relation_size('sized', 'fsm'), pg_relation_size('sized', 'vm'),"
                            + " pg_relation_size('sized', 'init'), pg_relation_size(0, 'fsm')"));
        }
    }

    @Test
    void aPartitionedTableHoldsNoPagesAndItsIndexOneSharedMap() {
        try (Database database = Database.inMemory(DatabaseOptions.defaults().withPageSize(PAGE_SIZE));
             Session session = database.openSession()) {
            run(session, "create table parted (id int primary key, v text) partition by hash (id)");
            run(session, "create table parted_0 partition of parted for values with (modulus 2, remainder 0)");
            run(session, "create table parted_1 partition of parted for values with (modulus 2, remainder 1)");
            run(session, "insert into parted select g, 'v' from generate_series(1, 2000) g");
            long shared = database.catalog().table("parted").partitionedConstraints().getFirst().index().reservedBytes();
            long partition0 = (long) database.catalog().table("parted_0").storage().pageCount() * PAGE_SIZE;
            long partition1 = (long) database.catalog().table("parted_1").storage().pageCount() * PAGE_SIZE;
            assertTrue(shared > 0 && partition0 > 0 && partition1 > 0);
            assertEquals(List.of(
                            List.of("parted", 0L, shared),
                            List.of("parted_0", partition0, 0L),
                            List.of("parted_0_pkey", 0L, 0L),
                            List.of("parted_1", partition1, 0L),
                            List.of("parted_1_pkey", 0L, 0L),
                            List.of("parted_pkey", shared, 0L)),
                    rows(session, "select relname, pg_table_size(oid), pg_indexes_size(oid) from pg_class"
                            + " where relname like 'parted%' order by relname"));
            assertEquals(List.of(List.of(partition0 + partition1 + shared)), rows(session, "select pg_database_size('parallax')"));
        }
    }

    @Test
    void sizesAreReadWhenTheStatementRunsNotWhenItIsPlanned() {
        try (Database database = Database.inMemory(DatabaseOptions.defaults().withPageSize(PAGE_SIZE));
             Session session = database.openSession()) {
            run(session, "create table growing (id int, filler text)");
            String query = "select pg_table_size('growing'), pg_size_pretty(pg_total_relation_size('growing'))";
            assertEquals(List.of(List.of(0L, "0 bytes")), rows(session, query));
            try (PreparedQuery prepared = session.prepare("select pg_table_size(oid) from pg_class where relname = $1")) {
                assertEquals(List.of(List.of(0L)), prepared.execute("growing").fetchAll());
                run(session, "insert into growing select g, repeat('x', 100) from generate_series(1, 1000) g");
                long bytes = (long) database.catalog().table("growing").storage().pageCount() * PAGE_SIZE;
                assertTrue(bytes > PAGE_SIZE);
                assertEquals(List.of(List.of(bytes)), prepared.execute("growing").fetchAll());
                assertEquals(List.of(List.of(bytes, (bytes / 1024) + " kB")), rows(session, query));
            }
        }
    }

    @Test
    void unknownRelationsDatabasesAndForksFailAsInPostgres() {
        try (Database database = Database.inMemory(); Session session = database.openSession()) {
            run(session, "create table known (id int)");
            assertEquals(List.of(Arrays.asList(null, null, null, null, null)),
                    rows(session, "select pg_table_size(0), pg_relation_size(null::bigint), pg_indexes_size(123456789),"
                            + " pg_database_size(6), pg_relation_size('known', null)"));
            ParallaxException relation = assertThrows(ParallaxException.class, () -> run(session, "select pg_table_size('missing')"));
            assertEquals(SqlState.UNDEFINED_TABLE, relation.state());
            assertEquals("relation \"missing\" does not exist", relation.getMessage());
            ParallaxException fork = assertThrows(ParallaxException.class, () -> run(session, "select pg_relation_size('known', 'heap')"));
            assertEquals(SqlState.INVALID_PARAMETER_VALUE, fork.state());
            assertEquals("invalid fork name", fork.getMessage());
            assertEquals("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".", fork.hint());
            ParallaxException other = assertThrows(ParallaxException.class, () -> run(session, "select pg_database_size('postgres')"));
            assertEquals(SqlState.INVALID_CATALOG_NAME, other.state());
            assertEquals("database \"postgres\" does not exist", other.getMessage());
        }
    }

    private static void run(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
        }
    }

    private static List<List<Object>> rows(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }
}
