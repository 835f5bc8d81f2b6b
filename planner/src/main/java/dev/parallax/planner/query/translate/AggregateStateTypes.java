package dev.parallax.planner.query.translate;

import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

import java.util.List;

/**
 * The intermediate state layout of each aggregate between PARTIAL and FINAL. Local stand-in for
 * the engine's {@code AggregateStates.stateTypes(function, argumentType, resultType)}, which the
 * operators work is writing; switch to it once it exists so there is one definition.
 */
final class AggregateStateTypes {
    private AggregateStateTypes() {
    }

    static List<DataType> stateTypes(AggregateFunction function, DataType argumentType, DataType resultType) {
        return switch (function) {
            case COUNT_STAR, COUNT -> List.of(DataType.BIGINT);
            // The count tells an empty group (NULL sum) from a zero sum.
            case SUM -> List.of(resultType, DataType.BIGINT);
            case AVG -> List.of(sumTypeForAverage(argumentType), DataType.BIGINT);
            case MIN, MAX -> List.of(argumentType);
            case BOOL_AND, BOOL_OR -> List.of(DataType.BOOLEAN);
        };
    }

    private static DataType sumTypeForAverage(DataType argumentType) {
        TypeKind kind = argumentType.kind();
        return switch (kind) {
            case SMALLINT, INTEGER, BIGINT -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0);
            case DECIMAL -> DataType.decimal(DataType.MAX_DECIMAL_PRECISION, argumentType.scale());
            default -> DataType.DOUBLE;
        };
    }
}
