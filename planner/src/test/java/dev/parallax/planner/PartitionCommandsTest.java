package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Partitioned tables through a session: execution-time pruning with parameters (EXPLAIN ANALYZE's
 * Subplans Removed), all-or-nothing routing across partitions for INSERT and COPY, the parallel
 * plan shapes over partitions, and memory given back on DROP.
 */
class PartitionCommandsTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(512L << 20).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private void run(String sql) {
        try (Result result = session.execute(sql)) {
            assertTrue(result != null);
        }
    }

    private List<List<Object>> rows(String sql, Object... parameters) {
        try (Result result = ((SqlSession) session).execute(sql, parameters)) {
            return result.fetchAll();
        }
    }

    private static List<List<Object>> fetch(PreparedQuery query, Object parameter) {
        try (Result result = query.execute(parameter)) {
            return result.fetchAll();
        }
    }

    private List<String> plan(String sql, Object... parameters) {
        List<String> lines = new ArrayList<>();
        for (List<Object> row : rows(sql, parameters)) {
            String line = (String) row.getFirst();
            if (!line.startsWith("Planning Time") && !line.startsWith("Execution Time")) {
                lines.add(line);
            }
        }
        return lines;
    }

    private long count(String sql) {
        return ((Number) rows(sql).getFirst().getFirst()).longValue();
    }

    private ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> session.execute(sql).close());
    }

    @Test
    void parametersPruneWhenExecutionStarts() {
        run("create table p (id int primary key, info text) partition by hash (id) partitions 8");
        run("insert into p select g, 'i' || g from generate_series(1, 1000) g");
        try (PreparedQuery point = session.prepare("select * from p where id = $1")) {
            for (int id : new int[] {1, 5, 777, 1000}) {
                try (Result result = point.execute(id)) {
                    assertEquals(List.of(List.of(id, "i" + id)), result.fetchAll());
                }
            }
            try (Result result = point.execute(5000)) {
                assertEquals(List.of(), result.fetchAll());
            }
            try (Result result = point.execute((Object) null)) {
                assertEquals(List.of(), result.fetchAll());
            }
        }
        List<String> pruned = plan("explain (analyze, costs off, timing off) select * from p where id = $1", 5);
        assertEquals("Append (actual rows=1 loops=1)", pruned.getFirst());
        assertEquals("  Subplans Removed: 7", pruned.get(1));
        assertEquals(4, pruned.size(), String.join("\n", pruned));
        assertTrue(pruned.get(2).startsWith("  ->  Index Scan using p_"), pruned.get(2));
        assertEquals("        Index Cond: (id = $1)", pruned.get(3));

        List<String> none = plan("explain (analyze, costs off, timing off) select * from p where id = $1", (Object) null);
        assertEquals(List.of("Append (actual rows=0 loops=1)", "  Subplans Removed: 8"), none);

        List<String> inList = plan("explain (analyze, costs off, timing off) select info from p where id in ($1, $2)", 1, 2);
        assertTrue(inList.get(1).matches("  Subplans Removed: [67]"), inList.get(1));
        assertEquals(List.of(List.of("i1"), List.of("i2")), rows("select info from p where id in ($1, $2) order by info", 1, 2));

        // = ANY of an array parameter keeps the partitions of its elements, as the IN list of the same values does.
        List<String> anyArray = plan("explain (analyze, costs off, timing off) select info from p where id = any($1)",
                (Object) new Object[] {1, null, 2});
        assertEquals(inList.get(1), anyArray.get(1));
        assertEquals(List.of("Append (actual rows=0 loops=1)", "  Subplans Removed: 8"),
                plan("explain (analyze, costs off, timing off) select info from p where id = any($1)", (Object) new int[0]));
        try (PreparedQuery any = session.prepare("select info from p where id = any($1) order by id")) {
            assertEquals(List.of(List.of("i2"), List.of("i999")), fetch(any, new int[] {999, 2, 5000}));
            assertEquals(List.of(List.of("i7")), fetch(any, "{7,NULL}"));
            assertEquals(List.of(), fetch(any, null));
            // More values than pruning takes (PartitionPruning.MAX_TUPLES): every partition is scanned.
            assertEquals(1000, fetch(any, java.util.stream.IntStream.rangeClosed(1, 5000).toArray()).size());
        }

        run("set enable_partition_pruning = off");
        List<String> unpruned = plan("explain (analyze, costs off, timing off) select * from p where id = $1", 5);
        assertTrue(unpruned.stream().noneMatch(line -> line.contains("Subplans Removed")), String.join("\n", unpruned));
        assertEquals(8, unpruned.stream().filter(line -> line.contains("Index Scan using")).count());
        assertEquals(List.of(List.of(5, "i5")), rows("select * from p where id = $1", 5));
    }

    @Test
    void constantsPruneWhenPlanning() {
        run("create table p (id int primary key, info text) partition by hash (id) partitions 1024");
        List<String> point = plan("explain (costs off) select * from p where id = 5");
        assertEquals(2, point.size(), String.join("\n", point));
        assertTrue(point.getFirst().startsWith("Index Scan using p_") && point.getFirst().contains("_pkey on p_"), point.getFirst());
        assertEquals("  Index Cond: (id = 5)", point.get(1));
        List<String> inList = plan("explain (costs off) select * from p where id in (1, 2, 3)");
        assertEquals("Append", inList.getFirst());
        assertEquals(3, inList.stream().filter(line -> line.contains("Index Scan") || line.contains("Seq Scan")).count());
        List<String> anyArray = plan("explain (costs off) select * from p where id = any('{1,2,3,NULL}')");
        assertEquals("Append", anyArray.getFirst());
        assertEquals(3, anyArray.stream().filter(line -> line.contains("Scan")).count(), String.join("\n", anyArray));
    }

    @Test
    void insertIsAllOrNothingAcrossPartitions() {
        run("create table p (id int primary key, info text) partition by hash (id) partitions 128");
        run("insert into p values (500, 'first')");
        // 1000 rows over all 128 partitions (the nested append on its own stack), one duplicate among them.
        ParallaxException duplicate = failure("insert into p select g, 'x' from generate_series(1, 1000) g");
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals("Key (id)=(500) already exists.", duplicate.detail());
        assertEquals(1, count("select count(*) from p"));
        long keys = 0;
        for (Table partition : database.catalog().table("p").partitionRouter().partitions()) {
            keys += partition.uniqueConstraints().getFirst().index().size();
        }
        assertEquals(1, keys);
        run("insert into p select g, 'x' from generate_series(1, 1000) g where g <> 500");
        assertEquals(1000, count("select count(*) from p"));
        assertEquals(500500, count("select sum(id) from p"));
    }

    @Test
    void rowWithoutPartitionFailsTheStatement() {
        run("create table p (id int, info text) partition by hash (id)");
        run("create table p_0 partition of p for values with (modulus 2, remainder 0)");
        ParallaxException missing = failure("insert into p select g, 'x' from generate_series(1, 100) g");
        assertEquals(SqlState.CHECK_VIOLATION, missing.state());
        assertEquals("no partition of relation \"p\" found for row", missing.getMessage());
        assertTrue(missing.detail().matches("Partition key of the failing row contains \\(id\\) = \\(\\d+\\)\\."), missing.detail());
        assertEquals(0, count("select count(*) from p"));
        // NULL keys hash to 0: the partition of remainder 0 takes them.
        run("insert into p values (null, 'null key')");
        assertEquals(1, count("select count(*) from p_0 where id is null"));
    }

    @Test
    void copyRoutesRows(@TempDir Path directory) throws IOException {
        run("create table p (id bigint primary key, name text) partition by hash (id) partitions 4");
        Path file = directory.resolve("rows.txt");
        StringBuilder text = new StringBuilder();
        for (int id = 1; id <= 300; id++) {
            text.append(id).append('\t').append("n").append(id).append('\n');
        }
        Files.writeString(file, text.toString());
        run("copy p from '" + file + "'");
        assertEquals(300, count("select count(*) from p"));
        assertEquals(300, count("select count(*) from p_0") + count("select count(*) from p_1")
                + count("select count(*) from p_2") + count("select count(*) from p_3"));
        assertEquals(List.of(List.of(123L, "n123")), rows("select * from p where id = 123"));
        ParallaxException duplicate = failure("copy p from '" + file + "'");
        assertEquals(SqlState.UNIQUE_VIOLATION, duplicate.state());
        assertEquals(300, count("select count(*) from p"));
    }

    @Test
    void scansAndAggregatesRunInParallelOverPartitions() {
        run("create table p (id int primary key, v bigint) partition by hash (id) partitions 16");
        run("insert into p select g, g % 7 from generate_series(1, 20000) g");
        run("set parallel_setup_cost = 0");
        run("set parallel_tuple_cost = 0");
        run("set min_parallel_table_scan_size = 0");
        List<String> aggregate = plan("explain (costs off) select count(*), sum(v) from p");
        assertEquals(List.of("Finalize Aggregate", "  ->  Gather", "        Workers Planned: 2", "        ->  Partial Aggregate",
                "              ->  Parallel Append", "                    ->  Parallel Seq Scan on p_0"), aggregate.subList(0, 6));
        assertEquals(16, aggregate.stream().filter(line -> line.contains("Parallel Seq Scan on p_")).count());
        List<Object> totals = rows("select count(*), sum(v) from p").getFirst();
        assertEquals("20000 59998", totals.get(0) + " " + totals.get(1));
        List<String> scan = plan("explain (costs off) select id from p where v = 3");
        assertEquals(List.of("Gather", "  Workers Planned: 2", "  ->  Parallel Append"), scan.subList(0, 3));
        assertEquals(2857, rows("select id from p where v = 3").size());
    }

    @Test
    void dropGivesEveryPartitionsMemoryBack() {
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.PAGES));
        run("create table p (id int primary key, info text) partition by hash (id) partitions 64");
        run("insert into p select g, md5(g::text) from generate_series(1, 20000) g");
        assertTrue(database.memory().allocatedBytes(MemoryTag.INDEXES) > 0);
        assertTrue(database.memory().allocatedBytes(MemoryTag.PAGES) > 0);
        run("drop table p");
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.PAGES));
        assertEquals(null, database.catalog().findTable("p_0"));
        // A shorthand whose partition name is taken creates nothing.
        run("create table q_3 (a int)");
        assertEquals(SqlState.DUPLICATE_TABLE, failure("create table q (id int primary key) partition by hash (id) partitions 8").state());
        assertEquals(null, database.catalog().findTable("q"));
        assertEquals(null, database.catalog().findTable("q_0"));
        run("drop table q_3");
        assertEquals(0, database.memory().allocatedBytes(MemoryTag.INDEXES));
    }
}
