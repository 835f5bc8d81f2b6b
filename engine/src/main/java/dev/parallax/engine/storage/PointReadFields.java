package dev.parallax.engine.storage;

/**
 * The fields of a {@link PagedTableStorage} that a point read touches (its reader registration,
 * the caller's relocation check, the page's address and layout, the guesses of where its text is), declared in a superclass because
 * the JVM lays out a superclass's fields first: together they take the 48 bytes after the object's
 * header, one or two cache lines. On a partitioned table read at random each partition's storage is
 * cold; with the reader counters in an array object of their own and these fields spread over
 * three lines by the JVM's grouping of fields by size, a point read of a partition paid cache
 * misses the single table (its storage always cached) did not. The storage's monitor, its write
 * lock, is the header's. Accessed only by {@link PagedTableStorage}.
 */
abstract class PointReadFields {
    /** In-flight page reads registered in an even or odd read epoch ({@link #readEpoch}'s parity). */
    volatile long evenEpochReaders;
    volatile long oddEpochReaders;
    /** Counts page compactions (odd while one runs): see {@link PagedTableStorage#relocations()}. */
    volatile long relocations;
    /** Steps abandoned after placing rows (written under the write lock): see {@link PagedTableStorage#abandonedSteps()}. */
    volatile long abandonedSteps;
    /** Advanced by VACUUM to wait for the readers of pages it replaced: see {@link PagedTableStorage#enterRead()}. */
    volatile int readEpoch;
    volatile int pageCount;
    final PageLayout layout;
    /**
     * The address of each page of the storage's pages (0 for a hole or no page): the same length,
     * replaced together with them (this one first), each element set right after its page's.
     */
    volatile long[] pageAddresses = new long[8];
    /**
     * Per page and column, where a row's variable-width bytes probably are ({@link HeapPositionHints});
     * read and replaced without synchronization, as guesses may be.
     */
    long[] heapHints = HeapPositionHints.NONE;

    PointReadFields(PageLayout layout) {
        this.layout = layout;
    }
}
