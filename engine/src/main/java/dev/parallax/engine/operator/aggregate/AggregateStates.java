package dev.parallax.engine.operator.aggregate;

import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.VectorKind;

import java.util.List;
import java.util.Objects;

/**
 * The intermediate state layout of each aggregate between PARTIAL and FINAL: the columns a
 * Partial Aggregate emits per call, in order. The planner fills {@code AggregateCall.stateTypes}
 * from here; the accumulators read and write exactly these columns.
 */
public final class AggregateStates {
    private AggregateStates() {
    }

    /**
     * State columns of {@code function} over {@code argumentType} (null for count(*)) giving
     * {@code resultType}:
     * <ul>
     *   <li>COUNT_STAR, COUNT: [count BIGINT]</li>
     *   <li>SUM, AVG of integers, decimals, intervals: [sum high BIGINT, sum low BIGINT, count BIGINT]
     *       (a 128-bit sum, so that no intermediate overflow is possible)</li>
     *   <li>SUM, AVG of REAL/DOUBLE: [sum DOUBLE, count BIGINT]</li>
     *   <li>MIN, MAX, BIT_AND, BIT_OR, BIT_XOR: [the argument type], NULL while no value was seen</li>
     *   <li>BOOL_AND, BOOL_OR: [BOOLEAN], NULL while no value was seen</li>
     *   <li>SINGLE_VALUE: [the argument type, NULL while no value was seen], [row count BIGINT]</li>
     *   <li>ARRAY_AGG: [the result array], NULL while no row was seen; COLLECT likewise, while no value was seen</li>
     *   <li>VAR_*, STDDEV_* of integers and decimals: [count BIGINT, sum high BIGINT, sum low BIGINT,
     *       sum of squares high, middle and low BIGINT] (exact: a 128-bit sum and a 192-bit sum of
     *       squares of the scaled values)</li>
     *   <li>VAR_*, STDDEV_* of REAL/DOUBLE: [count BIGINT, sum DOUBLE, sum of squared deviations
     *       from the mean DOUBLE] (PostgreSQL's Youngs-Cramer state)</li>
     * </ul>
     */
    public static List<DataType> stateTypes(AggregateFunction function, DataType argumentType, DataType resultType) {
        Objects.requireNonNull(function, "function");
        return switch (function) {
            case COUNT_STAR, COUNT -> List.of(DataType.BIGINT);
            case SUM, AVG -> Objects.requireNonNull(argumentType, "argumentType").vectorKind() == VectorKind.DOUBLE
                    ? List.of(DataType.DOUBLE, DataType.BIGINT)
                    : List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);
            case MIN, MAX, BIT_AND, BIT_OR, BIT_XOR -> List.of(Objects.requireNonNull(argumentType, "argumentType"));
            case BOOL_AND, BOOL_OR -> List.of(DataType.BOOLEAN);
            case SINGLE_VALUE -> List.of(Objects.requireNonNull(argumentType, "argumentType"), DataType.BIGINT);
            case ARRAY_AGG, COLLECT -> List.of(Objects.requireNonNull(resultType, "resultType"));
            case VAR_SAMP, VAR_POP, STDDEV_SAMP, STDDEV_POP ->
                    Objects.requireNonNull(argumentType, "argumentType").vectorKind() == VectorKind.DOUBLE
                            ? List.of(DataType.BIGINT, DataType.DOUBLE, DataType.DOUBLE)
                            : List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);
        };
    }
}
