package dev.parallax.engine.load;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.StatementProgress;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.PageAllocator;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** COPY FROM with the statement's context: rows loaded as progress, cancellation between batches. */
class CopyLoaderProgressTest {
    private static final List<ColumnDefinition> COLUMNS = List.of(new ColumnDefinition("id", DataType.BIGINT, false));
    private static final WorkerPool WORKERS = new WorkerPool(1, 1);

    @TempDir
    Path directory;

    private final MemoryManager memory = new MemoryManager(1L << 30);

    @AfterAll
    static void stopWorkers() {
        WORKERS.close();
    }

    private ExecutionContext context() {
        return new ExecutionContext(memory, WORKERS, new Settings(), new Object[0], 0, false);
    }

    /** 10,000 rows: more than two of the loader's batches. */
    private Path tenThousandRows() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int row = 0; row < 10_000; row++) {
            text.append(row).append('\n');
        }
        return Files.writeString(directory.resolve("rows.dat"), text);
    }

    @Test
    void reportsRowsLoaded() throws IOException {
        Path file = tenThousandRows();
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = new Table("orders", COLUMNS, new PagedTableStorage(List.of(DataType.BIGINT), allocator));
            ExecutionContext context = context();
            assertEquals(10_000, CopyLoader.copyFrom(table, file, CopyFormat.text(), context));
            StatementProgress.Snapshot progress = context.progress().snapshot();
            assertEquals(List.of("COPY orders", 10_000L, 10_000L, "rows"),
                    List.of(progress.phase(), progress.done(), progress.total(), progress.unit()));
            assertEquals(10_000, table.storage().rowCount());
        }
    }

    @Test
    void cancelledLoadLeavesTheTableUnchanged() throws IOException {
        Path file = tenThousandRows();
        try (PageAllocator allocator = new PageAllocator(memory, 4096)) {
            Table table = new Table("orders", COLUMNS, new PagedTableStorage(List.of(DataType.BIGINT), allocator));
            ExecutionContext context = context();
            context.cancel("canceling statement due to user request");
            ParallaxException error = assertThrows(ParallaxException.class,
                    () -> CopyLoader.copyFrom(table, file, CopyFormat.text(), context));
            assertEquals(SqlState.QUERY_CANCELED, error.state());
            assertEquals("canceling statement due to user request", error.getMessage());
            assertEquals(0, table.storage().rowCount());
        }
    }
}
