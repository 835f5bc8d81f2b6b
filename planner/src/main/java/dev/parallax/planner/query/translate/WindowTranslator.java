package dev.parallax.planner.query.translate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.operator.aggregate.AggregateStates;
import dev.parallax.engine.plan.AggregateCall;
import dev.parallax.engine.plan.AggregateFunction;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.ProjectNode;
import dev.parallax.engine.plan.SortKey;
import dev.parallax.engine.plan.SortNode;
import dev.parallax.engine.plan.WindowCall;
import dev.parallax.engine.plan.WindowFrame;
import dev.parallax.engine.plan.WindowFrameExclusion;
import dev.parallax.engine.plan.WindowFunction;
import dev.parallax.engine.plan.WindowNode;
import dev.parallax.engine.plan.WindowRangeOffsets;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.schema.TypeMapping;
import dev.parallax.planner.query.validate.GroupsFrameMarker;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.util.NlsString;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/**
 * Window → one WindowNode per window ({@code OVER (...)} clause), each over a SortNode ordering
 * its input by the partition keys then the order keys (none when the rows already come so). Every WindowNode appends its functions'
 * columns after its input's, so the column numbers of later windows stay those of the input, and
 * the output matches Calcite's (input fields, then each group's calls in order). The ranking
 * functions and count, sum, avg, min, max, bool_and and bool_or are computed over ROWS, RANGE and
 * GROUPS frames with or without offsets and EXCLUDE, as PostgreSQL bounds them.
 */
final class WindowTranslator {
    private WindowTranslator() {
    }

