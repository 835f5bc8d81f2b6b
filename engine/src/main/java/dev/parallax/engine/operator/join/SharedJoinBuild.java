package dev.parallax.engine.operator.join;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The global state of one join's build under a Gather: the hash table every participant probes,
 * built once. Participants synchronize only when they attach, detach and wait, never per row.
 * <ul>
 *   <li>Parallel Hash (cooperative): every participant that arrives while the build is running
 *   attaches, reads its share of the partial build input into a {@link JoinBuildPart} of its own
 *   and detaches; the last to detach links all parts into the table. A participant arriving after
 *   the build finished (the build input's shared scan is exhausted by then) only probes. Since a
 *   participant attaches before it claims any build page, the last detach sees every row.</li>
 *   <li>Otherwise the first participant to arrive reads the whole build input; the others wait.</li>
 * </ul>
 * The table's memory is returned when the last participant that used it closes.
 */
public final class SharedJoinBuild {
    private enum State { NEW, BUILDING, DONE, FAILED }

    /** How long a waiting participant sleeps before it checks cancellation again. */
    private static final long WAIT_MILLISECONDS = 10;

    private final List<JoinBuildPart> parts = new ArrayList<>();
    private State state = State.NEW;
    private int attached;
    private int users;
    private boolean released;
    private JoinHashTable table;

    /** Registers a participant that will probe the table; pair with {@link #release()}. */
    synchronized void use() {
        users++;
    }

    /**
     * Whether the calling participant should read build rows now: true for the first participant,
     * and for later ones while a cooperative build is still running; false when it should wait.
     */
    synchronized boolean attach(boolean cooperative) {
        switch (state) {
            case NEW -> {
                state = State.BUILDING;
                attached = 1;
                return true;
            }
            case BUILDING -> {
                if (cooperative) {
                    attached++;
                    return true;
                }
                return false;
            }
            case DONE, FAILED -> {
                return false;
            }
        }
        throw new AssertionError(state);
    }

    /** Hands in the rows an attached participant read; the last one to detach builds the table. */
    synchronized void detach(JoinBuildPart part, List<DataType> types, boolean trackMatches) {
        parts.add(part);
        if (--attached > 0 || state != State.BUILDING) {
            return;
        }
        try {
            table = JoinHashTable.build(parts, types, trackMatches);
            state = State.DONE;
        } catch (RuntimeException | Error failure) {
            state = State.FAILED;
            throw failure;
        } finally {
            notifyAll();
        }
    }

    /** Called instead of {@link #detach} by an attached participant whose build failed. */
    synchronized void fail(JoinBuildPart part) {
        if (part != null) {
            parts.add(part);
        }
        attached--;
        state = State.FAILED;
        notifyAll();
    }

    /** Waits until the table is built and returns it; 57014 when the statement is cancelled meanwhile. */
    synchronized JoinHashTable await(ExecutionContext context) {
        while (state == State.BUILDING || state == State.NEW) {
            context.checkCancelled();
            try {
                wait(WAIT_MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new ParallaxException(SqlState.QUERY_CANCELED, "canceling statement due to user request", interrupted);
            }
        }
        if (state == State.FAILED) {
            throw new ParallaxException(SqlState.INTERNAL_ERROR, "hash join build failed in another parallel participant");
        }
        return table;
    }

    /** Ends one participant's use; the last returns the charged memory (once). */
    synchronized void release() {
        if (--users > 0 || released) {
            return;
        }
        released = true;
        for (JoinBuildPart part : parts) {
            part.release();
        }
    }
}
