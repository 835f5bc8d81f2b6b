package dev.parallax.planner.query;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.ColumnStatistics;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.TableStatistics;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Row estimates of filters from ANALYZE's statistics: equality 1/n_distinct, ranges from min/max, IS NULL from the null fraction. */
class StatisticsEstimateTest {
    private final Catalog catalog = new Catalog();
    private final QueryPlanner planner = new QueryPlanner(catalog);
    private final Settings settings = new Settings();
    private final Table table;

    StatisticsEstimateTest() {
        List<ColumnDefinition> columns = List.of(new ColumnDefinition("a", DataType.INTEGER, false),
                new ColumnDefinition("b", DataType.INTEGER, false), new ColumnDefinition("c", DataType.DOUBLE, false),
                new ColumnDefinition("d", DataType.TEXT, false));
        table = new Table("t", columns, new FakeStorage(columns.stream().map(ColumnDefinition::type).toList(), 1000, 40_000));
        catalog.addTable(table);
    }

    private double rows(String sql) {
        return planner.plan(sql, settings).root().estimate().rows();
    }

    private void analyzed() {
        table.setStatistics(new TableStatistics(1000, 5, List.of(
                new ColumnStatistics(0, 10, 1L, 10L),
                new ColumnStatistics(0, 1000, 1L, 1000L),
                new ColumnStatistics(0.25, 300, 0.0, 100.0),
                new ColumnStatistics(0.5, 4, "a".getBytes(), "z".getBytes())), Instant.EPOCH));
    }

    @Test
    void withoutStatisticsPostgresDefaultsApply() {
        assertEquals(5, rows("select * from t where a = 3"));
        assertEquals(333, rows("select * from t where b < 251"));
        assertEquals(5, rows("select * from t where c is null"));
    }

    @Test
    void equalityKeepsOneDistinctValuesShare() {
        analyzed();
        assertEquals(100, rows("select * from t where a = 3"));
        assertEquals(100, rows("select * from t where 3 = a"));
        assertEquals(900, rows("select * from t where a <> 3"));
        assertEquals(125, rows("select * from t where d = 'x'"), "(1 - 0.5) / 4 of the rows");
    }

    @Test
    void rangesInterpolateBetweenMinimumAndMaximum() {
        analyzed();
        // (251 - 1) / (1000 - 1) of the rows lie below 251.
        assertEquals(250, rows("select * from t where b < 251"));
        assertEquals(250, rows("select * from t where 251 > b"));
        assertEquals(750, rows("select * from t where b >= 251"));
        assertEquals(750, rows("select * from t where 251 <= b"));
        assertEquals(1, rows("select * from t where b < 0"));
        assertEquals(1000, rows("select * from t where b <= 1000"));
        // Both ends: the product of the two, as PostgreSQL without a histogram would take it.
        assertEquals(375, rows("select * from t where b >= 251 and b < 501"));
        // c has a quarter NULLs: 0.75 * 0.5.
        assertEquals(375, rows("select * from t where c < 50.0"));
    }

    @Test
    void isNullUsesTheNullFraction() {
        analyzed();
        assertEquals(250, rows("select * from t where c is null"));
        assertEquals(750, rows("select * from t where c is not null"));
        assertEquals(500, rows("select * from t where d is null"));
    }
}