    static PlanNode translate(Window window, RelTranslator translator) {
        PlanNode node = translator.translate(window.getInput());
        int inputFields = window.getInput().getRowType().getFieldCount();
        boolean constantArguments = !window.constants.isEmpty() && window.groups.stream()
                .flatMap(group -> group.aggCalls.stream())
                .flatMap(call -> call.getOperands().stream())
                .anyMatch(operand -> operand instanceof RexInputRef reference && reference.getIndex() >= inputFields);
        List<DataType> inputTypes = node.outputTypes();
        List<Expr> coercions = new ArrayList<>();
        Map<Window.RexWinAggCall, int[]> coercedArguments = coercions(window, inputTypes, inputFields + window.constants.size(), coercions);
        boolean projected = constantArguments || !coercions.isEmpty();
        if (projected) {
            // count(1), sum(2): Calcite numbers the window's constants after its input's fields, so
            // a projection appending them (and the arguments cast to the types their functions take)
            // lets every argument be a column; a last projection drops them.
            List<Expr> expressions = withConstants(node, window);
            expressions.addAll(coercions);
            node = project(node, expressions, translator);
        }
        int extraColumns = projected ? window.constants.size() + coercions.size() : 0;
        // The sort keys the rows arrive in at the next window; none known for the window's input.
        List<SortKey> order = List.of();
        for (Window.Group group : window.groups) {
            List<WindowCall> calls = new ArrayList<>();
            boolean framed = false;
            for (Window.RexWinAggCall call : group.aggCalls) {
                WindowCall windowCall = switch (call.getOperator().getKind()) {
                    case ROW_NUMBER -> WindowCall.ranking(WindowFunction.ROW_NUMBER);
                    case RANK -> WindowCall.ranking(WindowFunction.RANK);
                    case DENSE_RANK -> WindowCall.ranking(WindowFunction.DENSE_RANK);
                    case PERCENT_RANK -> WindowCall.ranking(WindowFunction.PERCENT_RANK);
                    case CUME_DIST -> WindowCall.ranking(WindowFunction.CUME_DIST);
                    case NTILE -> WindowCall.ntile(arguments(call, coercedArguments)[0]);
                    case LAG -> WindowCall.value(WindowFunction.LAG, arguments(call, coercedArguments), TypeMapping.toEngine(call.getType()));
                    case LEAD -> WindowCall.value(WindowFunction.LEAD, arguments(call, coercedArguments), TypeMapping.toEngine(call.getType()));
                    case FIRST_VALUE -> WindowCall.value(WindowFunction.FIRST_VALUE, arguments(call, coercedArguments),
                            TypeMapping.toEngine(call.getType()));
                    case LAST_VALUE -> WindowCall.value(WindowFunction.LAST_VALUE, arguments(call, coercedArguments),
                            TypeMapping.toEngine(call.getType()));
                    case NTH_VALUE -> WindowCall.value(WindowFunction.NTH_VALUE, arguments(call, coercedArguments),
                            TypeMapping.toEngine(call.getType()));
                    default -> WindowCall.aggregate(aggregate(call, node));
                };
                framed |= windowCall.aggregate() != null || windowCall.function() == WindowFunction.FIRST_VALUE
                        || windowCall.function() == WindowFunction.LAST_VALUE || windowCall.function() == WindowFunction.NTH_VALUE;
                calls.add(windowCall);
            }
            // The ranking functions, lag, lead and ntile ignore the frame: only a window with aggregates
            // or first_value, last_value, nth_value needs one supported.
            Frame frame = framed ? frame(group, window, inputFields, node) : new Frame(WindowFrame.THROUGH_ROW, 0, 0);
            int[] partitionColumns = group.keys.toArray();
            List<SortKey> keys = new ArrayList<>();
            for (int column : partitionColumns) {
                keys.add(new SortKey(column, false, false));
            }
            List<RelFieldCollation> collations = group.orderKeys.getFieldCollations();
            int[] orderColumns = new int[collations.size()];
            for (int index = 0; index < orderColumns.length; index++) {
                RelFieldCollation collation = collations.get(index);
                boolean descending = collation.getDirection().isDescending();
                boolean nullsFirst = switch (collation.nullDirection) {
                    case FIRST -> true;
                    case LAST -> false;
                    // PostgreSQL: NULLs sort as larger than any value.
                    case UNSPECIFIED -> descending;
                };
                orderColumns[index] = collation.getFieldIndex();
                keys.add(new SortKey(collation.getFieldIndex(), descending, nullsFirst));
            }
            PlanNode input = node;
            // A window keeps its input's order: a later window whose keys lead the earlier one's sort
            // (partition by g after partition by g order by v) reads that order without a sort of its own, as in PostgreSQL.
            boolean sorted = keys.size() <= order.size() && order.subList(0, keys.size()).equals(keys);
            if (!sorted) {
                input = new SortNode(node, keys, -1, translator.cost().sort(node.estimate(), node.estimate().rows(), -1));
                order = keys;
            }
            PlanEstimate inputEstimate = input.estimate();
            // One comparison per key and one counter update per row, as PostgreSQL charges cpu_operator_cost per row.
            double cost = inputEstimate.rows() * 0.0025 * (keys.size() + calls.size());
            node = new WindowNode(input, partitionColumns, orderColumns, frame.kind(), frame.start(), frame.end(), frame.exclusion(),
                    frame.rangeOffsets(), calls,
                    new PlanEstimate(inputEstimate.startupCost(), inputEstimate.totalCost() + cost, inputEstimate.rows(),
                            inputEstimate.width() + 8 * calls.size()));
        }
        if (projected) {
            List<Expr> kept = new ArrayList<>();
            List<DataType> types = node.outputTypes();
            for (int column = 0; column < types.size(); column++) {
                if (column < inputFields || column >= inputFields + extraColumns) {
                    kept.add(new ColumnRef(column, types.get(column)));
                }
            }
            node = project(node, kept, translator);
        }
        return node;
    }

    /** The input's columns followed by the window's constants. */
    private static List<Expr> withConstants(PlanNode input, Window window) {
        List<Expr> expressions = new ArrayList<>();
        List<DataType> types = input.outputTypes();
        for (int column = 0; column < types.size(); column++) {
            expressions.add(new ColumnRef(column, types.get(column)));
        }
        for (RexLiteral constant : window.constants) {
            expressions.add(RexTranslator.literal(constant));
        }
        return expressions;
    }

