package dev.parallax.engine.partition;

import java.util.function.Supplier;

/**
 * Runs work that nests one level per partition (all-or-nothing steps over many partitions: each
 * partition's step runs inside the previous one's, under its lock) on a thread with a stack large
 * enough for a thousand levels. Work already running on such a thread runs in place, so nested
 * callers never hand locks they hold over to a second thread.
 */
public final class LargeStack {
    /**
     * Up to this many levels the nesting runs on the caller's stack: each level takes a few frames,
     * and 1024 levels could exhaust a default stack.
     */
    public static final int LEVELS_ON_CALLER_STACK = 64;
    private static final long STACK_BYTES = 256L << 20;
    private static final ThreadLocal<Boolean> ON_LARGE_STACK = new ThreadLocal<>();

    private LargeStack() {
    }

    /**
     * Returns {@code work}'s result, computed on the caller's thread when {@code levels} is at most
     * {@link #LEVELS_ON_CALLER_STACK} or the caller already runs on a large stack, otherwise on a
     * new thread with a large stack that the caller waits for (uninterruptibly: an all-or-nothing
     * step cannot stop halfway). Exceptions reach the caller unchanged.
     */
    public static <T> T call(int levels, Supplier<T> work) {
        if (levels <= LEVELS_ON_CALLER_STACK || Boolean.TRUE.equals(ON_LARGE_STACK.get())) {
            return work.get();
        }
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread nesting = new Thread(null, () -> {
            ON_LARGE_STACK.set(Boolean.TRUE);
            try {
                result[0] = work.get();
            } catch (Throwable thrown) {
                failure[0] = thrown;
            }
        }, "parallax-partition-nesting", STACK_BYTES);
        nesting.start();
        boolean interrupted = false;
        while (true) {
            try {
                nesting.join();
                break;
            } catch (InterruptedException exception) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        switch (failure[0]) {
            case null -> {
            }
            case RuntimeException runtime -> throw runtime;
            case Error error -> throw error;
            default -> throw new IllegalStateException(failure[0]);
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }
}
