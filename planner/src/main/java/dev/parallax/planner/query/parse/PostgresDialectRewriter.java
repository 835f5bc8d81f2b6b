package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the PostgreSQL syntax that Calcite's core grammar lacks into calls it parses, on a
 * token tree so that quotes, comments and parentheses are respected:
 * <ul>
 *   <li>{@code $n} and {@code ?} parameters become {@code ?}, remembering each one's number;</li>
 *   <li>{@code B'0101'} becomes {@code pg_bit_string('0101')};</li>
 *   <li>an integer literal of more than 18 digits becomes {@code pg_bigint_literal('digits')}: in
 *       PostgreSQL it is a bigint when it fits one (a numeric otherwise), while Calcite would type
 *       it DECIMAL(19) and reject it past the 18-digit precision; a prefix minus joins
 *       {@code 9223372036854775808} so that bigint's minimum is a literal;</li>
 *   <li>{@code LIMIT -n} / {@code OFFSET -n} raise PostgreSQL's 2201W / 2201X (Calcite's grammar
 *       takes unsigned counts only);</li>
 *   <li>{@code SELECT ... WHERE/GROUP BY/HAVING} without FROM gets a one-row VALUES as its FROM;</li>
 *   <li>{@code day}, {@code month}... used as names, and {@code value}, are quoted (Calcite reserves them);</li>
 *   <li>{@code x::type} becomes {@code CAST(x AS type)}, and PostgreSQL type names in casts
 *       ({@code int4}, {@code text}, {@code double precision}, {@code bit varying}...) get Calcite's
 *       spelling;</li>
 *   <li>{@code interval '3 months'} becomes an SQL-standard interval literal, and single-field
 *       qualifiers get a wide leading precision ({@code interval '100' day} is legal in PostgreSQL);</li>
 *   <li>{@code a ^ b} becomes {@code pg_power(a, b)} (Calcite would read it as xor; a name of its
 *       own keeps the column unnamed, as PostgreSQL leaves an operator's);</li>
 *   <li>{@code OPERATOR(pg_catalog.~)} becomes {@code ~}; {@code COLLATE pg_catalog.default} is dropped;
 *       {@code pg_catalog.f(...)} calls lose their qualifier;</li>
 *   <li>{@code E'...'} escape strings become standard strings (in the lexer);</li>
 *   <li>{@code a ~ b}, {@code a !~ b}, {@code a ~* b} and {@code a !~* b} become {@code pg_regex_match},
 *       {@code pg_not_regex_match}, {@code pg_regex_match_insensitive} and
 *       {@code pg_not_regex_match_insensitive} calls, with the precedence of the bit operators below;</li>
 *   <li>{@code a & b}, {@code a | b}, {@code a # b} and {@code ~a} become {@code pg_bit_and},
 *       {@code pg_bit_or}, {@code pg_bit_xor} and {@code pg_bit_not} calls with PostgreSQL's
 *       precedence: tighter than comparisons, looser than arithmetic, left-associative.</li>
 * </ul>
 * Why a rewrite and not an extended grammar: generating a parser needs FMPP and JavaCC at build
 * time, which this build cannot fetch; these constructs are all expressible as Calcite calls, and
 * the rewrite is small and tested (PostgresDialectRewriterTest).
 */
public final class PostgresDialectRewriter {
    /** Words that end an operand of a PostgreSQL "other operator" (&, |, #, ~) or start a clause. */
    private static final Set<String> STOP_WORDS = Set.of(
            "select", "from", "where", "group", "by", "having", "order", "limit", "offset", "and", "or", "not",
            "is", "in", "like", "ilike", "similar", "between", "as", "when", "then", "else", "end", "asc", "desc",
            "nulls", "on", "join", "inner", "left", "right", "full", "outer", "cross", "union", "except",
            "intersect", "all", "distinct", "values", "set", "into", "escape", "using", "fetch", "with", "over",
            "filter", "returning", "isnull", "notnull", "symmetric", "asymmetric");
    private static final Set<String> BOUNDARY_OPERATORS = Set.of("=", "<", ">", "<=", ">=", "<>", "!=", "||", "<<", ">>");
    /** PostgreSQL's prefix math operators: square root, cube root, absolute value. */
    private static final Set<String> PREFIX_OPERATORS = Set.of("|/", "||/", "@");
    /** The digits of bigint's minimum, -9223372036854775808, which only fit with their sign. */
    private static final String BIGINT_MINIMUM_MAGNITUDE = "9223372036854775808";
    /**
     * The words that follow AS in a query without being an alias: CTE options
     * ({@code with x as [not] materialized (...)}); every other word after AS outside CAST is a
     * column or table alias, which PostgreSQL takes whatever the word (ColLabel).
     */
    private static final Set<String> NOT_ALIASES = Set.of("materialized", "not");
    private static final Set<String> INTERVAL_UNITS = Set.of("year", "month", "day", "hour", "minute", "second");
    /**
     * Words PostgreSQL leaves unreserved and Parallax's SQL never uses as keywords, while Calcite
     * reserves them: always names ({@code sum(x) as value}, TPC-H Q11; pg_auth_members.member,
     * which psql's {@code \du} reads; pg_sequences.cycle).
     */
    private static final Set<String> NAME_WORDS = Set.of("value", "result", "member", "cycle",
            // Found by `select 1 as <word>` over PostgreSQL's unreserved and column-name keywords (and
            // words PostgreSQL has no keyword for at all, such as one and empty).
            "begin", "call", "called", "cascaded", "close", "commit", "cursor", "deallocate", "declare", "drop", "each",
            "empty", "execute", "explain", "external", "function", "global", "hold", "identity", "import", "insensitive",
            "language", "large", "method", "new", "old", "one", "parameter", "prepare", "procedure", "ref",
            "referencing", "release", "reset", "return", "returns", "revoke", "rollback", "savepoint", "scroll",
            "search", "show", "skip", "sql", "start", "system", "trigger", "truncate", "uescape");
    /**
     * Words Calcite reserves that Parallax's queries do use as keywords ({@code group by},
     * {@code over}, {@code rows between}, {@code is unknown}, {@code double precision},
     * {@code substring(...)}...), while PostgreSQL takes them as names before a dot
     * ({@code rows.x}), where no keyword stands: quoted there. (Any word after a dot is quoted.)
     */
    private static final Set<String> ALIAS_WORDS = Set.of("at", "by", "cube", "current", "delete", "double", "escape",
            "filter", "groups", "insert", "local", "match", "merge", "next", "no", "of", "over", "partition", "range",
            "recursive", "rollup", "rows", "set", "unknown", "update", "varying", "within", "without",
            // PostgreSQL's column-name keywords (types and functions with their own syntax).
            "between", "bigint", "bit", "boolean", "char", "character", "coalesce", "dec", "decimal", "exists",
            "extract", "float", "grouping", "inout", "int", "integer", "interval", "national", "nchar", "none",
            "normalize", "nullif", "numeric", "out", "overlay", "position", "precision", "real", "row", "smallint",
            "substring", "time", "timestamp", "treat", "trim", "values", "varchar");
    /**
     * Function names Calcite reserves that PostgreSQL clients also use as column names (pgJDBC's
     * getIndexInfo reads {@code tmp.CARDINALITY}; pg_sequences.last_value): quoted where no argument list follows.
     */
    private static final Set<String> FUNCTION_NAME_WORDS = Set.of("cardinality", "last_value");

    /** The function name of the select item that carries a SELECT's DISTINCT ON expressions (see rewriteDistinctOn). */
    public static final String DISTINCT_ON_MARKER = "pg_distinct_on";

    private final List<Integer> parameterNumbers = new ArrayList<>();
    private int positionalParameters;
    private boolean numberedParameters;

    private PostgresDialectRewriter() {
    }

    /** Rewrites {@code sql}; throws 42601 ParallaxException on lexical errors. */
    public static RewrittenStatement rewrite(String sql) {
        return new PostgresDialectRewriter().run(sql);
    }

    private RewrittenStatement run(String sql) {
        List<SqlToken> tokens = PartitionAncestorsRewrite.apply(PostgresLexer.tokenize(sql));
        List<Piece> pieces = JoinAliasRewrite.apply(ExpandArrayRewrite.apply(structure(tokens)));
        List<Piece> rewritten = rewriteSequence(pieces, false);
        RewriteOutput output = new RewriteOutput();
        for (Piece piece : rewritten) {
            piece.emit(output);
        }
        return new RewrittenStatement(output.text(), output.positions(), parameterNumbers);
    }

    /** Builds the tree: parenthesised groups and CASE ... END groups; parameters and bit strings become calls. */
    private List<Piece> structure(List<SqlToken> tokens) {
        List<List<Piece>> stack = new ArrayList<>();
        List<SqlToken> opens = new ArrayList<>();
        List<Piece> current = new ArrayList<>();
        for (SqlToken token : tokens) {
            if (token.kind() == Kind.LEFT_PARENTHESIS || token.isWord("case")) {
                stack.add(current);
                opens.add(token);
                current = new ArrayList<>();
            } else if (!opens.isEmpty() && closes(opens.getLast(), token)) {
                Piece group = new Piece.Group(opens.removeLast(), current, token);
                current = stack.removeLast();
                current.add(group);
            } else if (isBigintMinimumMagnitude(token) && unaryMinusAtEnd(current)) {
                replaceUnaryMinus(current, token);
            } else {
                current.add(leaf(token));
            }
        }
        // Unbalanced text: flatten what is open and let Calcite's parser report where.
        while (!opens.isEmpty()) {
            List<Piece> inner = current;
            current = stack.removeLast();
            current.add(leaf(opens.removeLast()));
            current.addAll(inner);
        }
        return current;
    }

    private static boolean closes(SqlToken open, SqlToken token) {
        return open.kind() == Kind.LEFT_PARENTHESIS ? token.kind() == Kind.RIGHT_PARENTHESIS : token.isWord("end");
    }

    private Piece leaf(SqlToken token) {
        switch (token.kind()) {
            case NUMBERED_PARAMETER -> {
                if (positionalParameters > 0) {
                    throw mixedParameters(token);
                }
                numberedParameters = true;
                int number;
                try {
                    number = Integer.parseInt(token.text());
                } catch (NumberFormatException tooLarge) {
                    number = Integer.MAX_VALUE;
                }
                if (number < 1 || number > 65535) {
                    throw new ParallaxException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $" + token.text(),
                            null, null, token.position() + 1, null);
                }
                parameterNumbers.add(number);
                return new Piece.Composite(List.of("?"), token.position());
            }
            case POSITIONAL_PARAMETER -> {
                if (numberedParameters) {
                    throw mixedParameters(token);
                }
                positionalParameters++;
                parameterNumbers.add(positionalParameters);
                return new Piece.Leaf(token);
            }
            case BIT_STRING -> {
                return new Piece.Composite(List.of("pg_bit_string('" + token.text() + "')"), token.position());
            }
            case NUMBER -> {
                return isLongIntegerLiteral(token.text())
                        ? new Piece.Composite(List.of("pg_bigint_literal('" + token.text() + "')"), token.position())
                        : new Piece.Leaf(token);
            }
            default -> {
                return new Piece.Leaf(token);
            }
        }
    }

    private static boolean isBigintMinimumMagnitude(SqlToken token) {
        return token.kind() == Kind.NUMBER && token.text().equals(BIGINT_MINIMUM_MAGNITUDE);
    }

    /**
     * Whether {@code pieces} ends with a prefix minus: a {@code -} with no operand before it (the
     * start, an operator, a comma or a keyword such as {@code select}).
     */
    private static boolean unaryMinusAtEnd(List<Piece> pieces) {
        int minus = previousNonSpace(pieces, pieces.size());
        if (minus < 0 || !(pieces.get(minus) instanceof Piece.Leaf sign) || !sign.token().isOperator("-")) {
            return false;
        }
        int before = previousNonSpace(pieces, minus);
        if (before < 0) {
            return true;
        }
        if (!(pieces.get(before) instanceof Piece.Leaf leaf)) {
            return false;
        }
        return switch (leaf.token().kind()) {
            case OPERATOR, COMMA -> true;
            case WORD -> STOP_WORDS.contains(leaf.token().lowerText());
            default -> false;
        };
    }

    /**
     * {@code -9223372036854775808}: the magnitude alone exceeds bigint (and Parallax's 18-digit
     * numerics), so the sign joins the literal, which is then bigint's minimum.
     */
    private static void replaceUnaryMinus(List<Piece> pieces, SqlToken magnitude) {
        int minus = previousNonSpace(pieces, pieces.size());
        int position = ((Piece.Leaf) pieces.get(minus)).token().position();
        pieces.subList(minus, pieces.size()).clear();
        pieces.add(new Piece.Composite(List.of("pg_bigint_literal('-" + magnitude.text() + "')"), position));
    }

    /** More digits than Calcite's 18-digit exact numerics take, and nothing but digits. */
    private static boolean isLongIntegerLiteral(String text) {
        if (text.length() <= 18) {
            return false;
        }
        for (int index = 0; index < text.length(); index++) {
            if (text.charAt(index) < '0' || text.charAt(index) > '9') {
                return false;
            }
        }
        return true;
    }

    private static ParallaxException mixedParameters(SqlToken token) {
        return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + token.text() + "\"",
                "A statement uses either $n or ? parameters, not both.", null, token.position() + 1, null);
    }

    private List<Piece> rewriteSequence(List<Piece> input, boolean castArguments) {
        List<Piece> pieces = new ArrayList<>(input.size());
        for (int index = 0; index < input.size(); index++) {
            Piece piece = input.get(index);
            if (piece instanceof Piece.Group group && group.open().kind() == Kind.LEFT_PARENTHESIS
                    && group.children().stream().allMatch(PostgresDialectRewriter::isSpace)
                    && previousIsWord(pieces, "current_schema")) {
                // PostgreSQL's current_schema() is Calcite's niladic keyword CURRENT_SCHEMA.
                continue;
            }
            if (piece instanceof Piece.Group group && previousIsWord(pieces, "operator")) {
                // OPERATOR(schema.op): the operator name stays as written (see rewriteOperatorSyntax).
                pieces.add(piece);
            } else if (piece instanceof Piece.Group group) {
                boolean isCast = group.open().kind() == Kind.LEFT_PARENTHESIS && previousIsWord(pieces, "cast");
                pieces.add(new Piece.Group(group.open(), rewriteSequence(group.children(), isCast), group.close()));
            } else {
                pieces.add(piece);
            }
        }
        pieces = rewriteDistinctOn(pieces);
        pieces = GroupsFrameRewrite.apply(pieces);
        pieces = rewriteOperatorSyntax(pieces);
        pieces = rewriteArraySubqueries(pieces);
        pieces = rewriteStringAggregates(pieces);
        pieces = OrderedSetAggregateRewrite.apply(pieces);
        pieces = ExtractRewrite.apply(pieces);
        pieces = PositionRewrite.apply(pieces);
        pieces = nameUnnestColumns(pieces);
        pieces = nameSeriesColumns(pieces);
        pieces = quoteReservedFunctionNames(pieces);
        pieces = lateralFunctions(pieces);
        rejectNegativeRowCounts(pieces);
        pieces = addFromBeforeLoneClause(pieces);
        pieces = quoteAtNames(pieces);
        pieces = rewriteIntervals(pieces);
        pieces = rewriteIntervalCasts(pieces);
        pieces = rewriteDateTimeLiterals(pieces);
        pieces = rewriteEmptyArrays(pieces, castArguments);
        pieces = rewriteArraySlices(pieces);
        pieces = rewriteCasts(pieces);
        pieces = AtTimeZoneRewrite.apply(pieces);
        if (castArguments) {
            pieces = rewriteCastTarget(pieces);
        }
        pieces = quoteFieldNames(pieces, castArguments);
        pieces = rewritePower(pieces);
        pieces = rewriteArrayOperators(pieces);
        pieces = rewriteBitOperators(pieces);
        return rewriteArrayQuantifiers(pieces);
    }

    /** The comparison operators PostgreSQL quantifies with ANY/SOME/ALL, by the name their functions take. */
    private static final java.util.Map<String, String> COMPARISONS = java.util.Map.of("=", "equal", "<>", "not_equal",
            "!=", "not_equal", "<", "less_than", ">", "greater_than", "<=", "less_than_or_equal", ">=", "greater_than_or_equal");

    /**
     * {@code x op ANY (array)} / {@code SOME} / {@code ALL} with an array rather than a subquery
     * becomes one call, {@code pg_equal_any(x, array)} and the like (named after the engine's
     * functions): Calcite's own SOME with an array insists on identical types, and a comparison
     * with a placeholder operand would be open to Calcite's rewrites of comparisons (NOT (a = b) is
     * a <> b, which is wrong for ANY). The left operand reaches back to the previous comma, clause
     * word, AND/OR/NOT or comparison, as comparisons bind looser than every other operator; the pass
     * runs last, over already rewritten pieces.
     */
    private static List<Piece> rewriteArrayQuantifiers(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            boolean any = isWord(piece, "any") || isWord(piece, "some");
            int operator = previousNonSpace(result, result.size());
            if ((any || isWord(piece, "all")) && operator >= 0 && pieces.size() > index + 1
                    && result.get(operator) instanceof Piece.Leaf comparison && comparison.token().kind() == Kind.OPERATOR
                    && COMPARISONS.containsKey(comparison.token().text())) {
                int next = index + 1;
                while (next < pieces.size() && isSpace(pieces.get(next))) {
                    next++;
                }
                int leftStart = operator;
                while (leftStart > 0 && !isBoundary(result.get(leftStart - 1))) {
                    leftStart--;
                }
                while (leftStart < operator && isSpace(result.get(leftStart))) {
                    leftStart++;
                }
                if (next < pieces.size() && pieces.get(next) instanceof Piece.Group group
                        && group.open().kind() == Kind.LEFT_PARENTHESIS && !isQuery(group.children()) && leftStart < operator) {
                    List<Object> parts = new ArrayList<>();
                    parts.add("pg_" + COMPARISONS.get(comparison.token().text()) + (any ? "_any(" : "_all("));
                    parts.addAll(result.subList(leftStart, operator));
                    parts.add(", ");
                    parts.addAll(group.children());
                    parts.add(")");
                    int position = ((Piece.Leaf) piece).token().position();
                    result.subList(leftStart, result.size()).clear();
                    result.add(new Piece.Composite(parts, position));
                    index = next;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /**
     * {@code ARRAY(query)} becomes the scalar subquery {@code (SELECT
     * pg_array_or_empty(array_agg(pg_element)) FROM (query) AS pg_array_subquery (pg_element))}
     * (no row gives an empty array, where array_agg gives NULL). The query's ORDER BY orders the elements
     * ({@code array(select ... order by 1)}): QueryPlanner keeps the sorts of subqueries in FROM
     * for statements with {@link #ARRAY_SUBQUERY_ALIAS}, which Calcite would otherwise drop.
     */
    private static List<Piece> rewriteArraySubqueries(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (isWord(piece, "array")) {
                int next = index + 1;
                while (next < pieces.size() && isSpace(pieces.get(next))) {
                    next++;
                }
                if (next < pieces.size() && pieces.get(next) instanceof Piece.Group group
                        && group.open().kind() == Kind.LEFT_PARENTHESIS && isQuery(group.children())) {
                    List<Object> parts = new ArrayList<>();
                    parts.add("(SELECT pg_array_or_empty(array_agg(pg_element)) FROM (");
                    parts.addAll(group.children());
                    parts.add(") AS " + ARRAY_SUBQUERY_ALIAS + " (pg_element))");
                    result.add(new Piece.Composite(parts, ((Piece.Leaf) piece).token().position()));
                    index = next;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /**
     * {@code string_agg(value, separator)} becomes {@code pg_string_agg(array_agg(value), separator)}
     * (array_to_string under the name string_agg gives its column):
     * the same answer (NULL values skipped, NULL for no row), from the array aggregate; an ORDER BY
     * after the separator ({@code string_agg(v, ',' ORDER BY k)}) orders the array aggregate's input.
     */
    private static List<Piece> rewriteStringAggregates(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int next = skipSpaces(pieces, index + 1);
            if (isWord(piece, "string_agg") && next < pieces.size() && pieces.get(next) instanceof Piece.Group group
                    && group.open().kind() == Kind.LEFT_PARENTHESIS) {
                List<Piece> children = group.children();
                int orderBy = children.size();
                for (int child = 0; child < children.size(); child++) {
                    if (isWord(children.get(child), "order")) {
                        int by = skipSpaces(children, child + 1);
                        if (by < children.size() && isWord(children.get(by), "by")) {
                            orderBy = child;
                            break;
                        }
                    }
                }
                int comma = -1;
                for (int child = 0; child < orderBy; child++) {
                    if (children.get(child) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.COMMA) {
                        comma = comma < 0 ? child : -2;
                    }
                }
                if (comma >= 0) {
                    List<Object> parts = new ArrayList<>();
                    parts.add("pg_string_agg(array_agg(");
                    parts.addAll(children.subList(0, comma));
                    if (orderBy < children.size()) {
                        parts.add(" ");
                        parts.addAll(children.subList(orderBy, children.size()));
                    }
                    parts.add("), ");
                    parts.addAll(children.subList(comma + 1, orderBy));
                    parts.add(")");
                    result.add(new Piece.Composite(parts, ((Piece.Leaf) piece).token().position()));
                    index = next;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /** The alias of the FROM subquery that {@code ARRAY(query)} becomes. */
    public static final String ARRAY_SUBQUERY_ALIAS = "pg_array_subquery";

    /** Words that end a FROM item: what can follow {@code unnest(...)} without being its alias. */
    private static final Set<String> AFTER_FROM_ITEM = Set.of("where", "group", "having", "order", "limit", "offset",
            "fetch", "union", "except", "intersect", "join", "inner", "left", "right", "full", "cross", "natural", "on",
            "using", "window", "with", "for", "returning");

    /**
     * {@code unnest(a) x} in FROM: PostgreSQL names the column of a scalar function after the
     * alias (and {@code unnest} without one), Calcite would not; the column list is written out:
     * {@code unnest(a) AS x (x)}, and {@code unnest(a) WITH ORDINALITY AS x (x, "ordinality")}.
     */
    private static List<Piece> nameUnnestColumns(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            result.add(piece);
            if (isWord(piece, "regexp_split_to_table")) {
                index = splitToTableInFrom(pieces, index, result);
                continue;
            }
            if (!isWord(piece, "unnest")) {
                continue;
            }
            int group = skipSpaces(pieces, index + 1);
            if (group >= pieces.size() || !(pieces.get(group) instanceof Piece.Group call)
                    || call.open().kind() != Kind.LEFT_PARENTHESIS) {
                // unnest as a name (the column of a select-list unnest: s.unnest) is no keyword to PostgreSQL.
                result.set(result.size() - 1, new Piece.Composite(List.of("\"unnest\""), ((Piece.Leaf) piece).token().position()));
                continue;
            }
            boolean inFrom = startsFromItem(result);
            if (!inFrom) {
                // unnest(a) as an expression (a select list): a function call to Calcite's parser, for
                // which UNNEST is a keyword of FROM only; SetReturningCalls gives it its operator.
                result.set(result.size() - 1, new Piece.Composite(List.of("\"unnest\""), ((Piece.Leaf) piece).token().position()));
                continue;
            }
            int next = skipSpaces(pieces, group + 1);
            int end = group + 1;
            String ordinality = "";
            if (next < pieces.size() && isWord(pieces.get(next), "with")) {
                int word = skipSpaces(pieces, next + 1);
                if (word >= pieces.size() || !isWord(pieces.get(word), "ordinality")) {
                    continue;
                }
                // WITH ORDINALITY: PostgreSQL names the second column ordinality (Calcite: ORDINALITY).
                ordinality = ", \"ordinality\"";
                end = word + 1;
                next = skipSpaces(pieces, end);
            }
            if (next < pieces.size() && isWord(pieces.get(next), "as")) {
                next = skipSpaces(pieces, next + 1);
            }
            // Quoted: UNNEST is a reserved word to Calcite's parser, so AS unnest (unnest) would not parse.
            String alias = "\"unnest\"";
            if (next < pieces.size() && pieces.get(next) instanceof Piece.Leaf name
                    && (name.token().kind() == Kind.QUOTED_IDENTIFIER
                    || name.token().kind() == Kind.WORD && !AFTER_FROM_ITEM.contains(name.token().lowerText()))) {
                alias = name.token().text();
                int columns = skipSpaces(pieces, next + 1);
                if (columns < pieces.size() && pieces.get(columns) instanceof Piece.Group) {
                    continue; // a column list of its own
                }
                end = next + 1;
            }
            result.add(pieces.get(group));
            result.add(new Piece.Composite(List.of((ordinality.isEmpty() ? "" : " WITH ORDINALITY") + " AS " + alias + " (" + alias
                    + ordinality + ")"), call.close().position()));
            index = end - 1;
        }
        return result;
    }

    /**
     * {@code regexp_split_to_table(text, pattern[, flags])} in FROM, the word at {@code index} (the
     * last of {@code result}): written as {@code unnest(regexp_split_to_array(...))}, its column named
     * as PostgreSQL names a scalar function's, after the alias or else the function. Returns the
     * index of the last piece consumed. A select-list call is left to SetReturningCalls.
     */
    private static int splitToTableInFrom(List<Piece> pieces, int index, List<Piece> result) {
        int group = skipSpaces(pieces, index + 1);
        if (group >= pieces.size() || !(pieces.get(group) instanceof Piece.Group call) || call.open().kind() != Kind.LEFT_PARENTHESIS) {
            return index;
        }
        if (!startsFromItem(result)) {
            return index;
        }
        int position = ((Piece.Leaf) pieces.get(index)).token().position();
        result.set(result.size() - 1, new Piece.Composite(List.of("unnest(regexp_split_to_array"), position));
        result.add(call);
        int next = skipSpaces(pieces, group + 1);
        if (next < pieces.size() && isWord(pieces.get(next), "as")) {
            next = skipSpaces(pieces, next + 1);
        }
        String alias = "regexp_split_to_table";
        int end = group;
        if (next < pieces.size() && pieces.get(next) instanceof Piece.Leaf name
                && (name.token().kind() == Kind.QUOTED_IDENTIFIER
                || name.token().kind() == Kind.WORD && !AFTER_FROM_ITEM.contains(name.token().lowerText()))) {
            int columns = skipSpaces(pieces, next + 1);
            if (columns < pieces.size() && pieces.get(columns) instanceof Piece.Group) {
                // A column list of its own: the alias and list follow as written.
                result.add(new Piece.Composite(List.of(")"), call.close().position()));
                return group;
            }
            alias = name.token().text();
            end = next;
        }
        result.add(new Piece.Composite(List.of(") AS " + alias + " (" + alias + ")"), call.close().position()));
        return end;
    }

    /**
     * {@code FROM generate_series(1, 3) g}, the first FROM item: PostgreSQL names the column of a
     * scalar function after the alias (Calcite keeps the function's own column name,
     * generate_series); the column list is written out: {@code generate_series(1, 3) AS g (g)}.
     * After another FROM item {@link #lateralFunctions} writes the call out, alias and column too.
     */
    private static List<Piece> nameSeriesColumns(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            result.add(piece);
            int group = skipSpaces(pieces, index + 1);
            if (!isWord(piece, "generate_series") || group >= pieces.size() || !(pieces.get(group) instanceof Piece.Group call)
                    || call.open().kind() != Kind.LEFT_PARENTHESIS) {
                continue;
            }
            int before = previousNonSpace(result, result.size() - 1);
            if (before < 0 || !isWord(result.get(before), "from")) {
                continue;
            }
            int next = skipSpaces(pieces, group + 1);
            if (next < pieces.size() && isWord(pieces.get(next), "as")) {
                next = skipSpaces(pieces, next + 1);
            }
            if (next >= pieces.size() || !(pieces.get(next) instanceof Piece.Leaf name)
                    || !(name.token().kind() == Kind.QUOTED_IDENTIFIER
                    || name.token().kind() == Kind.WORD && !AFTER_FROM_ITEM.contains(name.token().lowerText()))) {
                continue;
            }
            int columns = skipSpaces(pieces, next + 1);
            if (columns < pieces.size() && pieces.get(columns) instanceof Piece.Group) {
                continue; // a column list of its own
            }
            String alias = name.token().text();
            result.add(pieces.get(group));
            result.add(new Piece.Composite(List.of(" AS " + alias + " (" + alias + ")"), call.close().position()));
            index = next;
        }
        return result;
    }

    /** Whether the last of {@code pieces} (a function's name) starts a FROM item: it follows FROM, JOIN, LATERAL or a FROM list's comma. */
    private static boolean startsFromItem(List<Piece> pieces) {
        int before = previousNonSpace(pieces, pieces.size() - 1);
        return before >= 0 && (isWord(pieces.get(before), "from") || isWord(pieces.get(before), "join")
                || isWord(pieces.get(before), "lateral")
                || pieces.get(before) instanceof Piece.Leaf comma && comma.token().kind() == Kind.COMMA && inFromClause(pieces));
    }

    /** PostgreSQL functions whose names Calcite's parser reserves as keywords without a function grammar. */
    private static final Set<String> RESERVED_FUNCTION_NAMES = Set.of("width_bucket");

    /** {@code width_bucket(...)}: the name quoted, so that Calcite's parser reads a function call. */
    private static List<Piece> quoteReservedFunctionNames(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces);
        for (int index = 0; index < pieces.size(); index++) {
            int group = skipSpaces(pieces, index + 1);
            if (pieces.get(index) instanceof Piece.Leaf name && name.token().kind() == Kind.WORD
                    && RESERVED_FUNCTION_NAMES.contains(name.token().lowerText())
                    && group < pieces.size() && pieces.get(group) instanceof Piece.Group call && call.open().kind() == Kind.LEFT_PARENTHESIS) {
                result.set(index, new Piece.Composite(List.of("\"" + name.token().lowerText() + "\""), name.token().position()));
            }
        }
        return result;
    }

    /**
     * {@code generate_series(...)} after another FROM item ({@code t, generate_series(t.a, t.b) g},
     * {@code JOIN [LATERAL] generate_series(...) g ON ...}): PostgreSQL lets a function in FROM read
     * the items before it, as if LATERAL were written; Calcite reads only
     * {@code LATERAL TABLE(f(...))}, which is written out, with the column named after the alias
     * (or generate_series) as PostgreSQL names a scalar function's column: {@code AS g (g)}.
     */
    private static List<Piece> lateralFunctions(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int group = skipSpaces(pieces, index + 1);
            int before = previousNonSpace(result, result.size());
            boolean lateral = before >= 0 && isWord(result.get(before), "lateral");
            boolean afterItem = lateral || before >= 0 && (isWord(result.get(before), "join")
                    || result.get(before) instanceof Piece.Leaf comma && comma.token().kind() == Kind.COMMA && inFromClause(result));
            if (!isWord(piece, "generate_series") || !afterItem || group >= pieces.size()
                    || !(pieces.get(group) instanceof Piece.Group call) || call.open().kind() != Kind.LEFT_PARENTHESIS) {
                result.add(piece);
                continue;
            }
            int position = ((Piece.Leaf) piece).token().position();
            result.add(new Piece.Composite(List.of(lateral ? "TABLE(" : "LATERAL TABLE("), position));
            result.add(piece);
            result.add(call);
            result.add(new Piece.Composite(List.of(")"), call.close().position()));
            int next = skipSpaces(pieces, group + 1);
            int end = group + 1;
            if (next < pieces.size() && isWord(pieces.get(next), "as")) {
                next = skipSpaces(pieces, next + 1);
            }
            String alias = "generate_series";
            if (next < pieces.size() && pieces.get(next) instanceof Piece.Leaf name
                    && (name.token().kind() == Kind.QUOTED_IDENTIFIER
                    || name.token().kind() == Kind.WORD && !AFTER_FROM_ITEM.contains(name.token().lowerText()))) {
                int columns = skipSpaces(pieces, next + 1);
                if (columns < pieces.size() && pieces.get(columns) instanceof Piece.Group) {
                    index = group; // a column list of its own: the alias and list follow as written
                    continue;
                }
                alias = name.token().text();
                end = next + 1;
            }
            result.add(new Piece.Composite(List.of(" AS " + alias + " (" + alias + ")"), call.close().position()));
            index = end - 1;
        }
        return result;
    }

    /** Words that start a clause other than FROM: a comma after one of them separates no FROM items. */
    private static final Set<String> CLAUSES_BESIDES_FROM = Set.of("select", "where", "group", "having", "order", "limit",
            "offset", "returning", "set", "values", "on", "using", "window");

    /** Whether the end of {@code pieces} (one level of parentheses) lies in a FROM clause. */
    private static boolean inFromClause(List<Piece> pieces) {
        for (int index = pieces.size() - 1; index >= 0; index--) {
            if (isWord(pieces.get(index), "from")) {
                return true;
            }
            if (pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.WORD
                    && CLAUSES_BESIDES_FROM.contains(leaf.token().lowerText())) {
                return false;
            }
        }
        return false;
    }

    static int skipSpaces(List<Piece> pieces, int index) {
        while (index < pieces.size() && isSpace(pieces.get(index))) {
            index++;
        }
        return index;
    }

    /** True when the pieces are a query (SELECT, VALUES, WITH, possibly in more parentheses). */
    private static boolean isQuery(List<Piece> children) {
        int first = firstNonSpace(children, 0, children.size());
        if (first >= children.size()) {
            return false;
        }
        Piece piece = children.get(first);
        if (piece instanceof Piece.Group inner && inner.open().kind() == Kind.LEFT_PARENTHESIS) {
            return isQuery(inner.children());
        }
        return isWord(piece, "select") || isWord(piece, "values") || isWord(piece, "with") || isWord(piece, "table");
    }

    /**
     * {@code OPERATOR(pg_catalog.~)}, PostgreSQL's schema-qualified operator syntax (psql writes its
     * catalog queries so), becomes the bare operator; {@code COLLATE pg_catalog.default} and
     * {@code COLLATE "default"} are dropped: the default collation is the only one, and Parallax
     * compares text by code point, as PostgreSQL's C collation does.
     */
    private static List<Piece> rewriteOperatorSyntax(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int next = PostgresTypeNames.skipSpace(pieces, index + 1);
            if (isWord(piece, "operator") && next < pieces.size() && pieces.get(next) instanceof Piece.Group group
                    && group.open().kind() == Kind.LEFT_PARENTHESIS) {
                List<Piece> inside = trimmed(group.children());
                if (!inside.isEmpty() && inside.getLast() instanceof Piece.Leaf operator
                        && operator.token().kind() == Kind.OPERATOR && qualifiesOperator(inside)) {
                    result.add(new Piece.Composite(List.of(" "), ((Piece.Leaf) piece).token().position()));
                    result.add(operator);
                    index = next;
                    continue;
                }
            }
            if (isWord(piece, "pg_catalog") && index + 3 < pieces.size() && pieces.get(index + 1) instanceof Piece.Leaf dot
                    && dot.token().kind() == Kind.DOT && pieces.get(index + 2) instanceof Piece.Leaf function
                    && function.token().kind() == Kind.WORD && pieces.get(index + 3) instanceof Piece.Group arguments
                    && arguments.open().kind() == Kind.LEFT_PARENTHESIS) {
                // pg_catalog.f(...): functions are looked up by their simple name (all built-ins live in pg_catalog).
                index++;
                continue;
            }
            if (isWord(piece, "collate") && next < pieces.size()) {
                int end = defaultCollationEnd(pieces, next);
                if (end > 0) {
                    index = end - 1;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /** Whether the pieces before the operator are {@code schema .} (or nothing). */
    private static boolean qualifiesOperator(List<Piece> inside) {
        if (inside.size() == 1) {
            return true;
        }
        return inside.size() == 3 && inside.get(0) instanceof Piece.Leaf schema && isName(schema.token())
                && inside.get(1) instanceof Piece.Leaf dot && dot.token().kind() == Kind.DOT;
    }

    /** The end of {@code default}, {@code "default"} or {@code pg_catalog.default} at {@code start}; -1 for another collation. */
    private static int defaultCollationEnd(List<Piece> pieces, int start) {
        int name = start;
        if (name + 2 < pieces.size() && isWord(pieces.get(name), "pg_catalog")
                && pieces.get(name + 1) instanceof Piece.Leaf dot && dot.token().kind() == Kind.DOT) {
            name += 2;
        }
        if (pieces.get(name) instanceof Piece.Leaf collation && (collation.token().isWord("default")
                || collation.token().text().equals("\"default\""))) {
            return name + 1;
        }
        return -1;
    }

    /**
     * {@code LIMIT -n} and {@code OFFSET -n}: Calcite's grammar takes only unsigned counts there,
     * so a negative constant count raises PostgreSQL's run-time error (2201X before 2201W, the order
     * PostgreSQL evaluates them in) instead of a syntax error. A count that rounds to zero
     * ({@code -0}, {@code -0.4}) is legal in PostgreSQL and loses its sign.
     */
    private static void rejectNegativeRowCounts(List<Piece> pieces) {
        boolean negativeLimit = false;
        for (int index = 0; index < pieces.size(); index++) {
            boolean limit = isWord(pieces.get(index), "limit");
            if (!limit && !isWord(pieces.get(index), "offset")) {
                continue;
            }
            int minus = PostgresTypeNames.skipSpace(pieces, index + 1);
            int number = PostgresTypeNames.skipSpace(pieces, minus + 1);
            if (number >= pieces.size() || !(pieces.get(minus) instanceof Piece.Leaf sign) || !sign.token().isOperator("-")
                    || !(pieces.get(number) instanceof Piece.Leaf count) || count.token().kind() != Kind.NUMBER) {
                continue;
            }
            // PostgreSQL rounds a numeric count to bigint half away from zero.
            boolean negative = new BigDecimal(count.token().text()).setScale(0, RoundingMode.HALF_UP).signum() != 0;
            if (!negative) {
                pieces.set(minus, new Piece.Composite(List.of(), sign.token().position()));
            } else if (limit) {
                negativeLimit = true;
            } else {
                throw new ParallaxException(SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET must not be negative");
            }
        }
        if (negativeLimit) {
            throw new ParallaxException(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT must not be negative");
        }
    }

    /**
     * {@code SELECT DISTINCT ON (a, b) ...}, which Calcite's grammar lacks, becomes
     * {@code SELECT pg_distinct_on(a, b), ...}: a first select item that carries the expressions
     * through the parser, where {@link dev.parallax.planner.query.validate.DistinctOnClauses} turns it
     * into a QUALIFY clause.
     */
    private static List<Piece> rewriteDistinctOn(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (isWord(piece, "distinct") && previousIsWord(result, "select")) {
                int on = PostgresTypeNames.skipSpace(pieces, index + 1);
                int group = on < pieces.size() && isWord(pieces.get(on), "on") ? PostgresTypeNames.skipSpace(pieces, on + 1) : pieces.size();
                if (group < pieces.size() && pieces.get(group) instanceof Piece.Group expressions
                        && expressions.open().kind() == Kind.LEFT_PARENTHESIS) {
                    List<Object> parts = new ArrayList<>();
                    parts.add(DISTINCT_ON_MARKER);
                    parts.add(expressions);
                    parts.add(",");
                    result.add(new Piece.Composite(parts, ((Piece.Leaf) piece).token().position()));
                    index = group;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /**
     * {@code SELECT ... WHERE}, {@code GROUP BY} or {@code HAVING} without FROM: PostgreSQL filters
     * or groups the single row of a FROM-less SELECT ({@code select 1 group by 1},
     * {@code select count(*) having count(*) > 0}), while Calcite's grammar reads these clauses
     * only after FROM. A one-row, one-column VALUES becomes the FROM clause, which selects nothing
     * of its own.
     */
    private static List<Piece> addFromBeforeLoneClause(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size() + 1);
        boolean selectWithoutFrom = false;
        SqlToken star = null;
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (isWord(piece, "select")) {
                selectWithoutFrom = true;
                int first = PostgresTypeNames.skipSpace(pieces, index + 1);
                star = first < pieces.size() && pieces.get(first) instanceof Piece.Leaf leaf && leaf.token().isOperator("*")
                        ? leaf.token() : null;
            } else if (isWord(piece, "from") || isWord(piece, "into")) {
                selectWithoutFrom = false;
            } else if (selectWithoutFrom && (isWord(piece, "where") || isWord(piece, "having") || isGroupBy(pieces, index))) {
                if (star != null) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "SELECT * with no tables specified is not valid",
                            null, null, star.position() + 1, null);
                }
                result.add(new Piece.Composite(List.of("from (values (0)) as pg_no_from (pg_no_from) "),
                        ((Piece.Leaf) piece).token().position()));
                selectWithoutFrom = false;
            }
            result.add(piece);
        }
        return result;
    }

    /**
     * AT is a keyword only in AT TIME ZONE (PostgreSQL keeps it unreserved); elsewhere it names a column,
     * as audit tables' {@code at}, which pg_dump writes unquoted. Quoted before casts and AT TIME ZONE
     * are rewritten, so that {@code at::date}, {@code t.at} and {@code at at time zone 'UTC'} keep it a
     * name inside what they become; a quoted identifier token, so that it still reads as a primary.
     */
    private static List<Piece> quoteAtNames(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces);
        for (int index = 0; index < pieces.size(); index++) {
            if (pieces.get(index) instanceof Piece.Leaf leaf && leaf.token().isWord("at")) {
                int next = PostgresTypeNames.skipSpace(pieces, index + 1);
                if (!(next < pieces.size() && isWord(pieces.get(next), "time"))) {
                    result.set(index, new Piece.Leaf(new SqlToken(Kind.QUOTED_IDENTIFIER, "\"" + leaf.token().lowerText() + "\"",
                            leaf.token().position())));
                }
            }
        }
        return result;
    }

    /** Whether the word at {@code index} is GROUP followed by BY (not the GROUP of WITHIN GROUP). */
    private static boolean isGroupBy(List<Piece> pieces, int index) {
        if (!isWord(pieces.get(index), "group")) {
            return false;
        }
        int next = PostgresTypeNames.skipSpace(pieces, index + 1);
        return next < pieces.size() && isWord(pieces.get(next), "by");
    }

    /**
     * {@code day}, {@code month}... used as names: PostgreSQL keeps these words unreserved, so they
     * name columns ({@code select day from t}), while Calcite reserves them. They stay keywords
     * where they are datetime fields: after an interval literal's string ({@code interval '1' day}),
     * after {@code TO} ({@code day to second}) and in {@code extract(day from x)}.
     */
    private static List<Piece> quoteFieldNames(List<Piece> pieces, boolean castArguments) {
        List<Piece> result = new ArrayList<>(pieces);
        for (int index = 0; index < pieces.size(); index++) {
            if (!(pieces.get(index) instanceof Piece.Leaf leaf) || leaf.token().kind() != Kind.WORD) {
                continue;
            }
            int before = previousNonSpace(pieces, index);
            boolean alias = !castArguments && before >= 0 && isWord(pieces.get(before), "as");
            // After a dot a word is a column (or table) name unless a function's arguments follow.
            boolean qualifiedName = !castArguments && before >= 0 && isDot(pieces.get(before))
                    && !(index + 1 < pieces.size() && pieces.get(index + 1) instanceof Piece.Group);
            boolean qualifier = !castArguments && index + 1 < pieces.size() && isDot(pieces.get(index + 1))
                    && ALIAS_WORDS.contains(leaf.token().lowerText());
            if (alias && !NOT_ALIASES.contains(leaf.token().lowerText()) || qualifiedName || qualifier) {
                result.set(index, new Piece.Composite(List.of("\"" + leaf.token().lowerText() + "\""), leaf.token().position()));
                continue;
            }
            boolean usedAsName = FUNCTION_NAME_WORDS.contains(leaf.token().lowerText())
                    && !(PostgresTypeNames.skipSpace(pieces, index + 1) < pieces.size()
                    && pieces.get(PostgresTypeNames.skipSpace(pieces, index + 1)) instanceof Piece.Group);
            if (NAME_WORDS.contains(leaf.token().lowerText()) || usedAsName) {
                result.set(index, new Piece.Composite(List.of("\"" + leaf.token().lowerText() + "\""), leaf.token().position()));
                continue;
            }
            if (!INTERVAL_UNITS.contains(leaf.token().lowerText())) {
                continue;
            }
            int after = PostgresTypeNames.skipSpace(pieces, index + 1);
            boolean afterIntervalString = before >= 0 && pieces.get(before) instanceof Piece.Leaf previous
                    && (previous.token().kind() == Kind.STRING || previous.token().isWord("to"));
            boolean extractField = before < 0 && after < pieces.size() && isWord(pieces.get(after), "from");
            if (!afterIntervalString && !extractField) {
                result.set(index, new Piece.Composite(List.of("\"" + leaf.token().lowerText() + "\""), leaf.token().position()));
            }
        }
        return result;
    }

    private List<Piece> rewriteIntervals(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int stringIndex = PostgresTypeNames.skipSpace(pieces, index + 1);
            if (isWord(piece, "interval") && stringIndex < pieces.size() && pieces.get(stringIndex) instanceof Piece.Leaf string
                    && string.token().kind() == Kind.STRING) {
                int unitIndex = PostgresTypeNames.skipSpace(pieces, stringIndex + 1);
                boolean qualified = unitIndex < pieces.size() && pieces.get(unitIndex) instanceof Piece.Leaf unit
                        && unit.token().kind() == Kind.WORD && INTERVAL_UNITS.contains(unit.token().lowerText());
                if (!qualified) {
                    String body = string.token().stringValue();
                    result.add(new Piece.Composite(List.of(PostgresIntervalText.toSqlLiteral(body, string.token().position())),
                            ((Piece.Leaf) piece).token().position()));
                    index = stringIndex;
                    continue;
                }
                int afterUnit = PostgresTypeNames.skipSpace(pieces, unitIndex + 1);
                boolean hasPrecision = afterUnit < pieces.size() && pieces.get(afterUnit) instanceof Piece.Group;
                for (int copy = index; copy <= unitIndex; copy++) {
                    result.add(pieces.get(copy));
                }
                if (!hasPrecision) {
                    result.add(new Piece.Composite(List.of("(9)"), ((Piece.Leaf) pieces.get(unitIndex)).token().position()));
                }
                index = unitIndex;
                continue;
            }
            result.add(piece);
        }
        return result;
    }

    /** {@code timestamp '...'} and {@code date '...'} in the form Calcite reads ({@link PostgresDateTimeLiteralText}). */
    private List<Piece> rewriteDateTimeLiterals(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int stringIndex = PostgresTypeNames.skipSpace(pieces, index + 1);
            if ((isWord(piece, "timestamp") || isWord(piece, "timestamptz")) && stringIndex < pieces.size()
                    && pieces.get(stringIndex) instanceof Piece.Group) {
                // timestamp(p) '...', timestamptz(p) '...', timestamp(p) with time zone '...': a cast to the
                // type with its precision, as PostgreSQL reads them.
                PostgresTypeNames.TypeName type = PostgresTypeNames.read(pieces, index);
                int precisionString = type == null ? -1 : PostgresTypeNames.skipSpace(pieces, type.end());
                if (precisionString >= 0 && precisionString < pieces.size() && !type.array()
                        && pieces.get(precisionString) instanceof Piece.Leaf string
                        && string.token().kind() == Kind.STRING && string.token().text().startsWith("'")) {
                    List<Object> parts = new ArrayList<>();
                    parts.add("CAST(" + string.token().text() + " AS ");
                    parts.add(type.toPiece());
                    parts.add(")");
                    result.add(new Piece.Composite(parts, ((Piece.Leaf) piece).token().position()));
                    index = precisionString;
                    continue;
                }
            }
            int zoneEnd = isWord(piece, "timestamptz") ? index + 1 : withTimeZoneEnd(pieces, index);
            int zoneString = zoneEnd < 0 ? -1 : PostgresTypeNames.skipSpace(pieces, zoneEnd);
            if (zoneString >= 0 && zoneString < pieces.size() && pieces.get(zoneString) instanceof Piece.Leaf string
                    && string.token().kind() == Kind.STRING && string.token().text().startsWith("'")) {
                // timestamptz '...' and timestamp with time zone '...': read by the cast, in the session's zone.
                result.add(new Piece.Composite(List.of("CAST(" + string.token().text() + " AS "
                        + PostgresTypeNames.TIMESTAMP_WITH_TIME_ZONE + ")"), ((Piece.Leaf) piece).token().position()));
                index = zoneString;
                continue;
            }
            if ((isWord(piece, "timestamp") || isWord(piece, "date")) && stringIndex < pieces.size()
                    && pieces.get(stringIndex) instanceof Piece.Leaf string && string.token().kind() == Kind.STRING
                    && string.token().text().startsWith("'")) {
                String body = string.token().stringValue();
                String literal = PostgresDateTimeLiteralText.toSqlLiteral(((Piece.Leaf) piece).token().lowerText(), body);
                if (literal != null) {
                    result.add(new Piece.Composite(List.of(literal), ((Piece.Leaf) piece).token().position()));
                    index = stringIndex;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /** The index after {@code timestamp with time zone} starting at {@code index}, or -1. */
    private static int withTimeZoneEnd(List<Piece> pieces, int index) {
        if (!isWord(pieces.get(index), "timestamp")) {
            return -1;
        }
        int at = index + 1;
        for (String word : new String[] {"with", "time", "zone"}) {
            at = PostgresTypeNames.skipSpace(pieces, at);
            if (at >= pieces.size() || !isWord(pieces.get(at), word)) {
                return -1;
            }
            at++;
        }
        return at;
    }

    private List<Piece> rewriteCasts(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (!(piece instanceof Piece.Leaf leaf && leaf.token().isOperator("::"))) {
                result.add(piece);
                continue;
            }
            int start = primaryStart(result);
            PostgresTypeNames.ObjectAlias alias = PostgresTypeNames.readObjectAlias(pieces, index + 1);
            if (start >= 0 && alias != null) {
                // x::regclass: a name looked up to its oid, or an oid shown as its name (see CatalogFunctions).
                List<Object> parts = new ArrayList<>();
                parts.add(alias.function() + "(");
                parts.addAll(trimmed(result.subList(start, result.size())));
                parts.add(")");
                result.subList(start, result.size()).clear();
                result.add(new Piece.Composite(parts, leaf.token().position()));
                index = alias.end() - 1;
                continue;
            }
            int intervalEnd = intervalTypeEnd(pieces, index + 1);
            List<Piece> operand = start < 0 ? List.of() : trimmed(result.subList(start, result.size()));
            if (intervalEnd > 0 && operand.size() == 1 && operand.getFirst() instanceof Piece.Leaf string
                    && string.token().kind() == Kind.STRING) {
                // 'text'::interval is the literal interval 'text' (Calcite casts to no unqualified interval).
                String body = string.token().stringValue();
                result.subList(start, result.size()).clear();
                // Under a cast to its own type, so that the column is named interval as in PostgreSQL.
                result.add(new Piece.Composite(List.of(PostgresIntervalText.toCastLiteral(body, string.token().position())),
                        string.token().position()));
                index = intervalEnd - 1;
                continue;
            }
            if (intervalEnd > 0 && start >= 0) {
                throw castToIntervalOfNonLiteral(leaf.token());
            }
            PostgresTypeNames.TypeName type = PostgresTypeNames.read(pieces, index + 1);
            if (start < 0 || type == null) {
                throw syntaxError(leaf.token());
            }
            List<Object> parts = new ArrayList<>();
            parts.add("CAST(");
            parts.addAll(trimmed(result.subList(start, result.size())));
            parts.add(" AS ");
            parts.add(type.toPiece());
            parts.add(")");
            result.subList(start, result.size()).clear();
            result.add(new Piece.Composite(parts, leaf.token().position()));
            index = type.end() - 1;
        }
        return result;
    }

    /** The index after {@code interval} (optionally {@code pg_catalog.}-qualified) at {@code start}, or -1. */
    private static int intervalTypeEnd(List<Piece> pieces, int start) {
        int index = PostgresTypeNames.skipSpace(pieces, start);
        if (index + 2 < pieces.size() && isWord(pieces.get(index), "pg_catalog") && isDot(pieces.get(index + 1))) {
            index += 2;
        }
        return index < pieces.size() && isWord(pieces.get(index), "interval") ? index + 1 : -1;
    }

    /** Inside {@code CAST( ... )}: the type after the top-level AS gets Calcite's spelling. */
    private List<Piece> rewriteCastTarget(List<Piece> pieces) {
        for (int index = 0; index < pieces.size(); index++) {
            if (isWord(pieces.get(index), "as")) {
                PostgresTypeNames.TypeName type = PostgresTypeNames.read(pieces, index + 1);
                if (type == null) {
                    return pieces;
                }
                List<Piece> result = new ArrayList<>(pieces.subList(0, index + 1));
                result.add(new Piece.Composite(List.of(" "), type.position()));
                result.add(type.toPiece());
                result.addAll(pieces.subList(type.end(), pieces.size()));
                return result;
            }
        }
        return pieces;
    }

    private List<Piece> rewritePower(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (!(piece instanceof Piece.Leaf leaf && leaf.token().isOperator("^"))) {
                result.add(piece);
                continue;
            }
            int start = withUnarySign(result, primaryStart(result));
            int rightStart = PostgresTypeNames.skipSpace(pieces, index + 1);
            int rightEnd = rightStart;
            if (rightEnd < pieces.size() && pieces.get(rightEnd) instanceof Piece.Leaf sign
                    && (sign.token().isOperator("-") || sign.token().isOperator("+"))) {
                rightEnd = PostgresTypeNames.skipSpace(pieces, rightEnd + 1);
            }
            rightEnd = primaryEnd(pieces, rightEnd);
            if (start < 0 || rightEnd < 0) {
                throw syntaxError(leaf.token());
            }
            List<Object> parts = new ArrayList<>();
            parts.add("pg_power(");
            parts.addAll(trimmed(result.subList(start, result.size())));
            parts.add(", ");
            parts.addAll(pieces.subList(rightStart, rightEnd));
            parts.add(")");
            result.subList(start, result.size()).clear();
            result.add(new Piece.Composite(parts, leaf.token().position()));
            index = rightEnd - 1;
        }
        return result;
    }

    /** Words after which a sign is unary: an operand starts there. */
    private static final Set<String> OPERAND_STARTING_WORDS = Set.of("select", "where", "and", "or", "not", "when", "then",
            "else", "having", "on", "by", "distinct", "all", "between", "like", "return");

    /**
     * {@code start}, or the unary minus or plus before it: PostgreSQL's unary minus binds tighter than
     * {@code ^}, so {@code -2 ^ 2} is {@code (-2) ^ 2} = 4 and {@code 2 * -2 ^ 2} is 8. A sign is unary
     * where no operand ends before it: at the start, after an operator, a comma or a keyword.
     */
    private static int withUnarySign(List<Piece> pieces, int start) {
        if (start < 0) {
            return start;
        }
        int sign = previousNonSpace(pieces, start);
        if (sign < 0 || !(pieces.get(sign) instanceof Piece.Leaf leaf && (leaf.token().isOperator("-") || leaf.token().isOperator("+")))) {
            return start;
        }
        int before = previousNonSpace(pieces, sign);
        boolean unary = before < 0
                || pieces.get(before) instanceof Piece.Leaf previous && (previous.token().kind() == Kind.COMMA
                || previous.token().kind() == Kind.OPERATOR && !previous.token().isOperator("]")
                || previous.token().kind() == Kind.WORD && OPERAND_STARTING_WORDS.contains(previous.token().lowerText()));
        return unary ? sign : start;
    }

    /** The array operators and the functions they become. */
    private static final java.util.Map<String, String> ARRAY_OPERATORS = java.util.Map.of(
            "@>", "pg_array_contains", "<@", "pg_array_contained", "&&", "pg_array_overlap");

    /**
     * {@code a @> b}, {@code a <@ b}, {@code a && b}: each operand reaches to the nearest comma,
     * comparison, {@code ||} or keyword outside brackets ({@code ARRAY[1, 2] @> x} keeps its list).
     */
    private List<Piece> rewriteArrayOperators(List<Piece> input) {
        List<Piece> pieces = new ArrayList<>(input);
        for (int index = 0; index < pieces.size(); index++) {
            if (!(pieces.get(index) instanceof Piece.Leaf leaf) || leaf.token().kind() != Kind.OPERATOR
                    || !ARRAY_OPERATORS.containsKey(leaf.token().text())) {
                continue;
            }
            int leftStart = index;
            int depth = 0;
            while (leftStart > 0) {
                Piece before = pieces.get(leftStart - 1);
                if (before instanceof Piece.Leaf bracket && bracket.token().isOperator("]")) {
                    depth++;
                } else if (before instanceof Piece.Leaf bracket && bracket.token().isOperator("[")) {
                    depth--;
                } else if (depth == 0 && (isBoundary(before) || isArrayOperator(before))) {
                    break;
                }
                leftStart--;
            }
            int rightEnd = index + 1;
            depth = 0;
            while (rightEnd < pieces.size()) {
                Piece after = pieces.get(rightEnd);
                if (after instanceof Piece.Leaf bracket && bracket.token().isOperator("[")) {
                    depth++;
                } else if (after instanceof Piece.Leaf bracket && bracket.token().isOperator("]")) {
                    depth--;
                } else if (depth == 0 && (isBoundary(after) || isArrayOperator(after))) {
                    break;
                }
                rightEnd++;
            }
            List<Piece> left = trimmed(pieces.subList(leftStart, index));
            List<Piece> right = trimmed(pieces.subList(index + 1, rightEnd));
            if (left.isEmpty() || right.isEmpty()) {
                throw syntaxError(leaf.token());
            }
            List<Object> parts = new ArrayList<>();
            parts.add(ARRAY_OPERATORS.get(leaf.token().text()) + "(");
            parts.addAll(left);
            parts.add(", ");
            parts.addAll(right);
            parts.add(")");
            int replaceStart = firstNonSpace(pieces, leftStart, index);
            int replaceEnd = lastNonSpace(pieces, index + 1, rightEnd) + 1;
            pieces.subList(replaceStart, replaceEnd).clear();
            pieces.add(replaceStart, new Piece.Composite(parts, leaf.token().position()));
            index = replaceStart;
        }
        return pieces;
    }

    private static boolean isArrayOperator(Piece piece) {
        return piece instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.OPERATOR && ARRAY_OPERATORS.containsKey(leaf.token().text());
    }

    /**
     * {@code a[lower:upper]}, {@code a[:upper]}, {@code a[lower:]}: {@code pg_array_slice(a, lower,
     * upper, lower written, upper written)}. A subscript without a colon stays Calcite's item access.
     */
    /**
     * {@code ARRAY[]}: an empty array takes its type from a cast to an array type
     * ({@code ARRAY[]::integer[]}, {@code CAST(ARRAY[] AS text[])}) and becomes the literal
     * {@code '{}'} under that cast (Calcite's ARRAY constructor needs an element). Without such a
     * cast, PostgreSQL's 42P18.
     */
    private static List<Piece> rewriteEmptyArrays(List<Piece> pieces, boolean castArguments) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int open = PostgresTypeNames.skipSpace(pieces, index + 1);
            int close = PostgresTypeNames.skipSpace(pieces, open + 1);
            if (!isWord(piece, "array") || close >= pieces.size()
                    || !(pieces.get(open) instanceof Piece.Leaf left && left.token().isOperator("["))
                    || !(pieces.get(close) instanceof Piece.Leaf right && right.token().isOperator("]"))) {
                result.add(piece);
                continue;
            }
            int after = PostgresTypeNames.skipSpace(pieces, close + 1);
            boolean castFollows = after < pieces.size() && pieces.get(after) instanceof Piece.Leaf cast
                    && (cast.token().isOperator("::") || castArguments && cast.token().isWord("as"));
            PostgresTypeNames.TypeName target = castFollows ? PostgresTypeNames.read(pieces, after + 1) : null;
            SqlToken array = ((Piece.Leaf) piece).token();
            if (target == null || !target.array()) {
                throw new ParallaxException(SqlState.INDETERMINATE_DATATYPE, "cannot determine type of empty array", null,
                        "Explicitly cast to the desired type, for example ARRAY[]::integer[].", array.position() + 1, null);
            }
            result.add(new Piece.Leaf(new SqlToken(Kind.STRING, "'{}'", array.position())));
            index = close;
        }
        return result;
    }

    private List<Piece> rewriteArraySlices(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            if (!(piece instanceof Piece.Leaf open && open.token().isOperator("["))) {
                result.add(piece);
                continue;
            }
            int close = -1;
            int colon = -1;
            int depth = 0;
            for (int inside = index + 1; inside < pieces.size(); inside++) {
                if (pieces.get(inside) instanceof Piece.Leaf bracket && bracket.token().isOperator("[")) {
                    depth++;
                } else if (pieces.get(inside) instanceof Piece.Leaf bracket && bracket.token().isOperator("]")) {
                    if (depth-- == 0) {
                        close = inside;
                        break;
                    }
                } else if (depth == 0 && colon < 0 && pieces.get(inside) instanceof Piece.Leaf separator && separator.token().isOperator(":")) {
                    colon = inside;
                }
            }
            int start = primaryStart(result);
            int before = previousNonSpace(result, result.size());
            boolean arrayConstructor = before >= 0 && isWord(result.get(before), "array");
            if (close < 0 || colon < 0 || start < 0 || arrayConstructor) {
                result.add(piece);
                continue;
            }
            List<Piece> lower = trimmed(pieces.subList(index + 1, colon));
            List<Piece> upper = trimmed(pieces.subList(colon + 1, close));
            List<Object> parts = new ArrayList<>();
            parts.add("pg_array_slice(");
            parts.addAll(trimmed(result.subList(start, result.size())));
            parts.add(", ");
            if (lower.isEmpty()) {
                parts.add("0");
            } else {
                parts.addAll(lower);
            }
            parts.add(", ");
            if (upper.isEmpty()) {
                parts.add("0");
            } else {
                parts.addAll(upper);
            }
            parts.add(lower.isEmpty() ? ", FALSE" : ", TRUE");
            parts.add(upper.isEmpty() ? ", FALSE)" : ", TRUE)");
            result.subList(start, result.size()).clear();
            result.add(new Piece.Composite(parts, open.token().position()));
            index = close;
        }
        return result;
    }

    private List<Piece> rewriteBitOperators(List<Piece> input) {
        List<Piece> pieces = new ArrayList<>(input);
        for (int index = 0; index < pieces.size(); index++) {
            if (!(pieces.get(index) instanceof Piece.Leaf leaf) || leaf.token().kind() != Kind.OPERATOR) {
                continue;
            }
            String function = switch (leaf.token().text()) {
                case "&" -> "pg_bit_and";
                case "|" -> "pg_bit_or";
                case "#" -> "pg_bit_xor";
                case "~" -> "pg_bit_not";
                case "!~" -> "pg_not_regex_match";
                case "~*" -> "pg_regex_match_insensitive";
                case "!~*" -> "pg_not_regex_match_insensitive";
                case "<<" -> "pg_shift_left";
                case ">>" -> "pg_shift_right";
                case "|/" -> "pg_square_root";
                case "||/" -> "pg_cube_root";
                case "@" -> "pg_absolute_value";
                default -> null;
            };
            if (function == null) {
                continue;
            }
            boolean prefixOperator = PREFIX_OPERATORS.contains(leaf.token().text());
            int leftStart = index;
            while (leftStart > 0 && !isBoundary(pieces.get(leftStart - 1))) {
                leftStart--;
            }
            List<Piece> left = trimmed(pieces.subList(leftStart, index));
            boolean prefix = left.isEmpty();
            if (!prefix && function.equals("pg_bit_not")) {
                // Binary ~ is PostgreSQL's regular-expression match.
                function = "pg_regex_match";
            }
            if (prefixOperator) {
                // |/ x, ||/ x and @ x take what follows up to the next boundary, whatever stands before them.
                leftStart = index;
                left = List.of();
                prefix = true;
            } else if (prefix != function.equals("pg_bit_not")) {
                throw syntaxError(leaf.token());
            }
            int rightEnd = index + 1;
            while (rightEnd < pieces.size() && !isBoundary(pieces.get(rightEnd))) {
                rightEnd++;
            }
            List<Piece> right = trimmed(pieces.subList(index + 1, rightEnd));
            if (right.isEmpty()) {
                throw syntaxError(leaf.token());
            }
            List<Object> parts = new ArrayList<>();
            parts.add(function + "(");
            if (!prefix) {
                parts.addAll(left);
                parts.add(", ");
            }
            parts.addAll(right);
            parts.add(")");
            Piece call = new Piece.Composite(parts, leaf.token().position());
            // Keep the spaces around the operand so the statement still reads as written.
            int replaceStart = prefix ? index : firstNonSpace(pieces, leftStart, index);
            int replaceEnd = lastNonSpace(pieces, index + 1, rightEnd) + 1;
            pieces.subList(replaceStart, replaceEnd).clear();
            pieces.add(replaceStart, call);
            index = replaceStart;
        }
        return pieces;
    }

    private static boolean isBoundary(Piece piece) {
        if (!(piece instanceof Piece.Leaf leaf)) {
            return false;
        }
        SqlToken token = leaf.token();
        return switch (token.kind()) {
            case COMMA, SEMICOLON -> true;
            case OPERATOR -> BOUNDARY_OPERATORS.contains(token.text()) || token.text().equals("&")
                    || token.text().equals("|") || token.text().equals("#") || token.text().equals("~")
                    || token.text().equals("!~") || token.text().equals("~*") || token.text().equals("!~*");
            case WORD -> STOP_WORDS.contains(token.lowerText());
            default -> false;
        };
    }

    /** Index in {@code pieces} where the primary expression ending at its last non-space piece starts, or -1. */
    static int primaryStart(List<Piece> pieces) {
        int index = pieces.size() - 1;
        while (index >= 0 && isSpace(pieces.get(index))) {
            index--;
        }
        if (index < 0) {
            return -1;
        }
        Piece last = pieces.get(index);
        if (last instanceof Piece.Group group) {
            if (group.open().kind() == Kind.LEFT_PARENTHESIS) {
                int before = previousNonSpace(pieces, index);
                if (before >= 0 && pieces.get(before) instanceof Piece.Leaf name && isName(name.token())) {
                    return qualifiedStart(pieces, before);
                }
            }
            return index;
        }
        if (last instanceof Piece.Composite) {
            return index;
        }
        SqlToken token = ((Piece.Leaf) last).token();
        if (token.isOperator("]")) {
            // ARRAY[...] and subscripts x[i]: the primary is what the brackets follow.
            int depth = 0;
            int open = index;
            for (; open >= 0; open--) {
                if (pieces.get(open) instanceof Piece.Leaf bracket && bracket.token().isOperator("]")) {
                    depth++;
                } else if (pieces.get(open) instanceof Piece.Leaf bracket && bracket.token().isOperator("[") && --depth == 0) {
                    break;
                }
            }
            if (open <= 0) {
                return -1;
            }
            int before = previousNonSpace(pieces, open);
            if (before >= 0 && isWord(pieces.get(before), "array")) {
                return before;
            }
            return primaryStart(pieces.subList(0, open));
        }
        switch (token.kind()) {
            case STRING -> {
                int before = previousNonSpace(pieces, index);
                if (before >= 0 && pieces.get(before) instanceof Piece.Leaf typeWord
                        && (typeWord.token().isWord("date") || typeWord.token().isWord("timestamp") || typeWord.token().isWord("time"))) {
                    return before;
                }
                return index;
            }
            case NUMBER, POSITIONAL_PARAMETER -> {
                return index;
            }
            case WORD, QUOTED_IDENTIFIER -> {
                return isName(token) ? qualifiedStart(pieces, index) : -1;
            }
            default -> {
                return -1;
            }
        }
    }

    /** Index after the primary expression starting at {@code start}, or -1. */
    private static int primaryEnd(List<Piece> pieces, int start) {
        if (start >= pieces.size()) {
            return -1;
        }
        Piece first = pieces.get(start);
        if (first instanceof Piece.Leaf leaf && isName(leaf.token())) {
            int next = start + 1;
            while (next + 1 < pieces.size() && pieces.get(next) instanceof Piece.Leaf dot && dot.token().kind() == Kind.DOT) {
                next += 2;
            }
            if (next < pieces.size() && pieces.get(next) instanceof Piece.Group group && group.open().kind() == Kind.LEFT_PARENTHESIS) {
                next++;
            }
            return next;
        }
        if (first instanceof Piece.Leaf leaf && leaf.token().kind() != Kind.NUMBER && leaf.token().kind() != Kind.STRING
                && leaf.token().kind() != Kind.POSITIONAL_PARAMETER) {
            return -1;
        }
        return start + 1;
    }

    private static int qualifiedStart(List<Piece> pieces, int nameIndex) {
        int start = nameIndex;
        while (start >= 2 && pieces.get(start - 1) instanceof Piece.Leaf dot && dot.token().kind() == Kind.DOT
                && pieces.get(start - 2) instanceof Piece.Leaf qualifier && isName(qualifier.token())) {
            start -= 2;
        }
        return start;
    }

    private static boolean isName(SqlToken token) {
        return token.kind() == Kind.QUOTED_IDENTIFIER
                || (token.kind() == Kind.WORD && !STOP_WORDS.contains(token.lowerText()));
    }

    static int previousNonSpace(List<Piece> pieces, int index) {
        int before = index - 1;
        while (before >= 0 && isSpace(pieces.get(before))) {
            before--;
        }
        return before;
    }

    private static boolean previousIsWord(List<Piece> pieces, String word) {
        int before = previousNonSpace(pieces, pieces.size());
        return before >= 0 && isWord(pieces.get(before), word);
    }

    private static int firstNonSpace(List<Piece> pieces, int from, int to) {
        int index = from;
        while (index < to && isSpace(pieces.get(index))) {
            index++;
        }
        return index;
    }

    private static int lastNonSpace(List<Piece> pieces, int from, int to) {
        int index = to - 1;
        while (index >= from && isSpace(pieces.get(index))) {
            index--;
        }
        return index;
    }

    static List<Piece> trimmed(List<Piece> pieces) {
        int from = firstNonSpace(pieces, 0, pieces.size());
        int to = lastNonSpace(pieces, from, pieces.size()) + 1;
        return new ArrayList<>(pieces.subList(from, Math.max(from, to)));
    }

    static boolean isSpace(Piece piece) {
        return piece instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.SPACE;
    }

    static boolean isDot(Piece piece) {
        return piece instanceof Piece.Leaf leaf && leaf.token().kind() == Kind.DOT;
    }

    static boolean isWord(Piece piece, String word) {
        return piece instanceof Piece.Leaf leaf && leaf.token().isWord(word);
    }

    /**
     * {@code CAST('1 day' AS interval)}: the literal interval, as {@code '1 day'::interval} is
     * (Calcite casts to no unqualified interval); another operand is refused as there.
     */
    private static List<Piece> rewriteIntervalCasts(List<Piece> pieces) {
        List<Piece> result = new ArrayList<>(pieces.size());
        for (int index = 0; index < pieces.size(); index++) {
            Piece piece = pieces.get(index);
            int groupIndex = PostgresTypeNames.skipSpace(pieces, index + 1);
            if (isWord(piece, "cast") && groupIndex < pieces.size() && pieces.get(groupIndex) instanceof Piece.Group group
                    && group.open().kind() == Kind.LEFT_PARENTHESIS) {
                List<Piece> children = trimmed(group.children());
                int as = -1;
                for (int child = 0; child < children.size(); child++) {
                    if (isWord(children.get(child), "as")) {
                        as = child;
                    }
                }
                int typeEnd = as < 0 ? -1 : intervalTypeEnd(children, as + 1);
                if (typeEnd > 0 && PostgresTypeNames.skipSpace(children, typeEnd) == children.size()) {
                    List<Piece> operand = trimmed(children.subList(0, as));
                    if (operand.size() != 1 || !(operand.getFirst() instanceof Piece.Leaf string) || string.token().kind() != Kind.STRING) {
                        throw castToIntervalOfNonLiteral(((Piece.Leaf) piece).token());
                    }
                    String body = string.token().stringValue();
                    result.add(new Piece.Composite(List.of(PostgresIntervalText.toCastLiteral(body, string.token().position())),
                            ((Piece.Leaf) piece).token().position()));
                    index = groupIndex;
                    continue;
                }
            }
            result.add(piece);
        }
        return result;
    }

    /** Which of the two interval kinds a value is (months, or days and time) is known only from a literal's text. */
    private static ParallaxException castToIntervalOfNonLiteral(SqlToken token) {
        return new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "cast to interval is supported only of a string literal",
                null, "Parallax intervals hold months or days and time, which a literal's text decides; write interval '1 day'.",
                token.position() + 1, null);
    }

    private static ParallaxException syntaxError(SqlToken token) {
        return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + token.text() + "\"",
                null, null, token.position() + 1, null);
    }
}
