package dev.parallax.engine.spill;

import dev.parallax.engine.settings.Settings;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How much memory one hash table (of a hash join's build or a hash aggregation) may hold before
 * it spills partitions to temporary files, and where they go.
 *
 * @param memoryLimitBytes {@code work_mem × hash_mem_multiplier}, as PostgreSQL 13+ bounds hash tables
 * @param tempDirectory    the parent of the operator's own {@code parallax-hash-*} directory
 */
public record HashSpillOptions(long memoryLimitBytes, Path tempDirectory) {
    public HashSpillOptions {
        if (memoryLimitBytes <= 0) {
            throw new IllegalArgumentException("memoryLimitBytes must be positive: " + memoryLimitBytes);
        }
        Objects.requireNonNull(tempDirectory, "tempDirectory");
    }

    /** Options from a statement's settings: {@code work_mem × hash_mem_multiplier} and {@code temp_file_directory}. */
    public static HashSpillOptions fromSettings(Settings settings) {
        double limit = settings.getBytes("work_mem") * settings.getDouble("hash_mem_multiplier");
        return new HashSpillOptions((long) Math.min(Long.MAX_VALUE / 2, Math.max(1, limit)), temporaryDirectory(settings));
    }

    /** The {@code temp_file_directory} setting, or {@code java.io.tmpdir} when it is empty. */
    public static Path temporaryDirectory(Settings settings) {
        String configured = settings.show("temp_file_directory");
        return configured.isEmpty() ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(configured);
    }
}
