package dev.parallax.test.slt;

import dev.parallax.DatabaseOptions;

import java.util.Map;

/**
 * A configuration every test file runs under. Besides the defaults, one mode makes parallel plans
 * run on tiny data: small pages so a few rows span many pages, one page per scan claim, and
 * {@code debug_parallel_query} so that even tiny tables go through Gather.
 */
enum TestMode {
    DEFAULT(DatabaseOptions.defaults(), Map.of()),
    TINY_PAGES_PARALLEL(DatabaseOptions.defaults().withPageSize(8 * 1024),
            Map.of("debug_parallel_query", "on", "parallel_scan_chunk_pages", "1"));

    private final DatabaseOptions options;
    private final Map<String, String> settings;

    TestMode(DatabaseOptions options, Map<String, String> settings) {
        this.options = options;
        this.settings = settings;
    }

    DatabaseOptions options() {
        return options;
    }

    /** Settings applied to the session before the first record. */
    Map<String, String> settings() {
        return settings;
    }
}
