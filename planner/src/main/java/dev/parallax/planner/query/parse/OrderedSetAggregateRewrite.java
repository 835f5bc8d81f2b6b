package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's ordered-set aggregates, which Calcite's grammar and operators do not have in
 * PostgreSQL's form, written as calls of {@code OrderedSetAggregates} (planner.query.function):
 * <pre>
 *   mode() WITHIN GROUP (ORDER BY x [ASC | DESC] [NULLS ...]) [FILTER (WHERE c)]
 *       -> pg_mode(pg_collect(x) [FILTER (WHERE c)], descending)
 *   percentile_cont(f) WITHIN GROUP (ORDER BY x ...) [FILTER (WHERE c)]
 *       -> pg_percentile_cont(pg_collect(x) [FILTER (WHERE c)], f, descending)
 *   percentile_disc likewise
 * </pre>
 * The FILTER belongs to the aggregate inside: the pg_ function is a plain function of the group's
 * values, evaluated once per group like PostgreSQL's final function (so the fraction may only use
 * grouped columns, as PostgreSQL requires of direct arguments). Any other call of the three names —
 * without WITHIN GROUP, with another number of direct arguments or sort keys — becomes
 * {@code pg_ordered_set_call('name', within group written, arguments..., sort keys...)}, which fails
 * in validation with PostgreSQL's error once the arguments' types are known; with OVER it is
 * PostgreSQL's 0A000 here.
 */
final class OrderedSetAggregateRewrite {
    private static final Set<String> NAMES = Set.of("mode", "percentile_cont", "percentile_disc");

    private OrderedSetAggregateRewrite() {
    }

