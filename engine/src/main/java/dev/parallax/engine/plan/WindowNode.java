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
 * and {@link #UNBOUNDED_FOLLOWING} for the partition's ends); under the other frames both are 0.
 * PostgreSQL's WindowAgg.
 */
public record WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, long frameStart, long frameEnd,
                         List<WindowCall> calls, PlanEstimate estimate) implements PlanNode {
    /** A {@link #frameStart()} at the partition's first row. */
    public static final long UNBOUNDED_PRECEDING = Long.MIN_VALUE;
    /** A {@link #frameEnd()} at the partition's last row. */
    public static final long UNBOUNDED_FOLLOWING = Long.MAX_VALUE;

    public WindowNode {
        partitionColumns = partitionColumns.clone();
        orderColumns = orderColumns.clone();
        Objects.requireNonNull(frame, "frame");
        if (frame != WindowFrame.ROWS && (frameStart != 0 || frameEnd != 0)) {
            throw new IllegalArgumentException("frame offsets go with ROWS frames only: " + frame);
        }
        if (frameStart == UNBOUNDED_FOLLOWING || frameEnd == UNBOUNDED_PRECEDING) {
            throw new IllegalArgumentException("a frame cannot start at UNBOUNDED FOLLOWING or end at UNBOUNDED PRECEDING");
        }
        calls = List.copyOf(calls);
    }

    /** A window over one of the frames without offsets (every frame but {@link WindowFrame#ROWS}). */
    public WindowNode(PlanNode input, int[] partitionColumns, int[] orderColumns, WindowFrame frame, List<WindowCall> calls,
                      PlanEstimate estimate) {
        this(input, partitionColumns, orderColumns, frame, 0, 0, calls, estimate);
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
