package dev.parallax.engine.operator.window;

import dev.parallax.engine.plan.WindowFrame;
import dev.parallax.engine.plan.WindowFrameExclusion;
import dev.parallax.engine.plan.WindowNode;

import java.util.Arrays;

/**
 * The frame of every row of one held partition, as PostgreSQL's WindowAgg bounds it: the first
 * row and the end (exclusive) of the frame's bounds per row, and each row's peer group, from which
 * the exclusion takes rows out. Computed once per partition, in one pass per bound (both only move
 * forward from row to row), into arrays indexed by held row number and reused across partitions.
 * <p>{@link #segments(int)} gives a row's frame as at most three runs of rows (the bounds' run less
 * the excluded rows), which the aggregates add and first_value, last_value and nth_value index.
 * Used by one thread.
 */
final class FrameExtents {
    /** More rows than a partition held in memory can have: ROWS and GROUPS offsets are clamped to it. */
    private static final long MAXIMUM_OFFSET = 1L << 32;

    private final WindowFrame frame;
    private final long frameStart;
    private final long frameEnd;
    private final WindowFrameExclusion exclusion;
    /** The RANGE offset bounds' search; null without them. */
    private final RangeOffsetSearch rangeSearch;
    /** Per held row: its frame's first row and end, its peer group's first row and end, its peer group's number in the partition. */
    private int[] firsts = new int[0];
    private int[] ends = new int[0];
    private int[] groupFirsts = new int[0];
    private int[] groupEnds = new int[0];
    private int[] groupNumbers = new int[0];
    /** Under GROUPS, the first row of each peer group of the partition, by number. */
    private int[] groupStartRows = new int[0];
    /** The runs of the last {@link #segments(int)}: rows {@code segmentFirsts[i] .. segmentEnds[i]-1}. */
    final int[] segmentFirsts = new int[3];
    final int[] segmentEnds = new int[3];

    /**
     * @param frameStart the start bound, clamped here for ROWS and GROUPS as {@link WindowNode#frameStart()} gives it
     * @param rangeSearch the search of a RANGE frame's offset bounds, null when it has none
     */
    FrameExtents(WindowFrame frame, long frameStart, long frameEnd, WindowFrameExclusion exclusion, RangeOffsetSearch rangeSearch) {
        this.frame = frame;
        this.frameStart = frameStart == WindowNode.UNBOUNDED_PRECEDING ? frameStart : Math.clamp(frameStart, -MAXIMUM_OFFSET, MAXIMUM_OFFSET);
        this.frameEnd = frameEnd == WindowNode.UNBOUNDED_FOLLOWING ? frameEnd : Math.clamp(frameEnd, -MAXIMUM_OFFSET, MAXIMUM_OFFSET);
        this.exclusion = exclusion;
        this.rangeSearch = rangeSearch;
    }

    /**
     * Whether every row's frame starts at the partition's first row and keeps all its rows, so that
     * a row's frame holds the previous row's (ends never move back): an aggregate then adds each row once.
     */
    boolean grows() {
        boolean fromFirstRow = switch (frame) {
            case PARTITION, THROUGH_PEERS, THROUGH_ROW -> true;
            case ROWS, RANGE, GROUPS -> frameStart == WindowNode.UNBOUNDED_PRECEDING;
        };
        return fromFirstRow && exclusion == WindowFrameExclusion.NO_OTHERS;
    }

    /** The end (exclusive) of held row {@code row}'s frame before exclusion, once {@link #compute} has run. */
    int end(int row) {
        return ends[row];
    }