    static List<Piece> apply(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int arguments = PostgresDialectRewriter.skipSpaces(pieces, index + 1);
            if (!(piece instanceof Piece.Leaf leaf) || leaf.token().kind() != Kind.WORD || !NAMES.contains(leaf.token().lowerText())
                    || arguments >= pieces.size()
                    || !(pieces.get(arguments) instanceof Piece.Group call && call.open().kind() == Kind.LEFT_PARENTHESIS)
                    || precededByDot(pieces, index)) {
                result.add(piece);
                continue;
            }
            String name = leaf.token().lowerText();
            int position = leaf.token().position();
            List<List<Piece>> directArguments = split(call.children());
            int within = PostgresDialectRewriter.skipSpaces(pieces, arguments + 1);
            int group = PostgresDialectRewriter.skipSpaces(pieces, within + 1);
            int ordering = PostgresDialectRewriter.skipSpaces(pieces, group + 1);
            if (ordering >= pieces.size() || !PostgresDialectRewriter.isWord(pieces.get(within), "within")
                    || !PostgresDialectRewriter.isWord(pieces.get(group), "group")
                    || !(pieces.get(ordering) instanceof Piece.Group order && order.open().kind() == Kind.LEFT_PARENTHESIS)) {
                // mode(x), percentile_cont(0.5, x): PostgreSQL finds the aggregate (42809) or no function (42883).
                result.add(refusedCall(name, false, directArguments, List.of(), position));
                index = arguments;
                continue;
            }
            List<Piece> children = order.children();
            int orderWord = PostgresDialectRewriter.skipSpaces(children, 0);
            int byWord = PostgresDialectRewriter.skipSpaces(children, orderWord + 1);
            if (byWord >= children.size() || !PostgresDialectRewriter.isWord(children.get(orderWord), "order")
                    || !PostgresDialectRewriter.isWord(children.get(byWord), "by")) {
                result.add(piece);
                continue;
            }
            List<List<Piece>> sortKeys = new ArrayList<>();
            for (List<Piece> key : split(children.subList(byWord + 1, children.size()))) {
                int valueStart = PostgresDialectRewriter.skipSpaces(key, 0);
                sortKeys.add(key.subList(valueStart, sortKeyEnd(key, valueStart)));
            }
            int end = ordering;
            int filter = PostgresDialectRewriter.skipSpaces(pieces, ordering + 1);
            int condition = PostgresDialectRewriter.skipSpaces(pieces, filter + 1);
            Piece filterCondition = null;
            if (condition < pieces.size() && PostgresDialectRewriter.isWord(pieces.get(filter), "filter")
                    && pieces.get(condition) instanceof Piece.Group) {
                filterCondition = pieces.get(condition);
                end = condition;
            }
            int over = PostgresDialectRewriter.skipSpaces(pieces, end + 1);
            if (over < pieces.size() && PostgresDialectRewriter.isWord(pieces.get(over), "over")) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "OVER is not supported for ordered-set aggregate " + name,
                        null, null, position + 1, null);
            }
            if (directArguments.size() != (name.equals("mode") ? 0 : 1) || sortKeys.size() != 1) {
                result.add(refusedCall(name, true, directArguments, sortKeys, position));
                index = end;
                continue;
            }
            List<Object> parts = new ArrayList<>();
            parts.add("pg_" + name + "(pg_collect(");
            parts.addAll(sortKeys.getFirst());
            parts.add(")");
            if (filterCondition != null) {
                parts.add(" filter ");
                parts.add(filterCondition);
            }
            for (List<Piece> argument : directArguments) {
                parts.add(", ");
                parts.addAll(argument);
            }
            List<Piece> key = split(children.subList(byWord + 1, children.size())).getFirst();
            parts.add(descending(key) ? ", true)" : ", false)");
            result.add(new Piece.Composite(parts, position));
            index = end;
        }
        return result;
    }

    /** {@code pg_ordered_set_call('name', withinGroup, arguments..., sort keys...)}. */
    private static Piece refusedCall(String name, boolean withinGroup, List<List<Piece>> arguments, List<List<Piece>> sortKeys,
                                     int position) {
        List<Object> parts = new ArrayList<>();
        parts.add("pg_ordered_set_call('" + name + "', " + withinGroup);
        for (List<Piece> argument : arguments) {
            parts.add(", ");
            parts.addAll(argument);
        }
        for (List<Piece> key : sortKeys) {
            parts.add(", ");
            parts.addAll(key);
        }
        parts.add(")");
        return new Piece.Composite(parts, position);
    }

    /**
     * The comma-separated items of a parenthesised list; none when it holds only spaces. Brackets are
     * operator tokens, not groups: a comma between them ({@code array[0.25, 0.5]}) separates no items.
     */
    private static List<List<Piece>> split(List<Piece> children) {
        List<List<Piece>> items = new ArrayList<>();
        if (children.stream().allMatch(PostgresDialectRewriter::isSpace)) {
            return items;
        }
        int start = 0;
        int brackets = 0;
        for (int index = 0; index <= children.size(); index++) {
            Piece child = index == children.size() ? null : children.get(index);
            if (child instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.OPERATOR) {
                brackets += leaf.token().text().chars().map(character -> character == '[' ? 1 : character == ']' ? -1 : 0).sum();
            }
            if (child == null || brackets == 0 && child instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.COMMA) {
                items.add(children.subList(start, index));
                start = index + 1;
            }
        }
        return items;
    }

    private static boolean precededByDot(List<Piece> pieces, int index) {
        int before = PostgresDialectRewriter.previousNonSpace(pieces, index);
        return before >= 0 && pieces.get(before) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.DOT;
    }

    /** Whether a sort key ends with DESC (before any NULLS FIRST / LAST). */
    private static boolean descending(List<Piece> key) {
        int start = PostgresDialectRewriter.skipSpaces(key, 0);
        int direction = PostgresDialectRewriter.skipSpaces(key, sortKeyEnd(key, start));
        return direction < key.size() && PostgresDialectRewriter.isWord(key.get(direction), "desc");
    }

    /** The end of a sort key's expression that starts at {@code start}: before ASC / DESC and NULLS FIRST / LAST. */
    private static int sortKeyEnd(List<Piece> children, int start) {
        int end = children.size();
        for (int pass = 0; pass < 2; pass++) {
            int last = PostgresDialectRewriter.previousNonSpace(children, end);
            if (last <= start) {
                break;
            }
            int beforeLast = PostgresDialectRewriter.previousNonSpace(children, last);
            if ((PostgresDialectRewriter.isWord(children.get(last), "first") || PostgresDialectRewriter.isWord(children.get(last), "last"))
                    && beforeLast > start && PostgresDialectRewriter.isWord(children.get(beforeLast), "nulls")) {
                end = beforeLast;
            } else if (PostgresDialectRewriter.isWord(children.get(last), "asc") || PostgresDialectRewriter.isWord(children.get(last), "desc")) {
                end = last;
            }
        }
        return end;
    }
}
