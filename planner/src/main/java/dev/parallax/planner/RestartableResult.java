package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.vector.Batch;
import dev.parallax.planner.result.ForwardingResult;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The rows of a query that is started again, from a fresh plan, when its first batch fails with
 * 40001 because ALTER TABLE replaced a table it scans after the plan was made ({@code stale}: the
 * catalog moved since): parallel workers open their scans when they start, after
 * {@link SqlSession#start} returned, so the failure shows on the first fetch. Nothing was delivered
 * then, so the query runs again as PostgreSQL's would have after waiting for the ALTER's lock, unless
 * its columns changed (the caller may have described them already): the failure then stands. The
 * restarted query is restartable in turn, so only a stream of ALTERs can keep it failing.
 */
final class RestartableResult extends ForwardingResult {
    private final BooleanSupplier stale;
    private Supplier<Result> restart;

    RestartableResult(Result result, BooleanSupplier stale, Supplier<Result> restart) {
        super(result);
        this.stale = Objects.requireNonNull(stale, "stale");
        this.restart = Objects.requireNonNull(restart, "restart");
    }

    @Override
    public Batch nextBatch() {
        Supplier<Result> again = restart;
        restart = null;
        if (again == null) {
            return delegate().nextBatch();
        }
        try {
            return delegate().nextBatch();
        } catch (ParallaxException failure) {
            if (failure.state() != SqlState.SERIALIZATION_FAILURE || !stale.getAsBoolean()) {
                throw failure;
            }
            delegate().close();
            Result restarted = again.get();
            if (!restarted.columns().equals(delegate().columns())) {
                restarted.close();
                throw failure;
            }
            replaceDelegate(restarted);
            return restarted.nextBatch();
        }
    }
}
