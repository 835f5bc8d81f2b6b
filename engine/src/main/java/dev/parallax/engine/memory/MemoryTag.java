package dev.parallax.engine.memory;

/** What an off-heap allocation is for; the memory manager counts bytes per tag so tests can assert none leak. */
public enum MemoryTag {
    PAGES,
    HASH_TABLES,
    INDEXES,
    SORT_BUFFERS,
    /** Rows a recursive query keeps between runs of its recursive term (heap, charged against the limit). */
    WORK_TABLES,
    OTHER
}
