package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.SqlToken.Kind;
import dev.parallax.planner.statement.RelationName;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Puts the target table's column defaults into an INSERT's text before Calcite reads it, as
 * PostgreSQL's rewriter puts them into the query: {@code DEFAULT VALUES} becomes a VALUES row of
 * every column's default, a {@code DEFAULT} item of a VALUES row becomes its column's default, and
 * the columns the statement leaves out that have a default are added to the column list, their
 * defaults to every VALUES row, or (for INSERT ... SELECT) to a projection over the query. Each
 * default is planned with the statement and evaluated by the engine like any expression: once per
 * batch, per row for volatile functions (random(), nextval()), once per statement for now().
 * Statements whose target has no defaults and no DEFAULT item are left exactly as they are.
 */
public final class InsertDefaults {
    /** The source alias of INSERT ... SELECT when defaults are added to its rows. */
    private static final String SOURCE_ALIAS = "parallax_insert_source";

    private InsertDefaults() {
    }

    /** What the rewrite needs of the target table. */
    public interface Target {
        /** The table's column names, in order. */
        List<String> columnNames();

        /** The SQL text of column {@code column}'s default, converted to the column's type; null when it has none. */
        String defaultSql(int column);

        /** Whether the column is an identity column ({@code GENERATED ... AS IDENTITY}). */
        boolean isIdentity(int column);

        /** Whether the column is {@code GENERATED ALWAYS AS IDENTITY}: a value for it needs OVERRIDING SYSTEM VALUE. */
        boolean isGeneratedAlways(int column);
    }

    /** OVERRIDING SYSTEM VALUE / USER VALUE, or neither. */
    private enum Overriding {
        NONE, SYSTEM, USER
    }

