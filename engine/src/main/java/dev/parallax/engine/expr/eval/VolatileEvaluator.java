package dev.parallax.engine.expr.eval;

import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.DateTimes;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;

/** random() — a fresh double in [0, 1) per row — and clock_timestamp(), the wall clock at each call. */
final class VolatileEvaluator extends Evaluator {
    private final boolean random;
    private final SplittableRandom generator = new SplittableRandom(ThreadLocalRandom.current().nextLong());
    private final ColumnVector output;

    VolatileEvaluator(boolean random, DataType type) {
        super(type);
        this.random = random;
        this.output = ColumnVector.create(type, Evaluator.INITIAL_CAPACITY);
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        ColumnVector result = prepare(output, input);
        if (random) {
            double[] out = ((DoubleVector) result).values();
            for (int index = 0; index < count; index++) {
                out[selection == null ? index : selection[index]] = generator.nextDouble();
            }
        } else {
            long[] out = ((LongVector) result).values();
            for (int index = 0; index < count; index++) {
                java.time.Instant now = java.time.Instant.now();
                out[selection == null ? index : selection[index]] = now.getEpochSecond() * DateTimes.MICROS_PER_SECOND + now.getNano() / 1000;
            }
        }
        return result;
    }
}
