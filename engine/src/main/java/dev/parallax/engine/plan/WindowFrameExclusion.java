package dev.parallax.engine.plan;

/** The rows a window frame's EXCLUDE clause takes out of every row's frame, as in PostgreSQL. */
public enum WindowFrameExclusion {
    /** {@code EXCLUDE NO OTHERS}, the default: the frame as its bounds give it. */
    NO_OTHERS,
    /** {@code EXCLUDE CURRENT ROW}: the current row itself. */
    CURRENT_ROW,
    /** {@code EXCLUDE GROUP}: the current row and its peers. */
    GROUP,
    /** {@code EXCLUDE TIES}: the current row's peers, the row itself kept (when its frame holds it). */
    TIES
}
