package dev.parallax.engine.tpch;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TpchLoaderTest {
    @Test
    void loadsScaleFactorOneHundredthExactly() {
        MemoryManager memory = new MemoryManager(1L << 30);
        Catalog catalog = new Catalog();
        ForkJoinPool pool = new ForkJoinPool(3);
        try (PageAllocator allocator = new PageAllocator(memory, 128 * 1024)) {
            Map<String, long[]> progress = new ConcurrentHashMap<>();
            Map<String, Long> rows = new TpchLoader(catalog, allocator).load(0.01, pool, 3,
                    (table, done, expected) -> progress.put(table, new long[] {done, expected}));
            assertEquals(Map.of("lineitem", 60175L, "orders", 15000L, "customer", 1500L, "part", 2000L,
                    "partsupp", 8000L, "supplier", 100L, "nation", 25L, "region", 5L), rows);
            assertEquals(60175L, progress.get("lineitem")[0]);
            assertEquals(60175L, progress.get("lineitem")[1], "the final report gives the exact total");
            assertEquals(15000L, catalog.table("orders").storage().rowCount());

            Table lineitem = catalog.table("lineitem");
            assertEquals(DataType.decimal(15, 2), lineitem.columns().get(lineitem.columnIndex("l_extendedprice")).type());
            // First row of lineitem.tbl at SF 0.01:
            // 1|1552|93|1|17|24710.35|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|egular courts above the|
            Batch batch = Batch.create(lineitem.columnTypes(), 16);
            int[] all = new int[16];
            for (int column = 0; column < 16; column++) {
                all[column] = column;
            }
            lineitem.storage().readPage(0, all, batch);
            assertEquals(1, longAt(batch, 0));
            assertEquals(1552, longAt(batch, 1));
            assertEquals(93, longAt(batch, 2));
            assertEquals(1, longAt(batch, 3));
            assertEquals(1700, longAt(batch, 4));
            assertEquals(2471035, longAt(batch, 5));
            assertEquals(4, longAt(batch, 6));
            assertEquals(2, longAt(batch, 7));
            assertEquals("N", textAt(batch, 8));
            assertEquals("O", textAt(batch, 9));
            assertEquals(LocalDate.of(1996, 3, 13).toEpochDay(), longAt(batch, 10));
            assertEquals(LocalDate.of(1996, 2, 12).toEpochDay(), longAt(batch, 11));
            assertEquals(LocalDate.of(1996, 3, 22).toEpochDay(), longAt(batch, 12));
            assertEquals("DELIVER IN PERSON        ", textAt(batch, 13), "char(25) is blank-padded");
            assertEquals("TRUCK     ", textAt(batch, 14));
            assertEquals("egular courts above the", textAt(batch, 15));

            assertRowsInGeneratorOrder(lineitem);
            Table nation = catalog.table("nation");
            Batch nations = Batch.create(List.of(DataType.charType(25)), 4);
            nation.storage().readPage(0, new int[] {1}, nations);
            assertEquals("ALGERIA                  ", ((BytesVector) nations.column(0)).getString(0));

            for (Table table : catalog.tables()) {
                catalog.dropTable(table.name());
            }
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every lineitem row matches the generator's own text line, in order: the parts were appended in order. */
    private static void assertRowsInGeneratorOrder(Table lineitem) {
        PagedTableStorage storage = (PagedTableStorage) lineitem.storage();
        int[] columns = {0, 3, 5, 10, 15};
        List<DataType> types = lineitem.columnTypes();
        Batch batch = Batch.create(List.of(types.get(0), types.get(3), types.get(5), types.get(10), types.get(15)), 16);
        var expected = TpchTable.LINE_ITEM.createGenerator(0.01, 1, 1).iterator();
        long checked = 0;
        for (int page = 0; page < storage.pageCount(); page++) {
            int rows = storage.readPage(page, columns, batch);
            for (int position = 0; position < rows; position++) {
                LineItem item = expected.next();
                assertEquals(item.getOrderKey(), ((LongVector) batch.column(0)).get(position));
                assertEquals(item.getLineNumber(), ((LongVector) batch.column(1)).get(position));
                assertEquals(item.getExtendedPriceInCents(), ((LongVector) batch.column(2)).get(position));
                assertEquals(LocalDate.parse(item.toLine().split("\\|")[10]).toEpochDay(), ((LongVector) batch.column(3)).get(position));
                assertEquals(item.getComment(), ((BytesVector) batch.column(4)).getString(position));
                checked++;
            }
        }
        assertEquals(60175, checked);
    }

    private static long longAt(Batch batch, int column) {
        return ((LongVector) batch.column(column)).get(0);
    }

    private static String textAt(Batch batch, int column) {
        return ((BytesVector) batch.column(column)).getString(0);
    }

    @Test
    void anExistingTableStopsTheLoadBeforeAnythingIsCreated() {
        MemoryManager memory = new MemoryManager(1L << 30);
        Catalog catalog = new Catalog();
        try (PageAllocator allocator = new PageAllocator(memory, 128 * 1024)) {
            catalog.addTable(new Table("orders", TpchLoader.columns("orders", 1),
                    new PagedTableStorage(List.of(DataType.INTEGER), allocator)));
            ParallaxException error = assertThrows(ParallaxException.class,
                    () -> new TpchLoader(catalog, allocator).load(0.01, ForkJoinPool.commonPool(), 2, TpchProgressListener.NONE));
            assertEquals(SqlState.DUPLICATE_TABLE, error.state());
            assertEquals("relation \"orders\" already exists", error.getMessage());
            assertEquals(1, catalog.tables().size());
            assertNull(catalog.findTable("region"));
        }
    }

    @Test
    void runningOutOfMemoryDropsEveryTable() {
        MemoryManager memory = new MemoryManager(4L << 20);
        Catalog catalog = new Catalog();
        ForkJoinPool pool = new ForkJoinPool(2);
        try (PageAllocator allocator = new PageAllocator(memory, 64 * 1024, 4)) {
            ParallaxException error = assertThrows(ParallaxException.class,
                    () -> new TpchLoader(catalog, allocator).load(0.01, pool, 2, TpchProgressListener.NONE));
            assertEquals(SqlState.OUT_OF_MEMORY, error.state());
            assertEquals(List.of(), catalog.tables());
            assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
        } finally {
            pool.shutdownNow();
        }
    }
}