    /**
     * Computes the frames of the partition of held rows {@code from .. to-1}, whose peer groups
     * start where {@code peerStarts} is set (and at {@code from}). The RANGE offset bounds read the
     * order key from {@code longKeys} or {@code doubleKeys} (the one the search reads), with
     * {@code keyNulls}; both are ignored by the other frames.
     */
    void compute(boolean[] peerStarts, int from, int to, long[] longKeys, double[] doubleKeys, boolean[] keyNulls) {
        ensureCapacity(to);
        int groups = 0;
        for (int row = from; row < to; row++) {
            if (row == from || peerStarts[row]) {
                if (groupStartRows.length == groups) {
                    groupStartRows = Arrays.copyOf(groupStartRows, Math.max(16, 2 * groups));
                }
                groupStartRows[groups++] = row;
            }
            groupNumbers[row] = groups - 1;
            groupFirsts[row] = groupStartRows[groups - 1];
        }
        for (int group = 0; group < groups; group++) {
            int groupEnd = group + 1 < groups ? groupStartRows[group + 1] : to;
            Arrays.fill(groupEnds, groupStartRows[group], groupEnd, groupEnd);
        }
        switch (frame) {
            case PARTITION -> {
                Arrays.fill(firsts, from, to, from);
                Arrays.fill(ends, from, to, to);
            }
            case THROUGH_PEERS -> {
                Arrays.fill(firsts, from, to, from);
                System.arraycopy(groupEnds, from, ends, from, to - from);
            }
            case THROUGH_ROW -> {
                Arrays.fill(firsts, from, to, from);
                for (int row = from; row < to; row++) {
                    ends[row] = row + 1;
                }
            }
            case ROWS -> {
                for (int row = from; row < to; row++) {
                    firsts[row] = frameStart == WindowNode.UNBOUNDED_PRECEDING ? from : (int) Math.min(to, Math.max(from, row + frameStart));
                    ends[row] = frameEnd == WindowNode.UNBOUNDED_FOLLOWING ? to : (int) Math.min(to, Math.max(from, row + frameEnd + 1));
                }
            }
            case GROUPS -> {
                for (int row = from; row < to; row++) {
                    long startGroup = groupNumbers[row] + frameStart;
                    firsts[row] = frameStart == WindowNode.UNBOUNDED_PRECEDING || startGroup < 0 ? from
                            : startGroup >= groups ? to : groupStartRows[(int) startGroup];
                    long endGroup = groupNumbers[row] + frameEnd;
                    ends[row] = frameEnd == WindowNode.UNBOUNDED_FOLLOWING || endGroup >= groups - 1 ? to
                            : endGroup < 0 ? from : groupStartRows[(int) endGroup + 1];
                }
            }
            case RANGE -> rangeBounds(from, to, longKeys, doubleKeys, keyNulls);
        }
    }

    /** RANGE bounds: the partition's ends, the current row's peer group, or the offset search. */
    private void rangeBounds(int from, int to, long[] longKeys, double[] doubleKeys, boolean[] keyNulls) {
        if (frameStart == WindowNode.UNBOUNDED_PRECEDING) {
            Arrays.fill(firsts, from, to, from);
        } else if (frameStart == 0) {
            System.arraycopy(groupFirsts, from, firsts, from, to - from);
        } else if (doubleKeys != null) {
            rangeSearch.starts(doubleKeys, keyNulls, from, to, firsts);
        } else {
            rangeSearch.starts(longKeys, keyNulls, from, to, firsts);
        }
        if (frameEnd == WindowNode.UNBOUNDED_FOLLOWING) {
            Arrays.fill(ends, from, to, to);
        } else if (frameEnd == 0) {
            System.arraycopy(groupEnds, from, ends, from, to - from);
        } else if (doubleKeys != null) {
            rangeSearch.ends(doubleKeys, keyNulls, from, to, ends);
        } else {
            rangeSearch.ends(longKeys, keyNulls, from, to, ends);
        }
    }

    /**
     * Sets {@link #segmentFirsts} and {@link #segmentEnds} to the runs of held row {@code row}'s
     * frame, in order, and returns how many there are (0 for an empty frame): the bounds' run less
     * the exclusion's rows.
     */
    int segments(int row) {
        int first = firsts[row];
        int end = ends[row];
        if (first >= end) {
            return 0;
        }
        return switch (exclusion) {
            case NO_OTHERS -> {
                segmentFirsts[0] = first;
                segmentEnds[0] = end;
                yield 1;
            }
            case CURRENT_ROW -> around(first, end, row, row + 1, false, row);
            case GROUP -> around(first, end, groupFirsts[row], groupEnds[row], false, row);
            case TIES -> around(first, end, groupFirsts[row], groupEnds[row], true, row);
        };
    }

    /** The run {@code first .. end-1} less the rows {@code excludedFirst .. excludedEnd-1}, {@code row} kept when {@code keepRow} and in the run. */
    private int around(int first, int end, int excludedFirst, int excludedEnd, boolean keepRow, int row) {
        int count = 0;
        count = add(count, first, Math.min(end, excludedFirst));
        if (keepRow && row >= first && row < end) {
            count = add(count, row, row + 1);
        }
        return add(count, Math.max(first, excludedEnd), end);
    }

    private int add(int count, int first, int end) {
        if (first >= end) {
            return count;
        }
        segmentFirsts[count] = first;
        segmentEnds[count] = end;
        return count + 1;
    }

    private void ensureCapacity(int rows) {
        if (firsts.length >= rows) {
            return;
        }
        int capacity = Math.max(rows, 2 * firsts.length);
        firsts = new int[capacity];
        ends = new int[capacity];
        groupFirsts = new int[capacity];
        groupEnds = new int[capacity];
        groupNumbers = new int[capacity];
    }
}
