package dev.parallax.engine.operator.sort;

/** Orders two rows of a materialized batch by their positions. */
interface RowComparator {
    int compare(int leftRow, int rightRow);
}
