package dev.parallax.planner.query.translate;

import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.planner.query.schema.EngineTable;
import org.apache.calcite.rel.core.TableScan;

import java.util.stream.IntStream;

/** TableScan → SeqScanNode over the given columns (serial; ParallelPlanner may make it parallel). */
final class TableScanTranslator {
    private TableScanTranslator() {
    }

    static PlanNode translate(TableScan scan, RelTranslator translator) {
        Table table = scan.getTable().unwrapOrThrow(EngineTable.class).table();
        return scanOf(table, IntStream.range(0, table.columns().size()).toArray(), translator);
    }

    static SeqScanNode scanOf(Table table, int[] columns, RelTranslator translator) {
        var types = IntStream.of(columns).mapToObj(index -> table.columns().get(index).type()).toList();
        return new SeqScanNode(table, columns, false,
                translator.cost().scan(table.storage().sizeBytes(), table.storage().rowCount(), types, 1));
    }
}