    /**
     * {@code sql} (an INSERT without ON CONFLICT and RETURNING, no trailing semicolon) with the
     * defaults of its target put in; {@code sql} itself when there is nothing to put in or the
     * statement is not understood here (the planner then reports what is wrong with it).
     * {@code targets} finds a table by its name (null when there is none); {@code queryWidth}
     * gives the number of columns of a query, asked only for INSERT ... SELECT without a column list.
     */
    public static String rewrite(String sql, Function<RelationName, Target> targets, ToIntFunction<String> queryWidth) {
        List<SqlToken> tokens = new ArrayList<>();
        for (SqlToken token : PostgresLexer.tokenize(sql)) {
            if (token.kind() != Kind.SPACE && token.kind() != Kind.SEMICOLON) {
                tokens.add(token);
            }
        }
        if (tokens.size() < 4 || !tokens.get(0).isWord("insert") || !tokens.get(1).isWord("into")) {
            return sql;
        }
        int index = 2;
        RelationName.Schema schema = RelationName.Schema.SEARCH_PATH;
        if (index + 2 < tokens.size() && tokens.get(index + 1).kind() == Kind.DOT) {
            String schemaName = name(tokens.get(index));
            schema = schemaName == null ? null : RelationName.Schema.written(schemaName);
            if (schema == null) {
                // A schema Parallax does not have: the planner reports it.
                return sql;
            }
            index += 2;
        }
        String tableName = name(tokens.get(index));
        if (tableName == null) {
            return sql;
        }
        Target target = targets.apply(new RelationName(schema, tableName));
        if (target == null) {
            return sql;
        }
        String head = sql.substring(0, end(sql, tokens, index));
        index++;
        List<String> tableColumns = target.columnNames();
        List<Integer> listed = null;
        if (index < tokens.size() && tokens.get(index).kind() == Kind.LEFT_PARENTHESIS && isColumnList(tokens, index)) {
            listed = new ArrayList<>();
            index++;
            while (true) {
                SqlToken token = tokens.get(index);
                String column = name(token);
                int position = column == null ? -1 : tableColumns.indexOf(column);
                if (column == null) {
                    return sql;
                }
                if (position < 0) {
                    throw new ParallaxException(SqlState.UNDEFINED_COLUMN, "column \"" + column + "\" of relation \"" + tableName
                            + "\" does not exist", null, null, token.position() + 1, null);
                }
                if (listed.contains(position)) {
                    throw new ParallaxException(SqlState.DUPLICATE_COLUMN, "column \"" + column + "\" specified more than once",
                            null, null, token.position() + 1, null);
                }
                listed.add(position);
                index++;
                if (tokens.get(index).kind() == Kind.COMMA) {
                    index++;
                } else if (tokens.get(index).kind() == Kind.RIGHT_PARENTHESIS) {
                    index++;
                    break;
                } else {
                    return sql;
                }
            }
        }
        if (index >= tokens.size()) {
            return sql;
        }
        // The statement up to its source, without OVERRIDING: what an INSERT ... SELECT keeps when nothing is added.
        String prefix = sql.substring(0, tokens.get(index).position()).stripTrailing();
        Overriding overriding = Overriding.NONE;
        if (index + 2 < tokens.size() && tokens.get(index).isWord("overriding") && tokens.get(index + 2).isWord("value")) {
            if (tokens.get(index + 1).isWord("system")) {
                overriding = Overriding.SYSTEM;
            } else if (tokens.get(index + 1).isWord("user")) {
                overriding = Overriding.USER;
            } else {
                return sql;
            }
            index += 3;
        }
        if (index >= tokens.size()) {
            return sql;
        }
        SqlToken first = tokens.get(index);
        if (first.isWord("default") && index + 1 < tokens.size() && tokens.get(index + 1).isWord("values")) {
            if (listed != null || index + 2 != tokens.size()) {
                SqlToken wrong = listed != null ? first : tokens.get(index + 2);
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + wrong.text() + "\"", null, null,
                        wrong.position() + 1, null);
            }
            return defaultValues(head, target);
        }
        if (first.isWord("values")) {
            return values(sql, tokens, index + 1, head, target, listed, overriding);
        }
        return query(sql.substring(first.position()), prefix, head, target, listed, queryWidth, overriding);
    }

    /** PostgreSQL's 428C9 for a value given to a GENERATED ALWAYS identity column without OVERRIDING SYSTEM VALUE. */
    private static ParallaxException generatedAlways(Target target, int column) {
        String name = target.columnNames().get(column);
        return new ParallaxException(SqlState.GENERATED_ALWAYS, "cannot insert a non-DEFAULT value into column \"" + name + "\"",
                "Column \"" + name + "\" is an identity column defined as GENERATED ALWAYS.", "Use OVERRIDING SYSTEM VALUE to override.",
                0, null);
    }

    /** {@code INSERT INTO t DEFAULT VALUES}: one row of every column's default (NULL where there is none). */
    private static String defaultValues(String head, Target target) {
        List<String> columns = target.columnNames();
        StringBuilder text = new StringBuilder(head).append(" (");
        StringBuilder row = new StringBuilder(" VALUES (");
        for (int column = 0; column < columns.size(); column++) {
            text.append(column == 0 ? "" : ", ").append(quoted(columns.get(column)));
            row.append(column == 0 ? "" : ", ").append(defaultOrNull(target, column));
        }
        return text.append(')').append(row).append(')').toString();
    }

    /** {@code VALUES (...), (...)}: DEFAULT items replaced, omitted columns with a default appended to each row. */
    private static String values(String sql, List<SqlToken> tokens, int index, String head, Target target, List<Integer> listed,
                                 Overriding overriding) {
        List<List<String>> rows = new ArrayList<>();
        // OVERRIDING ... VALUE is PostgreSQL's alone: the text is rebuilt without it.
        boolean replaced = overriding != Overriding.NONE;
        while (true) {
            if (index >= tokens.size() || tokens.get(index).kind() != Kind.LEFT_PARENTHESIS) {
                return sql;
            }
            List<String> row = new ArrayList<>();
            int depth = 0;
            int itemStart = index + 1;
            index++;
            while (true) {
                if (index >= tokens.size()) {
                    return sql;
                }
                SqlToken token = tokens.get(index);
                if (token.kind() == Kind.LEFT_PARENTHESIS) {
                    depth++;
                } else if (depth > 0 && token.kind() == Kind.RIGHT_PARENTHESIS) {
                    depth--;
                } else if (depth == 0 && (token.kind() == Kind.COMMA || token.kind() == Kind.RIGHT_PARENTHESIS)) {
                    if (itemStart == index) {
                        return sql;
                    }
                    int column = row.size();
                    boolean isDefault = index == itemStart + 1 && tokens.get(itemStart).isWord("default");
                    int tableColumn = listed != null ? (column < listed.size() ? listed.get(column) : -1)
                            : (column < target.columnNames().size() ? column : -1);
                    if (!isDefault && tableColumn >= 0 && overriding == Overriding.NONE && target.isGeneratedAlways(tableColumn)) {
                        throw generatedAlways(target, tableColumn);
                    }
                    if (!isDefault && tableColumn >= 0 && overriding == Overriding.USER && target.isIdentity(tableColumn)) {
                        // OVERRIDING USER VALUE: the identity column takes its sequence's value, whatever was given.
                        isDefault = true;
                    }
                    if (isDefault) {
                        if (tableColumn < 0) {
                            return sql;
                        }
                        row.add(defaultOrNull(target, tableColumn));
                        replaced = true;
                    } else {
                        String item = sql.substring(tokens.get(itemStart).position(), token.position()).strip();
                        // A trailing line comment would swallow what the rewrite puts after the item.
                        row.add(item.contains("--") ? item + "\n" : item);
                    }
                    itemStart = index + 1;
                    if (token.kind() == Kind.RIGHT_PARENTHESIS) {
                        index++;
                        break;
                    }
                }
                index++;
            }
            rows.add(row);
            if (index < tokens.size() && tokens.get(index).kind() == Kind.COMMA) {
                index++;
                continue;
            }
            if (index != tokens.size()) {
                return sql;
            }
            break;
        }
        int width = rows.getFirst().size();
        for (List<String> row : rows) {
            if (row.size() != width) {
                return sql;
            }
        }
        List<Integer> targetColumns = targetColumns(listed, width, target);
        if (targetColumns == null) {
            return sql;
        }
        List<Integer> added = omittedWithDefaults(targetColumns, target);
        if (added.isEmpty() && !replaced) {
            return sql;
        }
        StringBuilder text = new StringBuilder(head).append(columnList(targetColumns, added, target)).append(" VALUES ");
        for (int row = 0; row < rows.size(); row++) {
            text.append(row == 0 ? "(" : ", (").append(String.join(", ", rows.get(row)));
            for (int column : added) {
                text.append(", ").append(target.defaultSql(column));
            }
            text.append(')');
        }
        return text.toString();
    }

    /** INSERT ... SELECT (or any other query): the omitted columns' defaults computed over the query's rows. */
    private static String query(String source, String prefix, String head, Target target, List<Integer> listed,
                                ToIntFunction<String> queryWidth, Overriding overriding) {
        boolean anyIdentity = false;
        for (int column = 0; column < target.columnNames().size(); column++) {
            anyIdentity |= target.isIdentity(column);
        }
        if (overriding != Overriding.SYSTEM && anyIdentity) {
            List<Integer> given = listed != null ? listed : targetColumns(null, queryWidth.applyAsInt(source), target);
            for (int column : given == null ? List.<Integer>of() : given) {
                if (overriding == Overriding.USER && target.isIdentity(column)) {
                    throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "OVERRIDING USER VALUE with a query is not supported yet");
                }
                if (target.isGeneratedAlways(column)) {
                    throw generatedAlways(target, column);
                }
            }
        }
        boolean anyDefault = false;
        for (int column = 0; column < target.columnNames().size(); column++) {
            anyDefault |= target.defaultSql(column) != null;
        }
        if (!anyDefault) {
            return prefix + " " + source;
        }
        int width = listed != null ? listed.size() : queryWidth.applyAsInt(source);
        List<Integer> targetColumns = targetColumns(listed, width, target);
        if (targetColumns == null) {
            return prefix + " " + source;
        }
        List<Integer> added = omittedWithDefaults(targetColumns, target);
        if (added.isEmpty()) {
            return prefix + " " + source;
        }
        StringBuilder text = new StringBuilder(head).append(columnList(targetColumns, added, target))
                .append(" SELECT ").append(SOURCE_ALIAS).append(".*");
        for (int column : added) {
            text.append(", ").append(target.defaultSql(column));
        }
        return text.append(" FROM (").append(source).append(") AS ").append(SOURCE_ALIAS).toString();
    }

    /** The table columns the statement's values go to: its column list, or the first {@code width} columns; null when too many. */
    private static List<Integer> targetColumns(List<Integer> listed, int width, Target target) {
        if (listed != null) {
            return listed;
        }
        if (width > target.columnNames().size()) {
            return null;
        }
        List<Integer> columns = new ArrayList<>();
        for (int column = 0; column < width; column++) {
            columns.add(column);
        }
        return columns;
    }

    private static List<Integer> omittedWithDefaults(List<Integer> targetColumns, Target target) {
        List<Integer> added = new ArrayList<>();
        for (int column = 0; column < target.columnNames().size(); column++) {
            if (!targetColumns.contains(column) && target.defaultSql(column) != null) {
                added.add(column);
            }
        }
        return added;
    }

    private static String columnList(List<Integer> targetColumns, List<Integer> added, Target target) {
        StringBuilder text = new StringBuilder(" (");
        List<Integer> all = new ArrayList<>(targetColumns);
        all.addAll(added);
        for (int index = 0; index < all.size(); index++) {
            text.append(index == 0 ? "" : ", ").append(quoted(target.columnNames().get(all.get(index))));
        }
        return text.append(')').toString();
    }

    private static String defaultOrNull(Target target, int column) {
        String value = target.defaultSql(column);
        return value == null ? "NULL" : value;
    }

    /** Whether the parenthesis at {@code index} opens a column list ({@code (a, b)}) rather than a query. */
    private static boolean isColumnList(List<SqlToken> tokens, int index) {
        if (index + 2 >= tokens.size() || name(tokens.get(index + 1)) == null) {
            return false;
        }
        SqlToken first = tokens.get(index + 1);
        if (first.isWord("select") || first.isWord("values") || first.isWord("with") || first.isWord("table")) {
            return false;
        }
        Kind next = tokens.get(index + 2).kind();
        return next == Kind.COMMA || next == Kind.RIGHT_PARENTHESIS;
    }

    /** A catalog name from an identifier token (unquoted folded to lower case), or null for another token. */
    private static String name(SqlToken token) {
        return switch (token.kind()) {
            case WORD -> token.lowerText();
            case QUOTED_IDENTIFIER -> token.text().substring(1, token.text().length() - 1).replace("\"\"", "\"");
            default -> null;
        };
    }

    /** The offset just after token {@code index}. */
    private static int end(String sql, List<SqlToken> tokens, int index) {
        SqlToken token = tokens.get(index);
        return token.position() + token.text().length();
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
