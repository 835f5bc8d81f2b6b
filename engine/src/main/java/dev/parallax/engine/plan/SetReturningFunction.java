package dev.parallax.engine.plan;

import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;

/**
 * A set-returning function called in a select list, as a {@link ProjectSetNode} runs it: its
 * arguments are expressions over the input row, and it yields a number of values for each row.
 */
public sealed interface SetReturningFunction {
    /** The type of the values it yields. */
    DataType type();

    /** The name PostgreSQL shows for it (EXPLAIN VERBOSE). */
    String name();

    /**
     * {@code generate_series(start, stop[, step])} over integers of {@code type}, or over timestamps
     * with a step of an interval type: no values when an argument is NULL.
     */
    record Series(Expr start, Expr stop, Expr step, DataType type) implements SetReturningFunction {
        /** True when the step is a count of months, added to each timestamp in turn. */
        public boolean stepsByMonths() {
            return step.type().kind() == TypeKind.INTERVAL_YEAR_MONTH;
        }

        @Override
        public String name() {
            return "generate_series";
        }
    }

    /** {@code unnest(array)}: the array's elements in order, none for a NULL or empty array. */
    record Unnest(Expr array) implements SetReturningFunction {
        public Unnest {
            if (array.type().kind() != TypeKind.ARRAY) {
                throw new IllegalArgumentException("unnest of " + array.type());
            }
        }

        @Override
        public DataType type() {
            return array.type().element();
        }

        @Override
        public String name() {
            return "unnest";
        }
    }
}
