package dev.parallax.bench;

import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * dbgen-format files ({@code table.tbl}, '|'-separated, no trailing separator) written from the same
 * generator Parallax's {@code CALL dbgen} uses, so peers (DuckDB, PostgreSQL) load identical rows.
 * Cached per scale factor under {@code target/tpch-sf<N>/}.
 */
public final class TpchFiles {
    private TpchFiles() {
    }

    /**
     * Writes the eight tables at a scale factor for loading into another database (the PostgreSQL
     * reference answers of src-test were made this way): {@code TpchFiles <scaleFactor> <parent directory>}
     * writes {@code <parent>/tpch-sf<scaleFactor>/<table>.tbl} and prints that directory.
     */
    public static void main(String[] arguments) {
        if (arguments.length != 2) {
            System.err.println("usage: TpchFiles <scale factor> <parent directory>");
            System.exit(2);
        }
        System.out.println(directory(Double.parseDouble(arguments[0]), Path.of(arguments[1])).toAbsolutePath());
    }

    /** The directory holding all eight tables at {@code scaleFactor}, generated on first use. */
    public static Path directory(double scaleFactor) {
        return directory(scaleFactor, Path.of(System.getProperty("parallax.bench.data", "target")));
    }

    /** {@code parent/tpch-sf<scaleFactor>} holding all eight tables, generated on first use. */
    public static Path directory(double scaleFactor, Path parent) {
        Path directory = parent.resolve("tpch-sf" + scaleFactor);
        Path complete = directory.resolve(".complete");
        if (Files.exists(complete)) {
            return directory;
        }
        try {
            Files.createDirectories(directory);
            int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
            ExecutorService executor = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> tasks = new ArrayList<>();
                for (TpchTable<?> table : TpchTable.getTables()) {
                    tasks.add(executor.submit(() -> write(table, scaleFactor, directory.resolve(table.getTableName() + ".tbl"))));
                }
                for (Future<?> task : tasks) {
                    task.get();
                }
            } finally {
                executor.shutdownNow();
            }
            Files.writeString(complete, "ok");
            return directory;
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        } catch (Exception failure) {
            throw new IllegalStateException("TPC-H file generation failed", failure);
        }
    }

    private static <E extends TpchEntity> void write(TpchTable<E> table, double scaleFactor, Path file) {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (E row : table.createGenerator(scaleFactor, 1, 1)) {
                String line = row.toLine();
                // dbgen ends every line with the separator; peers' CSV readers expect none.
                out.write(line, 0, line.endsWith("|") ? line.length() - 1 : line.length());
                out.write('\n');
            }
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
