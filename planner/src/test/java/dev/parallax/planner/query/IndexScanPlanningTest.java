package dev.parallax.planner.query;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.plan.IndexScanNode;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.sort.SortOptions;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plan shapes with ordered indexes: which predicates and ORDER BY ... LIMIT an index answers, and enable_indexscan. */
class IndexScanPlanningTest {
    private final Catalog catalog = new Catalog();
    private final QueryPlanner planner = new QueryPlanner(catalog);
    private final Settings settings = new Settings();
    private final OrderedIndex index;

    IndexScanPlanningTest() {
        // A million rows in less than a page: the index is built over no pages (planning never reads them).
        List<ColumnDefinition> columns = List.of(new ColumnDefinition("a", DataType.INTEGER, false),
                new ColumnDefinition("b", DataType.TEXT, false), new ColumnDefinition("c", DataType.BIGINT, false));
        Table table = new Table("t", columns, new FakeStorage(columns.stream().map(ColumnDefinition::type).toList(), 1_000_000, 8000));
        catalog.addTable(table);
        index = OrderedIndex.build("t_a_idx", table, new int[] {0}, SortOptions.forMaintenance(settings), null, 0, 0);
        catalog.addIndex(index);
    }

    @AfterEach
    void closeIndex() {
        index.close();
    }

    private String shape(String sql) {
        return PlanDump.dump(planner.plan(sql, settings).root());
    }

    private PlanNode root(String sql) {
        return planner.plan(sql, settings).root();
    }

    @Test
    void equalityOnTheLeadingKeyUsesTheIndex() {
        assertEquals("Index Scan using t_a_idx on t [0, 1, 2]\n", shape("select * from t where a = 5"));
        IndexScanNode scan = (IndexScanNode) root("select * from t where a = 5");
        assertEquals(scan.lower(), scan.upper());
        assertTrue(scan.lower().inclusive());
    }

    @Test
    void rangesKeepTheRestOfTheWhereAsAFilter() {
        assertEquals("""
                Filter
                  Index Scan using t_a_idx on t [0, 1, 2]
                """, shape("select * from t where a >= 10 and a < 20 and b = 'x'"));
        IndexScanNode scan = (IndexScanNode) root("select * from t where a between 10 and 20");
        assertTrue(scan.lower().inclusive() && scan.upper().inclusive());
        IndexScanNode flipped = (IndexScanNode) root("select * from t where 5 < a and 9 > a");
        assertFalse(flipped.lower().inclusive());
        assertFalse(flipped.upper().inclusive());
    }

    @Test
    void aFilterOverThePrunedColumnsOfAScanUsesTheIndexToo() {
        assertEquals("""
                Aggregate keys=[] calls=1
                  Index Scan using t_a_idx on t [0]
                """, shape("select count(*) from t where a = 5"));
        assertEquals("""
                Project 1
                  Filter
                    Index Scan using t_a_idx on t [0, 2]
                """, shape("select c from t where a between 1 and 2 and c > 7"));
    }

    @Test
    void predicatesTheIndexCannotAnswerStayOnASeqScan() {
        assertFalse(shape("select * from t where b = 'x'").contains("Index Scan"));
        assertFalse(shape("select * from t where a + 1 = 5").contains("Index Scan"));
        assertFalse(shape("select * from t where a <> 5").contains("Index Scan"));
        assertFalse(shape("select * from t where a = 5 or a = 6").contains("Index Scan"));
    }

    @Test
    void orderByTheLeadingKeyWithALimitReadsTheIndexInsteadOfSorting() {
        assertEquals("""
                Limit
                  Index Scan using t_a_idx on t [1, 0]
                """, shape("select b, a from t order by a limit 5"));
        assertEquals("""
                Limit
                  Index Scan using t_a_idx on t [1, 0]
                """, shape("select b, a from t order by a desc limit 5"));
        assertTrue(((IndexScanNode) root("select b, a from t order by a desc limit 5").inputs().getFirst()).backward());
        assertFalse(((IndexScanNode) root("select b, a from t order by a limit 5").inputs().getFirst()).backward());
        assertFalse(shape("select b, a from t order by a nulls first limit 5").contains("Index Scan"));
        assertFalse(shape("select b, a from t order by a desc nulls last limit 5").contains("Index Scan"));
        assertFalse(shape("select b, a from t order by b limit 5").contains("Index Scan"));
    }

    @Test
    void enableIndexscanOffPlansNoIndexScan() {
        settings.set("enable_indexscan", "off");
        assertFalse(shape("select * from t where a = 5").contains("Index Scan"));
        assertFalse(shape("select b, a from t order by a limit 5").contains("Index Scan"));
    }
}
