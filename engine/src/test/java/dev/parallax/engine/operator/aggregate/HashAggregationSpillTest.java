package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.exec.WorkerPool;
import dev.parallax.engine.operator.TestExecution;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.plan.AggregateMode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.spill.HashSpillOptions;
import dev.parallax.engine.spill.TemporaryDirectory;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hash aggregation bounded far below its table's size spills the rows of new groups to hash
 * partitions and aggregates them afterwards, recursively: the groups and values must equal the
 * in-memory run's, for every aggregate kind (DISTINCT included), NULL keys and both key tables
 * (packed and serialized), and the temporary files must be gone after the operator closes,
 * whether it finished or failed.
 */
class HashAggregationSpillTest {
    private static final WorkerPool WORKERS = new WorkerPool(2, 2);
    private static final List<DataType> INPUT_TYPES = List.of(DataType.INTEGER, DataType.TEXT, DataType.BIGINT);
    private static final int ROWS = 40_000;

    @TempDir
    Path temporary;

    @AfterAll
    static void stopWorkers() {
        WORKERS.close();
    }

    private static AggregateCall call(AggregateFunction function, int argument, DataType argumentType, DataType resultType, boolean distinct) {
        return new AggregateCall(function, argument, distinct, argumentType, resultType,
                AggregateStates.stateTypes(function, argumentType, resultType), function.name());
    }

    private static List<AggregateCall> calls(boolean withDistinct) {
        List<AggregateCall> calls = new ArrayList<>(List.of(
                call(AggregateFunction.COUNT_STAR, -1, null, DataType.BIGINT, false),
                call(AggregateFunction.SUM, 2, DataType.BIGINT, DataType.BIGINT, false),
                call(AggregateFunction.MIN, 1, DataType.TEXT, DataType.TEXT, false),
                call(AggregateFunction.MAX, 2, DataType.BIGINT, DataType.BIGINT, false)));
        if (withDistinct) {
            calls.add(call(AggregateFunction.COUNT, 2, DataType.BIGINT, DataType.BIGINT, true));
        }
        return calls;
    }

    /** Rows (i % groups, text of i % 3001 or NULL every 11th, i % 97 or NULL every 13th). */
    private static List<Batch> input(int groups) {
        List<Batch> batches = new ArrayList<>();
        for (int start = 0; start < ROWS; start += 1000) {
            List<List<Object>> rows = new ArrayList<>();
            for (int row = start; row < start + 1000; row++) {
                rows.add(Arrays.asList((long) (row % groups), row % 11 == 0 ? null : "k" + (row % 3001),
                        row % 13 == 0 ? null : (Object) (long) (row % 97)));
            }
            batches.add(TestExecution.batch(INPUT_TYPES, rows));
        }
        return batches;
    }

    private AggregateOperator operator(Operator input, int[] keys, List<DataType> keyTypes, List<AggregateCall> calls,
                                       long memoryLimit, TemporaryDirectory directory) {
        HashAggregation aggregation = new HashAggregation(AggregateMode.SINGLE, keys, keyTypes, calls);
        aggregation.enableSpill(new HashSpillOptions(memoryLimit, temporary), directory, INPUT_TYPES, 0);
        List<DataType> outputTypes = new ArrayList<>(keyTypes);
        for (AggregateCall call : calls) {
            outputTypes.add(call.resultType());
        }
        ExecutionContext context = TestExecution.context(WORKERS, new Settings());
        return new AggregateOperator(context, input, aggregation, Batch.create(outputTypes, Batch.DEFAULT_CAPACITY), directory);
    }

    private void assertSpilledEqualsInMemory(int[] keys, List<DataType> keyTypes, int groups, boolean withDistinct) {
        List<AggregateCall> calls = calls(withDistinct);
        TemporaryDirectory inMemoryDirectory = new TemporaryDirectory(temporary, "hash");
        AggregateOperator inMemory = operator(new BatchesOperator(input(groups), -1), keys, keyTypes, calls, Long.MAX_VALUE / 2, inMemoryDirectory);
        List<List<Object>> expected = TestExecution.sorted(TestExecution.drain(inMemory));
        inMemory.close();
        assertEquals(1, inMemory.statistics().batches());

        TemporaryDirectory directory = new TemporaryDirectory(temporary, "hash");
        AggregateOperator spilling = operator(new BatchesOperator(input(groups), -1), keys, keyTypes, calls, 16 * 1024, directory);
        List<List<Object>> actual = TestExecution.sorted(TestExecution.drain(spilling));
        assertTrue(directory.pathOrNull() != null, "the aggregation spilled");
        spilling.close();
        assertEquals(expected.size(), actual.size());
        assertEquals(expected, actual);
        assertTrue(spilling.statistics().batches() > 1, "spilled: " + spilling.statistics().explainLine());
        assertTrue(spilling.statistics().diskBytes() > 0);
        assertEquals(0, temporaryEntries());
    }

    @Test
    void packedIntegerKeySpillsAndMatchesInMemory() {
        assertSpilledEqualsInMemory(new int[]{0}, List.of(DataType.INTEGER), 20_000, false);
    }

    @Test
    void serializedTextKeyWithNullsSpillsAndMatchesInMemoryIncludingDistinct() {
        assertSpilledEqualsInMemory(new int[]{1}, List.of(DataType.TEXT), 20_000, true);
    }

    @Test
    void twoKeysManyGroupsRecurseAndMatchInMemory() {
        // 40,000 groups of one row each against a 16kB table: partitions split again at deeper levels.
        assertSpilledEqualsInMemory(new int[]{0, 1}, List.of(DataType.INTEGER, DataType.TEXT), ROWS, true);
    }

    @Test
    void failureAfterSpillingLeavesNoTemporaryFile() {
        TemporaryDirectory directory = new TemporaryDirectory(temporary, "hash");
        AggregateOperator spilling = operator(new BatchesOperator(input(20_000), 30), new int[]{0},
                List.of(DataType.INTEGER), calls(false), 16 * 1024, directory);
        assertThrows(IllegalStateException.class, () -> TestExecution.drain(spilling));
        assertTrue(directory.pathOrNull() != null, "the aggregation spilled before the failure");
        spilling.close();
        assertEquals(0, temporaryEntries());
    }

    private long temporaryEntries() {
        try (Stream<Path> entries = Files.list(temporary)) {
            return entries.count();
        } catch (IOException failure) {
            throw new AssertionError(failure);
        }
    }

    /** Returns the given batches, failing instead of returning batch {@code failAt} (-1: never). */
    private static final class BatchesOperator implements Operator {
        private final List<Batch> batches;
        private final int failAt;
        private int next;

        BatchesOperator(List<Batch> batches, int failAt) {
            this.batches = batches;
            this.failAt = failAt;
        }

        @Override
        public Batch next() {
            if (next == failAt) {
                throw new IllegalStateException("input failed");
            }
            return next < batches.size() ? batches.get(next++) : null;
        }

        @Override
        public void close() {
        }
    }
}
