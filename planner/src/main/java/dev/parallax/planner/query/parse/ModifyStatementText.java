package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.SqlToken.Kind;
import dev.parallax.planner.statement.RelationName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The clauses of an UPDATE, a DELETE, or an INSERT with ON CONFLICT or RETURNING, cut out of the
 * statement text so that each part can be planned on its own (Calcite parses none of ON CONFLICT,
 * RETURNING or an INSERT's target alias). Cutting is token-level at parenthesis depth 0, so
 * keywords inside strings, subqueries and function calls are left alone. Positional parameters
 * ({@code ?}) are renumbered {@code $1, $2, ...} by their order in the whole statement, so that every
 * part refers to the same parameter numbers.
 *
 * @param operation   "insert", "update" or "delete"
 * @param table       the target table as written (quoted or not), without its schema
 * @param tableName   the table's catalog name (unquoted identifiers folded to lower case) and schema
 * @param alias       the target's alias as written, or null
 * @param insertText  INSERT: the statement without its target alias, ON CONFLICT and RETURNING
 * @param assignments UPDATE: the SET list
 * @param whereText   UPDATE/DELETE: the WHERE condition, or null
 * @param conflict    INSERT: the ON CONFLICT clause, or null
 * @param returningText the RETURNING list, or null
 * @param fromText    UPDATE's FROM list or DELETE's USING list (as a FROM clause reads it), or null
 */
public record ModifyStatementText(String operation, String table, RelationName tableName, String alias, String insertText,
                                  List<Assignment> assignments, String whereText, Conflict conflict, String returningText,
                                  String fromText) {

    /** The target table as written with its schema, when written with one: {@code public.t}. */
    public String qualifiedTable() {
        return tableName.qualified() ? tableName.schemaName() + "." + table : table;
    }

    /**
     * {@code column = expression} of a SET list; {@code column} is the catalog name. {@code toDefault}
     * is {@code SET column = DEFAULT} (the expression text is then the word DEFAULT): the planner puts
     * the column's default in.
     */
    public record Assignment(String column, String expressionText, boolean toDefault) {
        public Assignment(String column, String expressionText) {
            this(column, expressionText, false);
        }
    }

    /**
     * ON CONFLICT [ (columns) | ON CONSTRAINT name ] DO NOTHING | DO UPDATE SET ... [WHERE ...].
     *
     * @param targetColumns the inference columns (catalog names), or null
     * @param constraint    the constraint name of ON CONSTRAINT, or null
     * @param update        DO UPDATE (else DO NOTHING)
     * @param assignments   DO UPDATE's SET list
     * @param whereText     DO UPDATE's WHERE, or null
     * @param position      1-based position of ON CONFLICT in the statement, for errors
     */
    public record Conflict(List<String> targetColumns, String constraint, boolean update, List<Assignment> assignments,
                           String whereText, int position) {
    }

    /**
     * The clauses of {@code sql} when it is an UPDATE, a DELETE, or an INSERT with ON CONFLICT or
     * RETURNING; null for anything else (a plain INSERT is planned whole by Calcite).
     */
    public static ModifyStatementText parse(String sql) {
        List<SqlToken> all = PostgresLexer.tokenize(sql);
        Cutter cutter = new Cutter(sql, all);
        if (cutter.size() == 0) {
            return null;
        }
        String first = cutter.token(0).lowerText();
        return switch (first) {
            case "update" -> cutter.update();
            case "delete" -> cutter.delete();
            case "insert" -> cutter.insert();
            default -> null;
        };
    }

    /** Works over the statement's tokens without whitespace, keeping their text spans. */
    private static final class Cutter {
        private final String sql;
        private final List<SqlToken> tokens = new ArrayList<>();
        private final int[] depths;
        private final String[] positionalNames;

        Cutter(String sql, List<SqlToken> all) {
            this.sql = sql;
            for (SqlToken token : all) {
                if (token.kind() != Kind.SPACE && token.kind() != Kind.SEMICOLON) {
                    tokens.add(token);
                }
            }
            depths = new int[tokens.size()];
            positionalNames = new String[tokens.size()];
            int depth = 0;
            int positional = 0;
            for (int index = 0; index < tokens.size(); index++) {
                SqlToken token = tokens.get(index);
                if (token.kind() == Kind.RIGHT_PARENTHESIS) {
                    depth--;
                }
                depths[index] = depth;
                if (token.kind() == Kind.LEFT_PARENTHESIS) {
                    depth++;
                }
                if (token.kind() == Kind.POSITIONAL_PARAMETER) {
                    positionalNames[index] = "$" + (++positional);
                }
            }
        }

        int size() {
            return tokens.size();
        }

        SqlToken token(int index) {
            return tokens.get(index);
        }

        /** The original text of tokens {@code [from, to)}, positional parameters renumbered. */
        String text(int from, int to) {
            StringBuilder text = new StringBuilder();
            for (int index = from; index < to; index++) {
                SqlToken token = tokens.get(index);
                int end = index + 1 < tokens.size() ? tokens.get(index + 1).position() : sql.length();
                if (index + 1 == to) {
                    end = tokenEnd(index);
                }
                text.append(positionalNames[index] != null ? positionalNames[index] + sql.substring(token.position() + 1, end)
                        : sql.substring(token.position(), end));
            }
            return text.toString().strip();
        }

        private int tokenEnd(int index) {
            int end = index + 1 < tokens.size() ? tokens.get(index + 1).position() : sql.length();
            // Trailing whitespace, comments and semicolons belong to no clause.
            String span = sql.substring(tokens.get(index).position(), end);
            int semicolon = span.indexOf(';');
            if (semicolon >= 0 && tokens.get(index).kind() != Kind.STRING && tokens.get(index).kind() != Kind.QUOTED_IDENTIFIER) {
                return tokens.get(index).position() + semicolon;
            }
            return end;
        }

        /** The first index in {@code [from, to)} at depth 0 that is the word {@code word}, or -1. */
        int find(int from, int to, String word) {
            for (int index = from; index < to; index++) {
                if (depths[index] == 0 && tokens.get(index).isWord(word)) {
                    return index;
                }
            }
            return -1;
        }

        int findConflict(int from, int to) {
            for (int index = from; index + 1 < to; index++) {
                if (depths[index] == 0 && tokens.get(index).isWord("on") && tokens.get(index + 1).isWord("conflict")) {
                    return index;
                }
            }
            return -1;
        }

        ParallaxException syntaxError(int index) {
            if (index >= tokens.size()) {
                return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at end of input", null, null, sql.length() + 1, null);
            }
            SqlToken token = tokens.get(index);
            return new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + token.text() + "\"", null, null,
                    token.position() + 1, null);
        }

        void expectWord(int index, String word) {
            if (index >= tokens.size() || !tokens.get(index).isWord(word)) {
                throw syntaxError(index);
            }
        }

        /** A catalog name from an identifier token: unquoted folded to lower case, quoted as written. */
        String name(int index) {
            if (index >= tokens.size()) {
                throw syntaxError(index);
            }
            SqlToken token = tokens.get(index);
            return switch (token.kind()) {
                case WORD -> token.lowerText();
                case QUOTED_IDENTIFIER -> token.text().substring(1, token.text().length() - 1).replace("\"\"", "\"");
                default -> throw syntaxError(index);
            };
        }

        /**
         * Parses {@code [schema.]table [[AS] alias]} at {@code index}; returns the index after it and
         * fills {@code target} (the table as written, the alias as written) and {@code tableName}.
         */
        int target(int index, String[] target, RelationName[] tableName, boolean aliasNeedsAs) {
            int next = index + 1;
            if (next < tokens.size() && tokens.get(next).kind() == Kind.DOT) {
                String schema = name(index);
                tableName[0] = RelationName.qualified(schema, name(next + 1), tokens.get(index).position() + 1);
                index = next + 1;
                next = index + 1;
            } else {
                tableName[0] = RelationName.unqualified(name(index));
            }
            target[0] = text(index, index + 1);
            if (next < tokens.size() && tokens.get(next).isWord("as")) {
                target[1] = text(next + 1, next + 2);
                name(next + 1);
                return next + 2;
            }
            if (!aliasNeedsAs && next < tokens.size() && (tokens.get(next).kind() == Kind.QUOTED_IDENTIFIER
                    || tokens.get(next).kind() == Kind.WORD && !isClauseWord(tokens.get(next)))) {
                target[1] = text(next, next + 1);
                return next + 1;
            }
            return next;
        }

        private static boolean isClauseWord(SqlToken token) {
            return switch (token.lowerText()) {
                case "set", "where", "using", "returning", "from" -> true;
                default -> false;
            };
        }

        ModifyStatementText update() {
            String[] target = new String[2];
            RelationName[] tableName = new RelationName[1];
            int index = target(1, target, tableName, false);
            expectWord(index, "set");
            int end = tokens.size();
            int returning = find(index + 1, end, "returning");
            int clauseEnd = returning < 0 ? end : returning;
            int where = find(index + 1, clauseEnd, "where");
            int from = find(index + 1, where < 0 ? clauseEnd : where, "from");
            List<Assignment> assignments = assignments(index + 1, from >= 0 ? from : where < 0 ? clauseEnd : where);
            String fromText = from < 0 ? null : nonEmpty(from + 1, where < 0 ? clauseEnd : where);
            String whereText = where < 0 ? null : nonEmpty(where + 1, clauseEnd);
            String returningText = returning < 0 ? null : nonEmpty(returning + 1, end);
            return new ModifyStatementText("update", target[0], tableName[0], target[1], null, assignments, whereText, null, returningText,
                    fromText);
        }

        ModifyStatementText delete() {
            expectWord(1, "from");
            String[] target = new String[2];
            RelationName[] tableName = new RelationName[1];
            int index = target(2, target, tableName, false);
            int end = tokens.size();
            int returning = find(index, end, "returning");
            int clauseEnd = returning < 0 ? end : returning;
            String fromText = null;
            if (index < clauseEnd && tokens.get(index).isWord("using")) {
                int where = find(index + 1, clauseEnd, "where");
                fromText = nonEmpty(index + 1, where < 0 ? clauseEnd : where);
                index = where < 0 ? clauseEnd : where;
            }
            String whereText = null;
            if (index < clauseEnd) {
                expectWord(index, "where");
                whereText = nonEmpty(index + 1, clauseEnd);
            }
            String returningText = returning < 0 ? null : nonEmpty(returning + 1, end);
            return new ModifyStatementText("delete", target[0], tableName[0], target[1], null, List.of(), whereText, null, returningText,
                    fromText);
        }

        ModifyStatementText insert() {
            int end = tokens.size();
            int conflict = findConflict(1, end);
            int returning = find(conflict < 0 ? 1 : conflict, end, "returning");
            if (conflict < 0 && returning < 0) {
                return null;
            }
            expectWord(1, "into");
            String[] target = new String[2];
            RelationName[] tableName = new RelationName[1];
            int index = target(2, target, tableName, true);
            int sourceEnd = conflict >= 0 ? conflict : returning;
            // The INSERT as Calcite reads it: no target alias.
            String insertText = "INSERT INTO " + (tableName[0].qualified() ? tableName[0].schemaName() + "." : "") + target[0] + " "
                    + text(index, sourceEnd);
            Conflict clause = conflict < 0 ? null : conflict(conflict, returning < 0 ? end : returning);
            String returningText = returning < 0 ? null : nonEmpty(returning + 1, end);
            return new ModifyStatementText("insert", target[0], tableName[0], target[1], insertText, List.of(), null, clause, returningText,
                    null);
        }

        private Conflict conflict(int start, int end) {
            int index = start + 2;
            List<String> columns = null;
            String constraint = null;
            if (index < end && tokens.get(index).kind() == Kind.LEFT_PARENTHESIS) {
                columns = new ArrayList<>();
                index++;
                while (true) {
                    columns.add(name(index));
                    index++;
                    if (index < end && tokens.get(index).kind() == Kind.COMMA) {
                        index++;
                        continue;
                    }
                    if (index < end && tokens.get(index).kind() == Kind.RIGHT_PARENTHESIS) {
                        index++;
                        break;
                    }
                    throw syntaxError(index);
                }
                if (index < end && tokens.get(index).isWord("where")) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "ON CONFLICT with an index predicate is not supported",
                            null, null, tokens.get(index).position() + 1, null);
                }
            } else if (index < end && tokens.get(index).isWord("on")) {
                expectWord(index + 1, "constraint");
                constraint = name(index + 2);
                index += 3;
            }
            expectWord(index, "do");
            index++;
            int position = tokens.get(start).position() + 1;
            if (index < end && tokens.get(index).isWord("nothing")) {
                if (index + 1 != end) {
                    throw syntaxError(index + 1);
                }
                return new Conflict(columns, constraint, false, List.of(), null, position);
            }
            expectWord(index, "update");
            expectWord(index + 1, "set");
            int where = find(index + 2, end, "where");
            List<Assignment> assignments = assignments(index + 2, where < 0 ? end : where);
            String whereText = where < 0 ? null : nonEmpty(where + 1, end);
            return new Conflict(columns, constraint, true, assignments, whereText, position);
        }

        /** {@code column = expression [, ...]} over tokens {@code [from, to)}. */
        private List<Assignment> assignments(int from, int to) {
            List<Assignment> assignments = new ArrayList<>();
            int index = from;
            while (index < to) {
                if (tokens.get(index).kind() == Kind.LEFT_PARENTHESIS) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "multiple-column assignment is not supported yet",
                            null, null, tokens.get(index).position() + 1, null);
                }
                String column = name(index);
                if (index + 1 < to && tokens.get(index + 1).kind() == Kind.DOT) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "assignment to a field of a column is not supported",
                            null, null, tokens.get(index + 1).position() + 1, null);
                }
                if (index + 1 >= to || !tokens.get(index + 1).isOperator("=")) {
                    throw syntaxError(index + 1);
                }
                int expressionStart = index + 2;
                int expressionEnd = expressionStart;
                while (expressionEnd < to && !(depths[expressionEnd] == 0 && tokens.get(expressionEnd).kind() == Kind.COMMA)) {
                    expressionEnd++;
                }
                if (expressionEnd == expressionStart) {
                    throw syntaxError(expressionStart);
                }
                boolean toDefault = expressionEnd == expressionStart + 1 && tokens.get(expressionStart).isWord("default");
                assignments.add(new Assignment(column, text(expressionStart, expressionEnd), toDefault));
                index = expressionEnd + 1;
                if (expressionEnd < to && index >= to) {
                    throw syntaxError(index);
                }
            }
            if (assignments.isEmpty()) {
                throw syntaxError(from);
            }
            return assignments;
        }

        private String nonEmpty(int from, int to) {
            if (from >= to) {
                throw syntaxError(from);
            }
            return text(from, to);
        }
    }

    /** Lower-case operation name for messages. */
    public String operationName() {
        return operation.toUpperCase(Locale.ROOT);
    }
}
