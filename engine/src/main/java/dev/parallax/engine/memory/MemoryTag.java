package dev.parallax.engine.memory;

/** What an off-heap allocation is for; the memory manager counts bytes per tag so tests can assert none leak. */
public enum MemoryTag {
    PAGES,
    HASH_TABLES,
    INDEXES,
    SORT_BUFFERS,
    OTHER
}