    private static PlanNode project(PlanNode input, List<Expr> expressions, RelTranslator translator) {
        return new ProjectNode(input, expressions,
                translator.cost().project(input.estimate(), expressions, expressions.stream().map(Expr::type).toList()));
    }

    /**
     * The arguments of the window functions other than the aggregates cast to the types the
     * functions read, as PostgreSQL coerces them: the value and the default of lag and lead to the
     * call's type (lag(bigint, 1, 7), lag(integer, 1, 1.5) as numeric, lag(x, 1, 'a') fails as 'a'::integer),
     * the offset, nth_value's n and ntile's bucket count to integer (a NULL among them is an integer
     * NULL). Adds the casts to {@code coercions}, numbered from {@code firstColumn}, and returns the
     * argument columns of each call that needs one.
     */
    private static Map<Window.RexWinAggCall, int[]> coercions(Window window, List<DataType> inputTypes, int firstColumn, List<Expr> coercions) {
        Map<Window.RexWinAggCall, int[]> coerced = new IdentityHashMap<>();
        for (Window.Group group : window.groups) {
            for (Window.RexWinAggCall call : group.aggCalls) {
                DataType valueType = TypeMapping.toEngine(call.getType());
                DataType[] wanted = switch (call.getOperator().getKind()) {
                    case NTILE -> new DataType[] {DataType.INTEGER};
                    case LAG, LEAD -> new DataType[] {valueType, DataType.INTEGER, valueType};
                    case NTH_VALUE -> new DataType[] {null, DataType.INTEGER};
                    default -> new DataType[0];
                };
                int[] arguments = new int[Math.min(wanted.length, call.getOperands().size())];
                Expr[] operands = new Expr[arguments.length];
                for (int operand = 0; operand < arguments.length; operand++) {
                    arguments[operand] = column(call, operand);
                    operands[operand] = argument(window, inputTypes, arguments[operand]);
                }
                boolean any = false;
                for (int operand = 0; operand < arguments.length; operand++) {
                    Expr argument = operands[operand];
                    DataType type = wanted[operand];
                    boolean nullLiteral = argument instanceof Literal literal && literal.value() == null;
                    boolean integer = argument.type().kind() == TypeKind.INTEGER || argument.type().kind() == TypeKind.SMALLINT;
                    if (type == DataType.INTEGER && !integer && !nullLiteral
                            && !(argument instanceof Literal && argument.type().kind() == TypeKind.CHAR)) {
                        // PostgreSQL takes an integer there and casts nothing else to it implicitly
                        // (bigint and numeric only by assignment); a quoted literal is read as one.
                        throw undefinedFunction(call, operands);
                    }
                    if (type != null && !argument.type().equals(type) && !(type == DataType.INTEGER && integer)) {
                        arguments[operand] = firstColumn + coercions.size();
                        coercions.add(nullLiteral ? Literal.nullOf(type) : new Cast(argument, type));
                        any = true;
                    }
                }
                if (any) {
                    coerced.put(call, arguments);
                }
            }
        }
        return coerced;
    }

    /** PostgreSQL's 42883 for a window function whose arguments match none of its signatures, e.g. lag(integer, bigint). */
    private static ParallaxException undefinedFunction(Window.RexWinAggCall call, Expr[] operands) {
        StringBuilder types = new StringBuilder();
        for (Expr operand : operands) {
            if (!types.isEmpty()) {
                types.append(", ");
            }
            types.append(operand instanceof Literal literal && literal.value() == null ? "unknown" : operand.type().nameWithoutModifier());
        }
        return new ParallaxException(SqlState.UNDEFINED_FUNCTION, "function " + call.getOperator().getName().toLowerCase(Locale.ROOT)
                + "(" + types + ") does not exist", null,
                "No function matches the given name and argument types. You might need to add explicit type casts.", 0, null);
    }

    /** A column of the window's input, or one of its constants (numbered after the input's fields). */
    private static Expr argument(Window window, List<DataType> inputTypes, int column) {
        if (column < inputTypes.size()) {
            return new ColumnRef(column, inputTypes.get(column));
        }
        return RexTranslator.literal(window.constants.get(column - inputTypes.size()));
    }

