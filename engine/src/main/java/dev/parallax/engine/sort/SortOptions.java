package dev.parallax.engine.sort;

import dev.parallax.engine.settings.Settings;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How one sort runs.
 *
 * @param workMemBytes    memory the sort may hold before it writes sorted runs to disk ({@code work_mem})
 * @param abbreviatedKeys whether rows are ordered by packed 64-bit prefix keys before full values
 *                        ({@code enable_abbreviated_keys}); off, every comparison is a full one
 * @param tempDirectory   where the sort creates its own {@code parallax-sort-*} directory when it spills
 */
public record SortOptions(long workMemBytes, boolean abbreviatedKeys, Path tempDirectory) {
    public SortOptions {
        if (workMemBytes <= 0) {
            throw new IllegalArgumentException("workMemBytes must be positive: " + workMemBytes);
        }
        Objects.requireNonNull(tempDirectory, "tempDirectory");
    }

    /** Options from a statement's settings: {@code work_mem}, {@code enable_abbreviated_keys}, and {@code temp_file_directory}. */
    public static SortOptions fromSettings(Settings settings) {
        return new SortOptions(settings.getBytes("work_mem"), settings.getBoolean("enable_abbreviated_keys"),
                dev.parallax.engine.spill.HashSpillOptions.temporaryDirectory(settings));
    }

    /** Options for a maintenance sort (index builds): {@code maintenance_work_mem} instead of {@code work_mem}. */
    public static SortOptions forMaintenance(Settings settings) {
        return new SortOptions(settings.getBytes("maintenance_work_mem"), settings.getBoolean("enable_abbreviated_keys"), defaultTempDirectory());
    }

    public static Path defaultTempDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    public SortOptions withWorkMemBytes(long bytes) {
        return new SortOptions(bytes, abbreviatedKeys, tempDirectory);
    }

    public SortOptions withAbbreviatedKeys(boolean enabled) {
        return new SortOptions(workMemBytes, enabled, tempDirectory);
    }

    public SortOptions withTempDirectory(Path directory) {
        return new SortOptions(workMemBytes, abbreviatedKeys, directory);
    }
}
