package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Statements through the real query planner and executor. */
class SqlSessionEndToEndTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(256L << 20).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    @Test
    void createInsertSelectWithWhereAndGroupBy() {
        session.execute("create table items (id integer not null, category text, price numeric(10,2))");
        Result inserted = session.execute("insert into items values (1, 'a', 1.50), (2, 'b', 2.25), (3, 'a', 3.00)");
        assertEquals("INSERT 0 3", inserted.commandTag());
        try (Result result = session.execute("select id from items where price > 2 order by id")) {
            assertEquals(List.of(List.of(2), List.of(3)), result.fetchAll());
            assertEquals("SELECT 2", result.commandTag());
        }
        assertEquals(List.of(List.of("a", 2L, new BigDecimal("4.50")), List.of("b", 1L, new BigDecimal("2.25"))),
                rows("select category, count(*), sum(price) from items group by category order by category"));
    }

    @Test
    void preparedQueryWithParameters() {
        session.execute("create table items (id integer, name text)");
        session.execute("insert into items select g, 'item ' || g from generate_series(1, 100) g");
        PreparedQuery query = session.prepare("select name from items where id = $1");
        try (Result result = query.execute(42)) {
            assertEquals(List.of(List.of("item 42")), result.fetchAll());
        }
        try (Result result = query.execute("7")) {
            assertEquals(List.of(List.of("item 7")), result.fetchAll());
        }
        ParallaxException wrongCount = assertThrows(ParallaxException.class, () -> query.execute(1, 2));
        assertEquals(SqlState.PROTOCOL_VIOLATION, wrongCount.state());
    }

    @Test
    void functionColumnsAreNamedAfterTheFunctionWritten() {
        try (Result result = session.execute("select string_agg(x::text, ',' order by x desc), array_to_string(array_agg(x order by x desc), '-'),"
                + " greatest(1, max(x)), least(min(x), 2), split_part('a,b', ',', max(x)) from generate_series(1, 2) x")) {
            assertEquals(List.of("string_agg", "array_to_string", "greatest", "least", "split_part"),
                    result.columns().stream().map(dev.parallax.ResultColumn::name).toList());
            assertEquals(List.of(Arrays.asList("2,1", "2-1", 2, 1, "b")), result.fetchAll());
        }
    }

    @Test
    void stringFunctionColumnsAreNamedAsPostgresNamesThem() {
        // The names PostgreSQL 15 gives these columns; TRIM's forms are named after the function of their side.
        try (Result result = session.execute("select left('ab', 1), right('ab', 1), reverse('a'), initcap('a'), substr('ab', 1),"
                + " btrim('a'), ltrim('a'), rtrim('a'), trim(leading 'a' from 'ab'), trim(trailing 'a' from 'ba'), trim(' a '),"
                + " strpos('a', 'a'), ascii('a'), chr(97), starts_with('a', 'a'), translate('a', 'a', 'b'), octet_length('a'),"
                + " bit_length('a'), overlay('ab' placing 'c' from 1), quote_ident('a'), quote_literal('a'), quote_nullable('a'),"
                + " format('%s', 'a'), string_to_array('a', ','), regexp_split_to_array('a', ','), to_hex(10)")) {
            assertEquals(List.of("left", "right", "reverse", "initcap", "substr", "btrim", "ltrim", "rtrim", "ltrim", "rtrim", "btrim",
                            "strpos", "ascii", "chr", "starts_with", "translate", "octet_length", "bit_length", "overlay", "quote_ident",
                            "quote_literal", "quote_nullable", "format", "string_to_array", "regexp_split_to_array", "to_hex"),
                    result.columns().stream().map(dev.parallax.ResultColumn::name).toList());
        }
    }

    @Test
    void preparedSelectListSeriesBindsItsBoundsAndNamesItsColumns() {
        PreparedQuery query = session.prepare("select generate_series(1, $1), unnest(array['a', 'b']), generate_series($2, 1, -1) + 0");
        try (Result result = query.execute(3, 2)) {
            assertEquals(List.of("generate_series", "unnest", "?column?"), result.columns().stream().map(dev.parallax.ResultColumn::name).toList());
            assertEquals(List.of(Arrays.asList(1, "a", 2), Arrays.asList(2, "b", 1), Arrays.asList(3, null, null)), result.fetchAll());
        }
        try (Result result = query.execute(0, 0)) {
            // both series empty: the unnest's two values alone, the series padded with NULL
            assertEquals(List.of(Arrays.asList(null, "a", null), Arrays.asList(null, "b", null)), result.fetchAll());
        }
    }

    @Test
    void explainShowsThePlanAndAnalyzeAddsTimes() {
        session.execute("create table items (id integer)");
        session.execute("insert into items select g from generate_series(1, 1000) g");
        List<List<Object>> plan = rows("explain select count(*) from items");
        assertTrue(plan.getFirst().getFirst().toString().contains("Aggregate"), plan.toString());
        assertTrue(plan.stream().anyMatch(row -> row.getFirst().toString().contains("Seq Scan on items")), plan.toString());

        List<List<Object>> analyzed = rows("explain analyze select count(*) from items");
        assertTrue(analyzed.getFirst().getFirst().toString().contains("actual"), analyzed.toString());
        assertTrue(analyzed.get(analyzed.size() - 2).getFirst().toString().matches("Planning Time: \\d+\\.\\d{3} ms"));
        assertTrue(analyzed.getLast().getFirst().toString().matches("Execution Time: \\d+\\.\\d{3} ms"));
    }

    @Test
    void errorsLeaveTheSessionUsable() {
        ParallaxException missing = assertThrows(ParallaxException.class, () -> session.execute("select * from nope"));
        assertEquals(SqlState.UNDEFINED_TABLE, missing.state());
        assertEquals(List.of(List.of(2)), rows("select 1 + 1"));
    }

    @Test
    void callDbgenCreatesTheTpchTables() {
        assertEquals("CALL", session.execute("call dbgen(sf => 0.001)").commandTag());
        assertEquals(List.of(List.of(5L)), rows("select count(*) from region"));
        assertEquals(List.of(List.of(25L)), rows("select count(*) from nation"));
        ParallaxException again = assertThrows(ParallaxException.class, () -> session.execute("call dbgen(0.001)"));
        assertEquals(SqlState.DUPLICATE_TABLE, again.state());
    }
}
