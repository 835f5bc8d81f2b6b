package dev.parallax.engine.sort;

/** How a sort finished, named as PostgreSQL's EXPLAIN ANALYZE prints it. */
public enum SortMethod {
    /** Everything fitted in {@code work_mem} and was sorted in memory. */
    QUICKSORT("quicksort"),
    /** A LIMIT bounded the sort: only the best N rows were kept, in a heap. */
    TOP_N_HEAPSORT("top-N heapsort"),
    /** Sorted runs were written to temporary files and merged. */
    EXTERNAL_MERGE("external merge");

    private final String explainName;

    SortMethod(String explainName) {
        this.explainName = explainName;
    }

    /** The name in {@code Sort Method: ...}. */
    public String explainName() {
        return explainName;
    }
}
