package dev.parallax.engine.spill;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The temporary directory of one spilling operator ({@code parallax-<kind>-*} under the
 * configured parent), created on the first file so that operators which never spill touch no
 * disk. {@link #close()} deletes the directory with every file in it; operators close it from
 * their own {@code close()}, which runs after success, failure and cancellation alike.
 * Thread-safe: participants of a shared hash join build create files in one directory.
 */
public final class TemporaryDirectory implements AutoCloseable {
    private final Path parent;
    private final String prefix;
    private Path directory;
    private int nextFile;
    private boolean closed;

    /** @param kind names the directory ({@code sort}, {@code hash}…) so a leftover one says who left it */
    public TemporaryDirectory(Path parent, String kind) {
        this.parent = Objects.requireNonNull(parent, "parent");
        this.prefix = "parallax-" + Objects.requireNonNull(kind, "kind") + "-";
    }

    /** A path for a new file {@code <name>-<n>.bin} in the directory, which is created if needed. */
    public synchronized Path newFile(String name) {
        if (closed) {
            throw new IllegalStateException("temporary directory already removed");
        }
        if (directory == null) {
            try {
                directory = Files.createTempDirectory(parent, prefix);
            } catch (IOException failure) {
                throw new ParallaxException(SqlState.IO_ERROR,
                        "could not create temporary file directory in \"" + parent + "\": " + failure.getMessage(), failure);
            }
        }
        return directory.resolve(name + "-" + nextFile++ + ".bin");
    }

    /** The directory while it exists, else null (for tests and diagnostics). */
    public synchronized Path pathOrNull() {
        return directory;
    }

    /** Deletes the directory and its files; idempotent. No file can be created afterwards. */
    @Override
    public synchronized void close() {
        closed = true;
        if (directory == null) {
            return;
        }
        Path removed = directory;
        directory = null;
        try (Stream<Path> paths = Files.walk(removed)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException failure) {
            throw new ParallaxException(SqlState.IO_ERROR,
                    "could not remove temporary directory \"" + removed + "\": " + failure.getMessage(), failure);
        }
    }
}
