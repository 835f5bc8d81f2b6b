package dev.parallax.planner.query.cost;

import dev.parallax.engine.catalog.ColumnStatistics;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;

/**
 * Selectivities from ANALYZE's statistics, as PostgreSQL's eqsel / scalarineqsel would give them
 * without most-common values or histograms (which ANALYZE does not gather yet): {@code col = const}
 * keeps {@code (1 - null_frac) / n_distinct} of the rows; {@code col < const} (and the other range
 * comparisons, either side) the fraction of {@code [min, max]} below the constant, interpolated
 * linearly, times {@code 1 - null_frac}; {@code IS [NOT] NULL} the null fraction. Applies to a
 * column compared with a constant (ranges: of the column's own type, numbers and dates; text
 * ranges fall back); everything else returns NaN, so the caller uses PostgreSQL's default.
 */
final class StatisticsSelectivity {
    private StatisticsSelectivity() {
    }

    static double of(Call call, ColumnStatisticsLookup statistics) {
        Function function = call.function();
        if ((function == Function.IS_NULL || function == Function.IS_NOT_NULL) && call.arguments().size() == 1
                && call.arguments().getFirst() instanceof ColumnRef column) {
            ColumnStatistics stats = statistics.column(column.index());
            if (stats == null) {
                return Double.NaN;
            }
            return function == Function.IS_NULL ? stats.nullFraction() : 1 - stats.nullFraction();
        }
        if (call.arguments().size() != 2) {
            return Double.NaN;
        }
        Expr left = call.arguments().get(0);
        Expr right = call.arguments().get(1);
        boolean flipped = false;
        if (left instanceof Literal && right instanceof ColumnRef) {
            Expr swap = left;
            left = right;
            right = swap;
            flipped = true;
        }
        if (!(left instanceof ColumnRef column) || !(right instanceof Literal literal) || literal.isNull()) {
            return Double.NaN;
        }
        ColumnStatistics stats = statistics.column(column.index());
        if (stats == null) {
            return Double.NaN;
        }
        double nonNull = 1 - stats.nullFraction();
        // const < col is col > const, and so on: put the column on the left.
        Function comparison = !flipped ? function : switch (function) {
            case LESS_THAN -> Function.GREATER_THAN;
            case LESS_THAN_OR_EQUAL -> Function.GREATER_THAN_OR_EQUAL;
            case GREATER_THAN -> Function.LESS_THAN;
            case GREATER_THAN_OR_EQUAL -> Function.LESS_THAN_OR_EQUAL;
            default -> function;
        };
        double below = switch (comparison) {
            case LESS_THAN, GREATER_THAN_OR_EQUAL -> fractionBelow(stats, literal, column, false);
            case LESS_THAN_OR_EQUAL, GREATER_THAN -> fractionBelow(stats, literal, column, true);
            default -> Double.NaN;
        };
        return switch (comparison) {
            case EQUAL -> stats.distinctCount() > 0 ? nonNull / stats.distinctCount() : 0;
            case NOT_EQUAL -> stats.distinctCount() > 0 ? nonNull * (1 - 1 / stats.distinctCount()) : 0;
            case LESS_THAN, LESS_THAN_OR_EQUAL -> nonNull * below;
            case GREATER_THAN, GREATER_THAN_OR_EQUAL -> Double.isNaN(below) ? below : nonNull * (1 - below);
            default -> Double.NaN;
        };
    }

    /**
     * The fraction of the column's values below {@code value} ({@code inclusive}: at or below),
     * from a uniform spread over [min, max]; NaN when the column has no numeric range.
     */
    private static double fractionBelow(ColumnStatistics stats, Literal literal, ColumnRef column, boolean inclusive) {
        if (!literal.type().equals(column.type())) {
            return Double.NaN; // a value of another scale or unit cannot be placed among the column's
        }
        Object value = literal.value();
        double minimum;
        double maximum;
        double point;
        if (stats.minimum() instanceof Long low && stats.maximum() instanceof Long high && value instanceof Long at) {
            minimum = low;
            maximum = high;
            point = at;
        } else if (stats.minimum() instanceof Double low && stats.maximum() instanceof Double high && value instanceof Double at) {
            minimum = low;
            maximum = high;
            point = at;
        } else {
            return Double.NaN;
        }
        if (point < minimum || (point == minimum && !inclusive)) {
            return 0;
        }
        if (point > maximum || (point == maximum && inclusive)) {
            return 1;
        }
        if (maximum == minimum) {
            return inclusive ? 1 : 0;
        }
        return (point - minimum) / (maximum - minimum);
    }
}
