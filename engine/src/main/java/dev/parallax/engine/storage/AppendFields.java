package dev.parallax.engine.storage;

import dev.parallax.engine.memory.NativePage;

/**
 * The fields of a {@link PagedTableStorage} that an append touches besides the point-read ones
 * ({@link PointReadFields}, laid out before these): the publish counters and the tail page's
 * header as the last append left it. A superclass puts them on the line after the point-read
 * fields. When each write lands on another partition (an upsert into 1024 hash partitions) every
 * line of a cold storage an append needs is a cache miss: with the point-read fields first and
 * these left where the JVM's grouping by size put them, the partitioned upsert cost ~400 ns more
 * per statement than with the old layout (UpsertAlternation / PartitionAlternation, one JVM each,
 * two runs). Every field a one-page append reads or writes is here or in PointReadFields: bytes
 * 12-125 of the object on JDK 25 (two lines, or three when the object straddles one more); the
 * append read fields up to byte 168 before (the write lock's reference, the page array, the closed
 * and huge-page flags), one line more. Fields an append does not use, like the group publish
 * counter, live in the subclass. Written under the storage's write lock,
 * except where noted; accessed only by {@link PagedTableStorage}.
 */
abstract class AppendFields extends PointReadFields {
    /**
     * Counts publishes: odd while one is under way (a seqlock for {@link PagedTableStorage#snapshot()}),
     * even otherwise. A row killed by a publish is stamped with the even value that publish ends at.
     */
    volatile long changeSequence;
    volatile long liveRowCount;
    /*
     * The tail page's header as this storage's last append published it, kept by the writers so
     * that the next append need not load it from the page: when each write lands on another
     * partition that load was a cache and TLB miss per statement, the largest single cost the
     * partitioned upsert paid over the single table (JFR, UpsertBenchmark). Valid while
     * tailPageIndex is the last page and relocations is tailRelocations: every path that replaces,
     * rewrites or drops pages moves relocations.
     */
    long tailRelocations;
    /** The tail page's address: appends write it by address, not through its (cold) segment object and session. */
    long tailPage;
    int tailPageIndex = -1;
    int tailRows;
    int tailHeapStart;
    int tailCleanFrom;
    /** The tail page's null counts; never written after publishing (an append works on a copy). */
    int[] tailNullCounts;
    final int columnCount;
    /** The pages, grown by copy; element i is set before {@link #pageCount} covers it. */
    volatile NativePage[] pages = new NativePage[8];
    /** Set by close (under the write lock), checked by every write. */
    boolean closed;
    /** Set by {@link PagedTableStorage#preferHugePages()} (under the write lock). */
    boolean hugePagesWanted;
    /** Pages below this index were named to the allocator already (under the write lock). */
    int hugePagesOfferedTo;

    AppendFields(PageLayout layout, int columnCount) {
        super(layout);
        this.columnCount = columnCount;
    }
}
