package dev.parallax.planner.query.parse;

import dev.parallax.planner.query.parse.SqlToken.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code pg_partition_ancestors(relation)}, the set-returning function psql's {@code \d} calls to
 * find foreign keys through a partition's ancestors, returns the relation and the tables it is a
 * partition of, in one column {@code relid}. Parallax partitions one level deep (a partition is a
 * plain table), so the ancestors are the relation itself when it is a partition or partitioned
 * table (no row for any other relation, as PostgreSQL) and its pg_inherits parent: the call becomes
 * {@code (SELECT pg_ancestor AS relid FROM (SELECT oid AS pg_ancestor FROM pg_class WHERE oid = r AND
 * (relkind = 'p' OR relispartition) UNION ALL SELECT inhparent FROM pg_inherits WHERE inhrelid = r)
 * AS pg_ancestors)}, as a FROM item ({@code AS pg_partition_ancestors} unless an alias follows), or,
 * as the only item of a select list without FROM, {@code relid FROM} that subquery. It works on the
 * tokens, before the other rewrites, so they still apply to the argument.
 */
final class PartitionAncestorsRewrite {
    private static final String FUNCTION = "pg_partition_ancestors";
    private static final Set<String> AFTER_FROM_ITEM = Set.of("where", "group", "having", "order", "limit", "offset", "fetch",
            "union", "except", "intersect", "window", "join", "inner", "left", "right", "full", "cross", "natural", "on", "using");
    private static final Set<String> AFTER_SELECT_LIST = Set.of("union", "except", "intersect", "order", "limit", "offset");

    private PartitionAncestorsRewrite() {
    }

    /** The tokens with each call in a FROM list or a lone select list rewritten; {@code tokens} itself when there is none. */
    static List<SqlToken> apply(List<SqlToken> tokens) {
        boolean found = false;
        for (SqlToken token : tokens) {
            found |= token.isWord(FUNCTION);
        }
        if (!found) {
            return tokens;
        }
        List<SqlToken> result = new ArrayList<>(tokens.size());
        int index = 0;
        while (index < tokens.size()) {
            SqlToken token = tokens.get(index);
            int open = nextNonSpace(tokens, index + 1);
            if (!token.isWord(FUNCTION) || open >= tokens.size() || tokens.get(open).kind() != Kind.LEFT_PARENTHESIS) {
                result.add(token);
                index++;
                continue;
            }
            int close = matchingClose(tokens, open);
            if (close < 0) {
                result.add(token);
                index++;
                continue;
            }
            int start = qualifierStart(tokens, index);
            String clause = enclosingClause(tokens, start);
            int following = nextNonSpace(tokens, close + 1);
            SqlToken next = following < tokens.size() ? tokens.get(following) : null;
            List<SqlToken> argument = tokens.subList(open + 1, close);
            boolean fromItem = "from".equals(clause);
            boolean loneSelectItem = "select".equals(clause) && (next == null || next.kind() == Kind.RIGHT_PARENTHESIS
                    || next.kind() == Kind.SEMICOLON || next.kind() == Kind.WORD && AFTER_SELECT_LIST.contains(next.lowerText()));
            if (!fromItem && !loneSelectItem) {
                result.add(token);
                index++;
                continue;
            }
            if (start < index) {
                // pg_catalog and the dot were copied already.
                result.removeLast();
                result.removeLast();
            }
            int position = token.position();
            if (loneSelectItem) {
                generated(result, "relid FROM ", position);
            }
            generated(result, "(SELECT pg_ancestor AS relid FROM (SELECT oid AS pg_ancestor FROM pg_catalog.pg_class WHERE oid = ",
                    position);
            relation(result, argument, position);
            generated(result, " AND (relkind = 'p' OR relispartition) UNION ALL SELECT inhparent FROM pg_catalog.pg_inherits"
                    + " WHERE inhrelid = ", position);
            relation(result, argument, position);
            generated(result, ") AS pg_ancestors)", position);
            boolean aliased = next != null && (next.isWord("as") || next.kind() == Kind.QUOTED_IDENTIFIER
                    || next.kind() == Kind.WORD && !AFTER_FROM_ITEM.contains(next.lowerText()));
            if (loneSelectItem || !aliased) {
                generated(result, " AS " + FUNCTION, position);
            }
            index = close + 1;
        }
        return result;
    }

    /**
     * The argument as an OID: a quoted name or number goes through regclass (a name is looked up,
     * a number is the OID), anything else is an OID expression.
     */
    private static void relation(List<SqlToken> result, List<SqlToken> argument, int position) {
        List<SqlToken> significant = argument.stream().filter(token -> token.kind() != Kind.SPACE).toList();
        if (significant.size() == 1 && significant.getFirst().kind() == Kind.STRING) {
            result.add(significant.getFirst());
            generated(result, "::pg_catalog.regclass", position);
        } else {
            generated(result, "CAST((", position);
            result.addAll(argument);
            generated(result, ") AS BIGINT)", position);
        }
    }

    /** Tokens of generated text, all at {@code position} (errors in them point at the call). */
    private static void generated(List<SqlToken> result, String text, int position) {
        for (SqlToken token : PostgresLexer.tokenize(text)) {
            result.add(new SqlToken(token.kind(), token.text(), position));
        }
    }

    /** The start of {@code pg_catalog.} before the function name at {@code name}, or {@code name}. */
    private static int qualifierStart(List<SqlToken> tokens, int name) {
        if (name >= 2 && tokens.get(name - 1).kind() == Kind.DOT && tokens.get(name - 2).isWord("pg_catalog")) {
            return name - 2;
        }
        return name;
    }

    /** {@code select} or {@code from}: the nearest of the two before {@code start} at the same parenthesis depth; else null. */
    private static String enclosingClause(List<SqlToken> tokens, int start) {
        int depth = 0;
        for (int index = start - 1; index >= 0; index--) {
            SqlToken token = tokens.get(index);
            if (token.kind() == Kind.RIGHT_PARENTHESIS) {
                depth++;
            } else if (token.kind() == Kind.LEFT_PARENTHESIS) {
                if (depth == 0) {
                    return null;
                }
                depth--;
            } else if (depth == 0 && (token.isWord("select") || token.isWord("from"))) {
                return token.lowerText();
            } else if (depth == 0 && token.isWord("where")) {
                return null;
            }
        }
        return null;
    }

    private static int matchingClose(List<SqlToken> tokens, int open) {
        int depth = 0;
        for (int index = open; index < tokens.size(); index++) {
            Kind kind = tokens.get(index).kind();
            if (kind == Kind.LEFT_PARENTHESIS) {
                depth++;
            } else if (kind == Kind.RIGHT_PARENTHESIS && --depth == 0) {
                return index;
            }
        }
        return -1;
    }

    private static int nextNonSpace(List<SqlToken> tokens, int index) {
        while (index < tokens.size() && tokens.get(index).kind() == Kind.SPACE) {
            index++;
        }
        return index;
    }
}
