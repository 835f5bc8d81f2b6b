package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.SqlState;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlWindow;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * PostgreSQL's checks of a window frame's bounds, before Calcite's (which word them otherwise and
 * refuse offsets PostgreSQL takes):
 * <ul>
 * <li>the bounds' order, 42P20 as PostgreSQL's grammar raises it: frame start cannot be UNBOUNDED
 * FOLLOWING, frame end cannot be UNBOUNDED PRECEDING, frame starting from current row cannot have
 * preceding rows, frame starting from following row cannot have preceding rows; a single bound
 * {@code ROWS 1 FOLLOWING} starts the frame there and ends it at the current row, so it fails with
 * frame starting from following row cannot end with current row (Calcite's parser reads it as
 * {@code BETWEEN CURRENT ROW AND 1 FOLLOWING});</li>
 * <li>a negative offset, 22013 frame starting / ending offset must not be negative (PostgreSQL
 * raises it when the window starts; here when the statement is planned);</li>
 * <li>a ROWS offset with a fraction is rounded to a bigint as PostgreSQL casts it (Calcite takes
 * only integers).</li>
 * </ul>
 */
final class WindowFrameBounds {
    private WindowFrameBounds() {
    }

    static void check(SqlWindow window) {
        SqlNode lower = window.getLowerBound();
        SqlNode upper = window.getUpperBound();
        if (lower != null && SqlWindow.isUnboundedFollowing(lower)) {
            throw PostgresValidationError.at(lower.getParserPosition(), SqlState.WINDOWING_ERROR, "frame start cannot be UNBOUNDED FOLLOWING", null);
        }
        if (upper == null) {
            // A single bound (PRECEDING, CURRENT ROW or UNBOUNDED PRECEDING): the frame ends at the current row.
            if (lower != null) {
                checkOffset(window, lower, "starting");
            }
            return;
        }
        if (lower == null) {
            // The single bound written, which Calcite's parser moved to the upper bound: a FOLLOWING one.
            throw PostgresValidationError.at(upper.getParserPosition(), SqlState.WINDOWING_ERROR,
                    SqlWindow.isUnboundedFollowing(upper) ? "frame start cannot be UNBOUNDED FOLLOWING"
                            : "frame starting from following row cannot end with current row", null);
        }
        if (SqlWindow.isUnboundedPreceding(upper)) {
            throw PostgresValidationError.at(upper.getParserPosition(), SqlState.WINDOWING_ERROR, "frame end cannot be UNBOUNDED PRECEDING", null);
        }
        boolean upperPrecedes = upper.getKind() == SqlKind.PRECEDING;
        if (SqlWindow.isCurrentRow(lower) && upperPrecedes) {
            throw PostgresValidationError.at(upper.getParserPosition(), SqlState.WINDOWING_ERROR,
                    "frame starting from current row cannot have preceding rows", null);
        }
        if (lower.getKind() == SqlKind.FOLLOWING && (upperPrecedes || SqlWindow.isCurrentRow(upper))) {
            throw PostgresValidationError.at(upper.getParserPosition(), SqlState.WINDOWING_ERROR,
                    "frame starting from following row cannot have preceding rows", null);
        }
        checkOffset(window, lower, "starting");
        checkOffset(window, upper, "ending");
    }

    /** A PRECEDING / FOLLOWING bound's offset: negative fails, a ROWS offset with a fraction is rounded. */
    private static void checkOffset(SqlWindow window, SqlNode bound, String which) {
        if (bound.getKind() != SqlKind.PRECEDING && bound.getKind() != SqlKind.FOLLOWING) {
            return;
        }
        SqlCall call = (SqlCall) bound;
        SqlNode offset = call.operand(0);
        boolean negated = offset.getKind() == SqlKind.MINUS_PREFIX;
        SqlNode number = negated ? ((SqlCall) offset).operand(0) : offset;
        if (!(number instanceof SqlNumericLiteral literal)) {
            return;
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (negated ? value.signum() > 0 : value.signum() < 0) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    "frame " + which + " offset must not be negative", null);
        }
        if (window.isRows() && !negated && value.stripTrailingZeros().scale() > 0) {
            call.setOperand(0, SqlLiteral.createExactNumeric(value.setScale(0, RoundingMode.HALF_UP).toPlainString(), offset.getParserPosition()));
        }
    }
}
