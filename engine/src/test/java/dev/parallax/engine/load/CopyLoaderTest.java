package dev.parallax.engine.load;

import dev.parallax.engine.catalog.ColumnDefinition;
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
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CopyLoaderTest {
    private static final List<ColumnDefinition> COLUMNS = List.of(
            new ColumnDefinition("id", DataType.INTEGER, true),
            new ColumnDefinition("name", DataType.varchar(10), false),
            new ColumnDefinition("price", DataType.decimal(15, 2), false),
            new ColumnDefinition("day", DataType.DATE, false));

    private final MemoryManager memory = new MemoryManager(1L << 30);

    private Table newTable(PageAllocator allocator) {
        return new Table("t", COLUMNS, new PagedTableStorage(COLUMNS.stream().map(ColumnDefinition::type).toList(), allocator));
    }

    /** Rows as "id|name|price|day" strings, NULL as "null". */
    private static List<String> rows(Table table) {
        List<String> rows = new ArrayList<>();
        Batch batch = Batch.create(table.columnTypes(), 16);
        for (int page = 0; page < table.storage().pageCount(); page++) {
            int count = table.storage().readPage(page, new int[] {0, 1, 2, 3}, batch);
            for (int position = 0; position < count; position++) {
                rows.add(((LongVector) batch.column(0)).get(position) + "|"
                        + (batch.column(1).isNull(position) ? "null" : ((BytesVector) batch.column(1)).getString(position)) + "|"
                        + (batch.column(2).isNull(position) ? "null" : ((LongVector) batch.column(2)).get(position)) + "|"
                        + (batch.column(3).isNull(position) ? "null" : LocalDate.ofEpochDay(((LongVector) batch.column(3)).get(position))));
            }
        }
        return rows;
    }

    private static Path write(String content) throws IOException {
        Path file = Files.createTempFile("copy", ".dat");
        Files.writeString(file, content);
        file.toFile().deleteOnExit();
        return file;
    }

    @Test
    void textFormatWithEscapesAndNulls() throws IOException {
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = newTable(allocator);
            Path file = write("1\tab\\tc\t12.50\t2024-02-29\n2\t\\N\t\\N\t\\N\n3\tx\\\\y\\101\t-1\t1970-01-01\r\n\\.\nignored\n");
            assertEquals(3, CopyLoader.copyFrom(table, file, CopyFormat.text()));
            assertEquals(List.of("1|ab\tc|1250|2024-02-29", "2|null|null|null", "3|x\\yA|-100|1970-01-01"), rows(table));
            table.storage().close();
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }

    @Test
    void csvFormatWithHeaderQuotesAndDelimiter() throws IOException {
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = newTable(allocator);
            Path file = write("id|name|price|day\n1|\"a|b\"|1|2000-01-01\n2||2|\n3|\"\"|3.1|2001-12-31\n4|\"say \"\"hi\"\"\"|4|2002-01-01\n5|\"two\nlines\"|5|2003-01-01\n");
            CopyFormat format = CopyFormat.csv().withDelimiter('|').withHeader(true);
            assertEquals(5, CopyLoader.copyFrom(table, file, format));
            assertEquals(List.of("1|a|b|100|2000-01-01", "2|null|200|null", "3||310|2001-12-31",
                    "4|say \"hi\"|400|2002-01-01", "5|two\nlines|500|2003-01-01"), rows(table));
            table.storage().close();
        }
    }

    @Test
    void malformedLinesLeaveTheTableUnchanged() throws IOException {
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = newTable(allocator);
            CopyLoader.copyFrom(table, write("1,a,1,2000-01-01\n"), CopyFormat.csv());

            ParallaxException missing = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, write("2,b,1,2000-01-01\n3,c\n"), CopyFormat.csv()));
            assertEquals(SqlState.BAD_COPY_FILE_FORMAT, missing.state());
            assertEquals("missing data for column \"price\"", missing.getMessage());
            assertEquals("COPY t, line 2: \"3,c\"", missing.context());

            ParallaxException extra = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, write("2,b,1,2000-01-01,9\n"), CopyFormat.csv()));
            assertEquals(SqlState.BAD_COPY_FILE_FORMAT, extra.state());
            assertEquals("extra data after last expected column", extra.getMessage());

            ParallaxException badValue = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, write("2\tb\t1\t2000-01-01\n3\tc\tabc\t2000-01-01\n"), CopyFormat.text()));
            assertEquals(SqlState.INVALID_TEXT_REPRESENTATION, badValue.state());
            assertEquals("invalid input syntax for type numeric: \"abc\"", badValue.getMessage());
            assertEquals("COPY t, line 2, column price: \"abc\"", badValue.context());

            ParallaxException notNull = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, write(",b,1,2000-01-01\n"), CopyFormat.csv()));
            assertEquals(SqlState.NOT_NULL_VIOLATION, notNull.state());
            assertEquals("null value in column \"id\" of relation \"t\" violates not-null constraint", notNull.getMessage());

            ParallaxException unterminated = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, write("2,\"b,1,2000-01-01\n"), CopyFormat.csv()));
            assertEquals("unterminated CSV quoted field", unterminated.getMessage());

            assertEquals(List.of("1|a|100|2000-01-01"), rows(table));
            assertEquals(1, table.storage().rowCount());
            table.storage().close();
        }
    }

    @Test
    void missingFile() {
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = newTable(allocator);
            ParallaxException error = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, Path.of("/nonexistent/data.csv"), CopyFormat.csv()));
            assertEquals(SqlState.UNDEFINED_FILE, error.state());
            assertEquals("could not open file \"/nonexistent/data.csv\" for reading: No such file or directory", error.getMessage());
            table.storage().close();
        }
    }

    @Test
    void manyRowsSpanBatchesAndPages() throws IOException {
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = newTable(allocator);
            StringBuilder content = new StringBuilder();
            for (int row = 0; row < 10_000; row++) {
                content.append(row).append(",n").append(row % 100).append(',').append(row).append(".5,2020-01-01\n");
            }
            assertEquals(10_000, CopyLoader.copyFrom(table, write(content.toString()), CopyFormat.csv()));
            List<String> rows = rows(table);
            assertEquals(10_000, rows.size());
            assertEquals("9999|n99|999950|2020-01-01", rows.getLast());
            table.storage().close();
        }
        assertEquals(0, memory.allocatedBytes(MemoryTag.PAGES));
    }
}