    /** The argument columns of a window function, cast ones in their place. */
    private static int[] arguments(Window.RexWinAggCall call, Map<Window.RexWinAggCall, int[]> coercedArguments) {
        int[] coerced = coercedArguments.get(call);
        if (coerced != null) {
            return coerced;
        }
        int[] arguments = new int[call.getOperands().size()];
        for (int operand = 0; operand < arguments.length; operand++) {
            arguments[operand] = column(call, operand);
        }
        return arguments;
    }

    /** The input column an operand of a window call reads (Calcite projects expressions and numbers constants as columns). */
    private static int column(Window.RexWinAggCall call, int operand) {
        RexNode node = call.getOperands().get(operand);
        if (!(node instanceof RexInputRef reference)) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window function %s of %s is not supported yet",
                    call.getOperator().getName().toLowerCase(Locale.ROOT), node);
        }
        return reference.getIndex();
    }

    /** The aggregate a window call computes, typed as the plain aggregate (Calcite derives both the same way). */
    private static AggregateCall aggregate(Window.RexWinAggCall call, PlanNode input) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        // By name: Calcite gives bool_and and every the kind MIN, bool_or and some MAX, and other
        // functions (array_agg, string_agg, stddev) kinds of their own or OTHER_FUNCTION.
        AggregateFunction function = switch (name) {
            case "count" -> call.getOperands().isEmpty() ? AggregateFunction.COUNT_STAR : AggregateFunction.COUNT;
            case "sum" -> AggregateFunction.SUM;
            case "avg" -> AggregateFunction.AVG;
            case "min" -> AggregateFunction.MIN;
            case "max" -> AggregateFunction.MAX;
            case "bool_and", "every" -> AggregateFunction.BOOL_AND;
            case "bool_or", "some" -> AggregateFunction.BOOL_OR;
            case "stddev", "stddev_samp" -> AggregateFunction.STDDEV_SAMP;
            case "stddev_pop" -> AggregateFunction.STDDEV_POP;
            case "variance", "var_samp" -> AggregateFunction.VAR_SAMP;
            case "var_pop" -> AggregateFunction.VAR_POP;
            default -> throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window function %s is not supported yet", name);
        };
        if (call.distinct) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "DISTINCT is not implemented for window functions");
        }
        if (call.getOperands().size() > 1) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window function %s with %d arguments is not supported yet",
                    name, call.getOperands().size());
        }
        int argument = -1;
        if (!call.getOperands().isEmpty()) {
            RexNode operand = call.getOperands().getFirst();
            if (!(operand instanceof RexInputRef reference)) {
                throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window function %s of %s is not supported yet", name, operand);
            }
            argument = reference.getIndex();
        }
        DataType argumentType = argument < 0 ? DataType.BIGINT : input.outputTypes().get(argument);
        DataType resultType = TypeMapping.toEngine(call.getType());
        return new AggregateCall(function, argument, false, argumentType, resultType,
                AggregateStates.stateTypes(function, argumentType, resultType), name);
    }

    /**
     * A window's frame: its kind, its bounds ({@link WindowNode#frameStart()}, {@link WindowNode#frameEnd()}),
     * its exclusion and a RANGE frame's offsets.
     */
    private record Frame(WindowFrame kind, long start, long end, WindowFrameExclusion exclusion, WindowRangeOffsets rangeOffsets) {
        Frame(WindowFrame kind, long start, long end) {
            this(kind, start, end, WindowFrameExclusion.NO_OTHERS, null);
        }
    }

    /**
     * The frame of a window with aggregates or first_value, last_value, nth_value. Without
     * exclusion, RANGE from UNBOUNDED PRECEDING to CURRENT ROW ends at the last peer, and to
     * UNBOUNDED FOLLOWING (or without ORDER BY, where every row is a peer) covers the partition;
     * ROWS from UNBOUNDED PRECEDING to CURRENT ROW ends at the row. The others are ROWS frames in rows
     * from the current row, and RANGE frames whose offsets are values of the order key's type
     * (Calcite's validator and {@code WindowFrameBounds} checked the key and offset types as
     * PostgreSQL does).
     */
    private static Frame frame(Window.Group group, Window window, int inputFields, PlanNode input) {
        RexWindowBound lower = group.lowerBound;
        RexWindowBound upper = group.upperBound;
        WindowFrameExclusion exclusion = switch (group.exclude) {
            case EXCLUDE_NO_OTHER -> WindowFrameExclusion.NO_OTHERS;
            case EXCLUDE_CURRENT_ROW -> WindowFrameExclusion.CURRENT_ROW;
            case EXCLUDE_GROUP -> WindowFrameExclusion.GROUP;
            case EXCLUDE_TIES -> WindowFrameExclusion.TIES;
        };
        boolean fromFirstRow = lower.isUnbounded() && lower.isPreceding();
        boolean toLastRow = upper.isUnbounded() && upper.isFollowing();
        boolean excludes = exclusion != WindowFrameExclusion.NO_OTHERS;
        if (fromFirstRow && toLastRow && !excludes) {
            return new Frame(WindowFrame.PARTITION, 0, 0);
        }
        if (!group.isRows) {
            if (fromFirstRow && upper.isCurrentRow() && !excludes) {
                return new Frame(group.orderKeys.getFieldCollations().isEmpty() ? WindowFrame.PARTITION : WindowFrame.THROUGH_PEERS, 0, 0);
            }
            return rangeFrame(group, window, inputFields, input, exclusion);
        }
        Long lowerGroups = groupsOffset(lower, window, inputFields);
        Long upperGroups = groupsOffset(upper, window, inputFields);
        if (lowerGroups != null || upperGroups != null) {
            return new Frame(WindowFrame.GROUPS, lowerGroups == null ? rowsOffset(lower, window, inputFields, "starting") : lowerGroups,
                    upperGroups == null ? rowsOffset(upper, window, inputFields, "ending") : upperGroups, exclusion, null);
        }
        if (fromFirstRow && upper.isCurrentRow() && !excludes) {
            return new Frame(WindowFrame.THROUGH_ROW, 0, 0);
        }
        return new Frame(WindowFrame.ROWS, rowsOffset(lower, window, inputFields, "starting"), rowsOffset(upper, window, inputFields, "ending"),
                exclusion, null);
    }

    /**
     * A GROUPS frame's bound ({@link GroupsFrameMarker}'s constant) in peer groups from the current
     * row's, negative PRECEDING, the unbounded markers for UNBOUNDED; null for a bound of another frame.
     */
    private static Long groupsOffset(RexWindowBound bound, Window window, int inputFields) {
        if (bound.isCurrentRow() || bound.isUnbounded()) {
            return null;
        }
        RexLiteral literal = offsetLiteral(bound.getOffset(), window, inputFields);
        String text = literal != null && literal.getValue() instanceof NlsString string ? string.getValue() : null;
        if (!GroupsFrameMarker.isMarker(text)) {
            return null;
        }
        Long groups = GroupsFrameMarker.groups(text);
        if (groups == null) {
            return bound.isPreceding() ? WindowNode.UNBOUNDED_PRECEDING : WindowNode.UNBOUNDED_FOLLOWING;
        }
        return bound.isPreceding() ? -groups : groups;
    }

    /** A RANGE frame other than the two without offsets and exclusion: each bound's kind, and the offsets over the one order key. */
    private static Frame rangeFrame(Window.Group group, Window window, int inputFields, PlanNode input, WindowFrameExclusion exclusion) {
        RexWindowBound lower = group.lowerBound;
        RexWindowBound upper = group.upperBound;
        Literal startOffset = rangeOffset(lower, window, inputFields, "starting");
        Literal endOffset = rangeOffset(upper, window, inputFields, "ending");
        WindowRangeOffsets offsets = null;
        if (startOffset != null || endOffset != null) {
            RelFieldCollation key = group.orderKeys.getFieldCollations().getFirst();
            boolean descending = key.getDirection().isDescending();
            boolean nullsFirst = switch (key.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                case UNSPECIFIED -> descending;
            };
            offsets = new WindowRangeOffsets(input.outputTypes().get(key.getFieldIndex()), descending, nullsFirst, startOffset, endOffset);
        }
        return new Frame(WindowFrame.RANGE, rangeBoundKind(lower), rangeBoundKind(upper), exclusion, offsets);
    }

    /** A RANGE bound as {@link WindowFrame#RANGE} encodes it: an unbounded marker, -1 for an offset PRECEDING, 0 for CURRENT ROW, 1 for an offset FOLLOWING. */
    private static long rangeBoundKind(RexWindowBound bound) {
        if (bound.isCurrentRow()) {
            return 0;
        }
        if (bound.isUnbounded()) {
            return bound.isPreceding() ? WindowNode.UNBOUNDED_PRECEDING : WindowNode.UNBOUNDED_FOLLOWING;
        }
        return bound.isPreceding() ? -1 : 1;
    }

    /** A RANGE bound's offset, a constant of the key's type (an interval for dates and timestamps); null for a bound without one. */
    private static Literal rangeOffset(RexWindowBound bound, Window window, int inputFields, String which) {
        if (bound.isCurrentRow() || bound.isUnbounded()) {
            return null;
        }
        RexLiteral literal = offsetLiteral(bound.getOffset(), window, inputFields);
        if (literal == null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window frame offset %s is not supported yet", bound.getOffset());
        }
        if (literal.isNull()) {
            throw ParallaxException.of(SqlState.NULL_VALUE_NOT_ALLOWED, "frame %s offset must not be null", which);
        }
        return RexTranslator.literal(literal);
    }

    /** A bound's offset as a literal: written in place, or among the window's constants (numbered after its input's fields). */
    private static RexLiteral offsetLiteral(RexNode offset, Window window, int inputFields) {
        if (offset instanceof RexLiteral direct) {
            return direct;
        }
        if (offset instanceof RexInputRef reference && reference.getIndex() >= inputFields
                && reference.getIndex() - inputFields < window.constants.size()) {
            return window.constants.get(reference.getIndex() - inputFields);
        }
        return null;
    }

    /**
     * A ROWS frame bound in rows from the current row: negative PRECEDING, the WindowNode's
     * unbounded markers for UNBOUNDED. A NULL or negative offset fails as in PostgreSQL (22004,
     * 22013), where the planner reads it (Calcite takes only constants there).
     */
    private static long rowsOffset(RexWindowBound bound, Window window, int inputFields, String which) {
        if (bound.isCurrentRow()) {
            return 0;
        }
        if (bound.isUnbounded()) {
            if (bound.isPreceding() != which.equals("starting")) {
                // Calcite's validator refuses these first; PostgreSQL's 42P20 words, should one come through.
                throw ParallaxException.of(SqlState.WINDOWING_ERROR, "frame %s cannot be UNBOUNDED %s",
                        which.equals("starting") ? "start" : "end", bound.isPreceding() ? "PRECEDING" : "FOLLOWING");
            }
            return bound.isPreceding() ? WindowNode.UNBOUNDED_PRECEDING : WindowNode.UNBOUNDED_FOLLOWING;
        }
        RexNode offset = bound.getOffset();
        RexLiteral literal = offsetLiteral(offset, window, inputFields);
        if (literal == null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window frame offset %s is not supported yet", offset);
        }
        if (literal.isNull()) {
            throw ParallaxException.of(SqlState.NULL_VALUE_NOT_ALLOWED, "frame %s offset must not be null", which);
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value == null) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "window frame offset %s is not supported yet", offset);
        }
        if (value.signum() < 0) {
            throw ParallaxException.of(SqlState.INVALID_PRECEDING_OR_FOLLOWING_SIZE, "frame %s offset must not be negative", which);
        }
        // PostgreSQL reads the offset as a bigint (a numeric rounds half away from zero).
        long rows = value.setScale(0, RoundingMode.HALF_UP).min(BigDecimal.valueOf(Long.MAX_VALUE - 1)).longValue();
        return bound.isPreceding() ? -rows : rows;
    }
}
