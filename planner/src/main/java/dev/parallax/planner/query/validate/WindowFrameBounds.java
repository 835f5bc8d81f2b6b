package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.parse.PostgresIntervalText;
import dev.parallax.planner.query.schema.TypeMapping;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;

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
 * raises it when the window starts; here when the statement is planned), under RANGE invalid
 * preceding or following size in window function, as its in_range functions raise it;</li>
 * <li>RANGE with an offset ({@link #checkRange}): exactly one ORDER BY column (42P20), a key type
 * with PostgreSQL's in_range function (numbers, dates, timestamps) and an offset type it takes
 * (0A000, with PostgreSQL's words and hint), a NULL offset 22004;</li>
 * <li>GROUPS (written by the dialect rewrite as a ROWS frame with {@code pg_groups_offset(...)}
 * bounds): an ORDER BY (42P20 GROUPS mode requires an ORDER BY clause), offsets checked as ROWS
 * offsets are, then written as {@link GroupsFrameMarker}'s constants;</li>
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
        if (isGroupsFrame(window)) {
            if (window.getRefName() == null) {
                checkGroupsOrder(window);
            }
            markGroupsBound(lower, "starting");
            markGroupsBound(upper, "ending");
            return;
        }
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

    /**
     * A PRECEDING / FOLLOWING bound's offset: a column in it fails (42P10 argument of ROWS must not
     * contain variables), negative fails, a ROWS offset with a fraction is rounded.
     */
    private static void checkOffset(SqlWindow window, SqlNode bound, String which) {
        if (bound.getKind() != SqlKind.PRECEDING && bound.getKind() != SqlKind.FOLLOWING) {
            return;
        }
        SqlCall call = (SqlCall) bound;
        SqlNode offset = call.operand(0);
        SqlIdentifier variable = firstIdentifier(offset);
        if (variable != null) {
            throw PostgresValidationError.at(variable.getParserPosition(), SqlState.INVALID_COLUMN_REFERENCE,
                    "argument of " + (window.isRows() ? "ROWS" : "RANGE") + " must not contain variables", null);
        }
        if (window.isRows() && offset instanceof SqlCharStringLiteral text) {
            // PostgreSQL reads a quoted ROWS offset as a bigint.
            offset = numberOffset(text, DataType.BIGINT);
            call.setOperand(0, offset);
        }
        boolean negated = offset.getKind() == SqlKind.MINUS_PREFIX;
        SqlNode number = negated ? ((SqlCall) offset).operand(0) : offset;
        if (!(number instanceof SqlNumericLiteral literal)) {
            return;
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (!window.isRows()) {
            // RANGE offsets are checked with their types (checkRange).
            return;
        }
        if (negated ? value.signum() > 0 : value.signum() < 0) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    "frame " + which + " offset must not be negative", null);
        }
        if (window.isRows() && !negated && value.stripTrailingZeros().scale() > 0) {
            call.setOperand(0, SqlLiteral.createExactNumeric(value.setScale(0, RoundingMode.HALF_UP).toPlainString(), offset.getParserPosition()));
        }
    }

    /**
     * PostgreSQL's checks of a RANGE frame with an offset bound ({@code window} resolved, so that it
     * has the ORDER BY of a window it names), in its order: one ORDER BY column, the key's and the
     * offset's types (the in_range function that takes them), then a NULL or negative offset.
     */
    static void checkRange(SqlWindow window, SqlValidator validator, SqlValidatorScope scope) {
        if (isGroupsFrame(window)) {
            checkGroupsOrder(window);
            return;
        }
        if (window.isRows()) {
            return;
        }
        SqlNode lower = window.getLowerBound();
        SqlNode upper = window.getUpperBound();
        boolean lowerOffset = hasOffset(lower);
        boolean upperOffset = hasOffset(upper);
        if (!lowerOffset && !upperOffset) {
            return;
        }
        if (window.getOrderList().size() != 1) {
            throw PostgresValidationError.at(window.getParserPosition(), SqlState.WINDOWING_ERROR,
                    "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column", null);
        }
        SqlNode key = window.getOrderList().get(0);
        while (key.getKind() == SqlKind.DESCENDING || key.getKind() == SqlKind.NULLS_FIRST || key.getKind() == SqlKind.NULLS_LAST) {
            key = ((SqlCall) key).operand(0);
        }
        DataType keyType = TypeMapping.toEngine(validator.deriveType(scope, key));
        if (lowerOffset) {
            checkRangeOffset(keyType, (SqlCall) lower, validator, scope, "starting");
        }
        if (upperOffset) {
            checkRangeOffset(keyType, (SqlCall) upper, validator, scope, "ending");
        }
    }

    private static boolean hasOffset(SqlNode bound) {
        return bound != null && (bound.getKind() == SqlKind.PRECEDING || bound.getKind() == SqlKind.FOLLOWING);
    }

    /** A RANGE offset over a key of {@code keyType}: a type PostgreSQL's in_range takes with it, not NULL, not negative. */
    private static void checkRangeOffset(DataType keyType, SqlCall bound, SqlValidator validator, SqlValidatorScope scope, String which) {
        SqlNode offset = bound.operand(0);
        boolean keyHasInRange = switch (keyType.kind()) {
            case SMALLINT, INTEGER, BIGINT, DECIMAL, REAL, DOUBLE, DATE, TIMESTAMP -> true;
            default -> false;
        };
        if (!keyHasInRange) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.FEATURE_NOT_SUPPORTED,
                    "RANGE with offset PRECEDING/FOLLOWING is not supported for column type " + keyType.nameWithoutModifier(), null);
        }
        if (SqlUtil.isNullLiteral(offset, true)) {
            // Raised by PostgreSQL's executor, without a position.
            throw new ParallaxException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame " + which + " offset must not be null", null, null, 0, null);
        }
        if (offset instanceof SqlCharStringLiteral text) {
            // A quoted offset is read as PostgreSQL reads the unknown literal: a value of the key's type, an interval for dates and timestamps.
            offset = switch (keyType.kind()) {
                case DATE, TIMESTAMP -> intervalOffset(text);
                default -> numberOffset(text, keyType);
            };
            bound.setOperand(0, offset);
        }
        DataType offsetType = TypeMapping.toEngine(validator.deriveType(scope, offset));
        TypeKind kind = offsetType.kind();
        boolean integer = kind == TypeKind.SMALLINT || kind == TypeKind.INTEGER || kind == TypeKind.BIGINT;
        boolean taken = switch (keyType.kind()) {
            case SMALLINT, INTEGER, BIGINT -> integer;
            case DECIMAL -> integer || kind == TypeKind.DECIMAL;
            case REAL, DOUBLE -> kind.isNumeric();
            default -> kind == TypeKind.INTERVAL_YEAR_MONTH || kind == TypeKind.INTERVAL_DAY_TIME;
        };
        if (!taken) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.FEATURE_NOT_SUPPORTED,
                    "RANGE with offset PRECEDING/FOLLOWING is not supported for column type " + keyType.nameWithoutModifier()
                            + " and offset type " + offsetType.nameWithoutModifier(), "Cast the offset value to an appropriate type.");
        }
        boolean negated = offset.getKind() == SqlKind.MINUS_PREFIX;
        SqlNode value = negated ? ((SqlCall) offset).operand(0) : offset;
        boolean negative = value instanceof SqlNumericLiteral number
                ? (negated ? number.getValueAs(BigDecimal.class).signum() > 0 : number.getValueAs(BigDecimal.class).signum() < 0)
                : value instanceof SqlIntervalLiteral interval && negated != (interval.getValueAs(SqlIntervalLiteral.IntervalValue.class).getSign() < 0);
        if (negative) {
            // PostgreSQL's in_range functions raise it, without a position.
            throw new ParallaxException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "invalid preceding or following size in window function",
                    null, null, 0, null);
        }
    }

    /**
     * Whether {@code window} is a GROUPS frame: a ROWS frame whose bounds the dialect rewrite wrote
     * as {@code pg_groups_offset(...)} calls, or that {@link #markGroupsBound} already marked.
     */
    private static boolean isGroupsFrame(SqlWindow window) {
        return window.isRows() && (isGroupsBound(window.getLowerBound()) || isGroupsBound(window.getUpperBound()));
    }

    private static boolean isGroupsBound(SqlNode bound) {
        if (!hasOffset(bound)) {
            return false;
        }
        SqlNode offset = ((SqlCall) bound).operand(0);
        return offset instanceof SqlCall call && call.getOperator().getName().equalsIgnoreCase(GroupsFrameMarker.OFFSET_FUNCTION)
                || offset instanceof SqlCharStringLiteral literal && GroupsFrameMarker.isMarker(literal.getValueAs(String.class));
    }

    /** PostgreSQL's 42P20 for a GROUPS frame without ORDER BY ({@code window} resolved when it names another). */
    private static void checkGroupsOrder(SqlWindow window) {
        if (window.getOrderList().isEmpty()) {
            throw PostgresValidationError.at(window.getParserPosition(), SqlState.WINDOWING_ERROR, "GROUPS mode requires an ORDER BY clause", null);
        }
    }

    /**
     * Checks a GROUPS bound's offset as PostgreSQL does (no column, not NULL, not negative; a
     * fraction rounded as its bigint cast rounds) and writes it as {@link GroupsFrameMarker}'s constant.
     */
    private static void markGroupsBound(SqlNode bound, String which) {
        if (!hasOffset(bound) || !(((SqlCall) bound).operand(0) instanceof SqlCall marker)) {
            return;
        }
        SqlCall call = (SqlCall) bound;
        if (marker.operandCount() == 0) {
            call.setOperand(0, GroupsFrameMarker.literal(null, marker.getParserPosition()));
            return;
        }
        SqlNode offset = marker.operand(0);
        if (offset instanceof SqlCharStringLiteral text) {
            offset = numberOffset(text, DataType.BIGINT);
        }
        SqlIdentifier variable = firstIdentifier(offset);
        if (variable != null) {
            throw PostgresValidationError.at(variable.getParserPosition(), SqlState.INVALID_COLUMN_REFERENCE,
                    "argument of GROUPS must not contain variables", null);
        }
        if (SqlUtil.isNullLiteral(offset, true)) {
            // Raised by PostgreSQL's executor, without a position.
            throw new ParallaxException(SqlState.NULL_VALUE_NOT_ALLOWED, "frame " + which + " offset must not be null", null, null, 0, null);
        }
        boolean negated = offset.getKind() == SqlKind.MINUS_PREFIX;
        SqlNode number = negated ? ((SqlCall) offset).operand(0) : offset;
        if (!(number instanceof SqlNumericLiteral literal)) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.FEATURE_NOT_SUPPORTED,
                    "window frame offset " + offset + " is not supported yet", null);
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (negated ? value.signum() > 0 : value.signum() < 0) {
            throw PostgresValidationError.at(offset.getParserPosition(), SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                    "frame " + which + " offset must not be negative", null);
        }
        long groups = value.abs().setScale(0, RoundingMode.HALF_UP).min(BigDecimal.valueOf(Long.MAX_VALUE - 1)).longValue();
        call.setOperand(0, GroupsFrameMarker.literal(groups, offset.getParserPosition()));
    }

    /**
     * A quoted offset read as a number of {@code type} (a whole one unless numeric or floating):
     * 22P02 invalid input syntax for type integer: "x" as PostgreSQL's input functions, 22003 out of
     * the type's range; NaN is an invalid size (22013).
     */
    private static SqlNode numberOffset(SqlCharStringLiteral text, DataType type) {
        String body = text.getValueAs(String.class);
        String trimmed = body.trim();
        SqlParserPos position = text.getParserPosition();
        boolean floating = type.kind() == TypeKind.REAL || type.kind() == TypeKind.DOUBLE;
        if (floating && trimmed.equalsIgnoreCase("nan")) {
            throw new ParallaxException(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "invalid preceding or following size in window function",
                    null, null, 0, null);
        }
        BigDecimal value;
        try {
            value = new BigDecimal(trimmed);
        } catch (NumberFormatException notANumber) {
            throw PostgresValidationError.at(position, SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type " + type.nameWithoutModifier() + ": \"" + body + "\"", null);
        }
        boolean whole = type.kind() == TypeKind.SMALLINT || type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT;
        if (whole && (value.stripTrailingZeros().scale() > 0 || !trimmed.matches("[+-]?[0-9]+"))) {
            throw PostgresValidationError.at(position, SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type " + type.nameWithoutModifier() + ": \"" + body + "\"", null);
        }
        long limit = switch (type.kind()) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
        if (whole && (value.compareTo(BigDecimal.valueOf(limit)) > 0 || value.compareTo(BigDecimal.valueOf(-limit - 1)) < 0)) {
            throw PostgresValidationError.at(position, SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value \"" + body + "\" is out of range for type " + type.nameWithoutModifier(), null);
        }
        SqlNode magnitude = floating ? SqlLiteral.createApproxNumeric(value.abs().toString() + "E0", position)
                : SqlLiteral.createExactNumeric(value.abs().toPlainString(), position);
        return value.signum() < 0 ? SqlStdOperatorTable.UNARY_MINUS.createCall(position, magnitude) : magnitude;
    }

    /** A quoted offset over a date or timestamp key, read as PostgreSQL's interval input reads it. */
    private static SqlNode intervalOffset(SqlCharStringLiteral text) {
        String literal = PostgresIntervalText.toSqlLiteral(text.getValueAs(String.class), 0);
        try {
            return SqlParser.create(literal).parseExpression();
        } catch (SqlParseException exception) {
            throw PostgresValidationError.at(text.getParserPosition(), SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type interval: \"" + text.getValueAs(String.class) + "\"", null);
        }
    }

    /** The first column named in {@code node} (not looking into subqueries' own columns apart), or null. */
    private static SqlIdentifier firstIdentifier(SqlNode node) {
        if (node instanceof SqlIdentifier identifier) {
            return identifier;
        }
        if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                SqlIdentifier found = operand == null ? null : firstIdentifier(operand);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
