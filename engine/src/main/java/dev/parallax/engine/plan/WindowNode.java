package dev.parallax.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.parallax.engine.type.DataType;

/**
 * Window functions over one window ({@code OVER (PARTITION BY ... ORDER BY ... frame)}): the input
 * arrives sorted by the partition columns then the order columns, and each row leaves with its
 * input columns followed by one column per call ({@link WindowCall#resultType()}). {@code frame}
 * is what the aggregate calls and first_value, last_value and nth_value see; the ranking functions, lag,
 * lead and ntile ignore it. Under {@link WindowFrame#ROWS}, {@code frameStart} and {@code frameEnd}
 * are the frame's bounds in rows from the current row (negative before it, {@link #UNBOUNDED_PRECEDING}
 * and {@link #UNBOUNDED_FOLLOWING} for the partition's ends), under {@link WindowFrame#GROUPS} in peer
 * groups, under {@link WindowFrame#RANGE} the bounds' kinds (see there) with {@code rangeOffsets}
 * holding the offsets; under the other frames both are 0. {@code exclusion} takes rows out of every
 * frame (only of the frames {@link WindowFrame#isComputedOverPartition()}). PostgreSQL's WindowAgg.
 */
public record WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, long frameStart, long frameEnd,
                         WindowFrameExclusion exclusion, WindowRangeOffsets rangeOffsets, List<WindowCall> calls,
                         PlanEstimate estimate) implements PlanNode {
    /** A {@link #frameStart()} at the partition's first row. */
    public static final long UNBOUNDED_PRECEDING = Long.MIN_VALUE;
    /** A {@link #frameEnd()} at the partition's last row. */
    public static final long UNBOUNDED_FOLLOWING = Long.MAX_VALUE;

    public WindowNode {
        partitionColumns = partitionColumns.clone();
        orderColumns = orderColumns.clone();
        Objects.requireNonNull(frame, "frame");
        Objects.requireNonNull(exclusion, "exclusion");
        if (!frame.isComputedOverPartition() && (frameStart != 0 || frameEnd != 0 || exclusion != WindowFrameExclusion.NO_OTHERS)) {
            throw new IllegalArgumentException("frame offsets and exclusions go with ROWS, RANGE and GROUPS frames only: " + frame);
        }
        boolean rangeOffset = frame == WindowFrame.RANGE && (frameStart == -1 || frameStart == 1 || frameEnd == -1 || frameEnd == 1);
        if (rangeOffset != (rangeOffsets != null)
                || rangeOffset && ((frameStart == -1 || frameStart == 1) != (rangeOffsets.start() != null)
                || (frameEnd == -1 || frameEnd == 1) != (rangeOffsets.end() != null))) {
            throw new IllegalArgumentException("a RANGE frame's offsets go with its PRECEDING / FOLLOWING bounds");
        }
        if (frameStart == UNBOUNDED_FOLLOWING || frameEnd == UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED PRECEDING");
        }
        calls = List.copyOf(calls);
    }

    /** A window over one of the frames without offsets or exclusion (PARTITION, THROUGH_PEERS, THROUGH_ROW). */
    public WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, List<WindowCall> calls,
                      PlanEstimate estimate) {
        this(input, partitionColumns, orderColumns, frame, 0, 0, WindowFrameExclusion.NO_OTHERS, null, calls, estimate);
    }

    /** This window over another input (the same rows), with that estimate. */
    public WindowNode withInput(PlanNode newInput, PlanEstimate newEstimate) {
        return new WindowNode(newInput, partitionColumns, orderColumns, frame, frameStart, frameEnd, exclusion, rangeOffsets, calls,
                newEstimate);
    }

    @Override
    public int[] partitionColumns() {
        return partitionColumns.clone();
    }

    @Override
    public int[] orderColumns() {
        return orderColumns.clone();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(input);
    }

    @Override
    public List<DataType> outputTypes() {
        List<DataType> types = new ArrayList<>(input.outputTypes());
        for (WindowCall call : calls) {
            types.add(call.resultType());
        }
        return types;
    }
}
