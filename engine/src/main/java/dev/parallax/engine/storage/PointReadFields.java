package dev.parallax.engine.storage;

import dev.parallax.engine.memory.MemoryManager;
import dev.parallax.engine.memory.ReadEpochs;

/**
 * The fields of {@link PagedTableStorage} that a point read loads (its counters before the index
 * probe, the page directory and layout after it), declared in a superclass of their own so that the
 * JVM lays them out together at the head of the object: HotSpot places a superclass's fields before
 * a subclass's, and within one class all longs first and references last, which had spread these
 * over three of the storage's cache lines (offsets 48 to 132). On a table of 1024 partitions read at
 * random each of those lines was a cache miss of its own; together they are one line (two for some
 * objects), loaded with the counters, in flight with the index probe's first lines. Fields only:
 * the storage's class comment says what each protects.
 */
abstract sealed class PointReadFields permits PagedTableStorage {
    /** Counts page compactions (odd while one runs): see {@link PagedTableStorage#relocations()}. */
    volatile long relocations;
    /** Steps abandoned after placing rows (written under the write lock): see {@link PagedTableStorage#abandonedSteps()}. */
    volatile long abandonedSteps;
    volatile int pageCount;
    /**
     * The address of each page of the storage's pages (0 for a hole or no page): the same length,
     * replaced together with it (this one first), each element set right after its page's.
     */
    volatile long[] pageAddresses = new long[8];
    final PageLayout layout;
    /**
     * In-flight page reads: the database's read registrations ({@link MemoryManager#readEpochs()}),
     * shared with every other table and index, so that a point read on one of 1024 partitions finds
     * its counter in cache (see {@link ReadEpochs}).
     */
    final ReadEpochs readEpochs;

    PointReadFields(PageLayout layout, ReadEpochs readEpochs) {
        this.layout = layout;
        this.readEpochs = readEpochs;
    }
}
