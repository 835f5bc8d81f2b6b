package dev.parallax.engine.operator.dml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.index.IndexDefinition;
import dev.parallax.engine.index.RowIds;
import dev.parallax.engine.index.UniqueIndexes;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.MemoryTag;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.LongVector;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TableAppenderTest {
    private final MemoryManager memory = new MemoryManager(1L << 30);
    private final PageAllocator allocator = new PageAllocator(memory, 4096);
    private final Catalog catalog = new Catalog();

    @AfterEach
    void dropAll() {
        for (String name : List.of("t", "u")) {
            catalog.dropTable(name);
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.INDEXES));
        allocator.close();
    }

    /** Table {@code name (a bigint, b text)} with a primary key on a and, when asked, UNIQUE (b). */
    private Table table(String name, boolean uniqueText) {
        List<ColumnDefinition> columns = List.of(new ColumnDefinition("a", DataType.BIGINT, true),
                new ColumnDefinition("b", DataType.TEXT, false));
        Table table = new Table(name, columns, new PagedTableStorage(List.of(DataType.BIGINT, DataType.TEXT), allocator));
        table.addUniqueConstraint(new UniqueConstraint(UniqueIndexes.create(
                IndexDefinition.primaryKey(name, List.of("a"), List.of(DataType.BIGINT)), memory), new int[] {0}));
        if (uniqueText) {
            table.addUniqueConstraint(new UniqueConstraint(UniqueIndexes.create(
                    IndexDefinition.unique(name, List.of("b"), List.of(DataType.TEXT)), memory), new int[] {1}));
        }
        catalog.addTable(table);
        return table;
    }

    private static Batch rows(long[] keys, String[] texts) {
        Batch batch = Batch.create(List.of(DataType.BIGINT, DataType.TEXT), keys.length);
        for (int position = 0; position < keys.length; position++) {
            ((LongVector) batch.column(0)).set(position, keys[position]);
            if (texts[position] == null) {
                batch.column(1).setNull(position);
            } else {
                ((BytesVector) batch.column(1)).set(position, texts[position].getBytes(StandardCharsets.UTF_8));
            }
        }
        batch.setRowCount(keys.length);
        return batch;
    }

    private static Batch keys(long... keys) {
        Batch batch = Batch.create(List.of(DataType.BIGINT), keys.length);
        for (int position = 0; position < keys.length; position++) {
            ((LongVector) batch.column(0)).set(position, keys[position]);
        }
        batch.setRowCount(keys.length);
        return batch;
    }

    @Test
    void tablesWithAKeyGoOntoHugePagesAfterEachWriteOthersNever() {
        AtomicInteger moves = new AtomicInteger();
        List<DataType> types = List.of(DataType.BIGINT, DataType.TEXT);
        List<ColumnDefinition> columns = List.of(new ColumnDefinition("a", DataType.BIGINT, true),
                new ColumnDefinition("b", DataType.TEXT, false));
        try (PageAllocator counted = new PageAllocator(memory, 4096, 4, task -> {
            moves.incrementAndGet();
            task.run();
        })) {
            Table plain = new Table("plain", columns, new PagedTableStorage(types, counted));
            long[] keys = new long[2000];
            String[] texts = new String[keys.length];
            for (int index = 0; index < keys.length; index++) {
                keys[index] = index;
                texts[index] = "row " + index;
            }
            TableAppender.appendAll(plain, List.of(rows(keys, texts)));
            assertTrue(plain.storage().pageCount() >= 8);
            assertEquals(0, moves.get(), "scanned only: ordinary pages");
            plain.storage().close();

            Table keyed = new Table("keyed", columns, new PagedTableStorage(types, counted));
            keyed.addUniqueConstraint(new UniqueConstraint(UniqueIndexes.create(
                    IndexDefinition.primaryKey("keyed", List.of("a"), List.of(DataType.BIGINT)), memory), new int[] {0}));
            TableAppender.appendAll(keyed, List.of(rows(keys, texts)));
            // Four pages per slab: every full slab moved once the append was done.
            assertEquals(keyed.storage().pageCount() / 4, moves.get());
            assertTrue(moves.get() >= 2);
            keyed.closeUniqueConstraints();
            keyed.storage().close();
        }
    }

    @Test
    void indexPointsAtTheRowsWhereverTheAppendPlacedThem() {
        Table table = table("t", false);
        int count = 3000;
        long[] keys = new long[count];
        String[] texts = new String[count];
        for (int row = 0; row < count; row++) {
            keys[row] = 10L * row;
            texts[row] = "value " + row + " " + "x".repeat(row % 40);
        }
        // Two batches in one append, the second with a selection, spread over many 4 KiB pages.
        Batch second = rows(new long[] {-1, 99_991, -2, 99_993}, new String[] {"skip", "s1", "skip", "s3"});
        second.setSelection(new int[] {1, 3}, 2);
        TableAppender.appendAll(table, List.of(rows(keys, texts), second));
        assertEquals(count + 2, table.storage().rowCount());
        assertTrue(table.storage().pageCount() > 10);

        long[] lookedUp = new long[count];
        table.uniqueConstraints().getFirst().index().lookup(keys(keys), new int[] {0}, lookedUp);
        Batch page = Batch.create(List.of(DataType.BIGINT, DataType.TEXT), Batch.DEFAULT_CAPACITY);
        for (int row = 0; row < count; row++) {
            table.storage().readPage(RowIds.pageIndex(lookedUp[row]), new int[] {0, 1}, page);
            int slot = RowIds.row(lookedUp[row]);
            assertEquals(keys[row], ((LongVector) page.column(0)).get(slot));
            assertEquals(texts[row], new String(((BytesVector) page.column(1)).getBytes(slot), StandardCharsets.UTF_8));
        }
        long[] selected = new long[2];
        table.uniqueConstraints().getFirst().index().lookup(keys(99_991, 99_993), new int[] {0}, selected);
        assertTrue(selected[0] != RowIds.ABSENT && selected[1] == selected[0] + 1);
        assertEquals(count + 2, table.uniqueConstraints().getFirst().index().size());
    }

    @Test
    void duplicateAgainstExistingRowsLeavesTableAndIndexUnchanged() {
        Table table = table("t", false);
        TableAppender.appendAll(table, List.of(rows(new long[] {1, 2}, new String[] {"a", "b"})));
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TableAppender.appendAll(table,
                List.of(rows(new long[] {3, 4}, new String[] {"c", "d"}), rows(new long[] {5, 2}, new String[] {"e", "x"}))));
        assertEquals(SqlState.UNIQUE_VIOLATION, failure.state());
        assertEquals("duplicate key value violates unique constraint \"t_pkey\"", failure.getMessage());
        assertEquals("Key (a)=(2) already exists.", failure.detail());
        assertEquals(2, table.storage().rowCount());
        assertEquals(2, table.uniqueConstraints().getFirst().index().size());
        // The keys of the failed append are free again.
        TableAppender.appendAll(table, List.of(rows(new long[] {3, 4, 5}, new String[] {"c", "d", "e"})));
        assertEquals(5, table.storage().rowCount());
    }

    @Test
    void violationOfALaterConstraintTakesTheEarlierConstraintsKeysOut() {
        Table table = table("u", true);
        TableAppender.appendAll(table, List.of(rows(new long[] {1, 2, 3}, new String[] {"a", null, "c"})));
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TableAppender.appendAll(table,
                List.of(rows(new long[] {7, 8}, new String[] {null, "x"}), rows(new long[] {9}, new String[] {"c"}))));
        assertEquals(SqlState.UNIQUE_VIOLATION, failure.state());
        assertEquals("duplicate key value violates unique constraint \"u_b_key\"", failure.getMessage());
        assertEquals("Key (b)=(c) already exists.", failure.detail());
        assertEquals(3, table.storage().rowCount());
        assertEquals(3, table.uniqueConstraints().get(0).index().size());
        assertEquals(2, table.uniqueConstraints().get(1).index().size());
        long[] found = new long[3];
        table.uniqueConstraints().get(0).index().lookup(keys(7, 8, 9), new int[] {0}, found);
        assertArrayEquals(new long[] {RowIds.ABSENT, RowIds.ABSENT, RowIds.ABSENT}, found);
    }

    @Test
    void nullPrimaryKeyIsRejectedWithoutEffect() {
        Table table = table("t", false);
        Batch batch = rows(new long[] {1, 2}, new String[] {"a", "b"});
        batch.column(0).setNull(1);
        ParallaxException failure = assertThrows(ParallaxException.class, () -> TableAppender.appendAll(table, List.of(batch)));
        assertEquals(SqlState.NOT_NULL_VIOLATION, failure.state());
        assertEquals(0, table.storage().rowCount());
        assertEquals(0, table.uniqueConstraints().getFirst().index().size());
    }
}
