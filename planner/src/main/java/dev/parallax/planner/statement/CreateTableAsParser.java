package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two spellings of CREATE TABLE ... AS, with PostgreSQL 15's grammar: {@code CREATE TABLE name
 * [(column, ...)] [WITH (storage parameters)] AS query [WITH [NO] DATA]} (read after
 * {@link StatementParser} has read the name)
 * and {@code SELECT ... INTO [UNLOGGED] [TABLE] name [FROM ...]}. The query stays text for the query
 * planner; for SELECT ... INTO it is the statement with its INTO clause blanked out, so every other
 * character keeps its position for error messages.
 */
final class CreateTableAsParser {
    /** Words that end a SELECT's target list: PostgreSQL's grammar takes INTO only before them. */
    private static final Set<String> CLAUSES_AFTER_TARGETS = Set.of("from", "where", "group", "having", "window", "order",
            "limit", "offset", "fetch", "for");
    private static final Set<String> SET_OPERATIONS = Set.of("union", "intersect", "except");
    /** Main statements a WITH may lead to besides SELECT; their INTO is their own. */
    private static final Set<String> MODIFYING = Set.of("insert", "update", "delete", "merge");
    /** How a query after AS may start (besides a parenthesis). */
    private static final Set<String> QUERY_STARTS = Set.of("select", "with", "values", "table");

    private CreateTableAsParser() {
    }

    /**
     * Whether the tokens after {@code CREATE TABLE [IF NOT EXISTS] name} are the AS form: AS or WITH,
     * or a parenthesized list of bare names followed by AS or WITH (a plain CREATE TABLE has column
     * definitions in its list, and WITH only after it). Anything else is a plain CREATE TABLE, whose
     * parser then reports a misplaced AS where PostgreSQL does.
     */
    static boolean follows(TokenCursor cursor) {
        if (cursor.peek().isKeyword("as") || cursor.peek().isKeyword("with") || cursor.peek().isKeyword("on")) {
            return true;
        }
        if (!cursor.peek().isSymbol("(")) {
            return false;
        }
        int ahead = 1;
        while (cursor.peek(ahead).isName()) {
            Token separator = cursor.peek(ahead + 1);
            if (separator.isSymbol(")")) {
                return cursor.peek(ahead + 2).isKeyword("as") || cursor.peek(ahead + 2).isKeyword("with")
                        || cursor.peek(ahead + 2).isKeyword("on");
            }
            if (!separator.isSymbol(",")) {
                return false;
            }
            ahead += 2;
        }
        return false;
    }

    /**
     * {@code [(column, ...)] [WITH (parameters)] [ON COMMIT ...] AS query [WITH [NO] DATA]}, the cursor
     * just past the table's name; {@code temporary} and {@code global} as CREATE [GLOBAL] TEMP said.
     */
    static CreateTableAsStatement parse(TokenCursor cursor, String tableName, boolean ifNotExists, boolean temporary, boolean global) {
        List<String> columnNames = cursor.optionalNameList();
        Map<String, String> storageParameters = StatementParser.parseWithStorageParameters(cursor);
        TemporaryTable temporaryTable = StatementParser.parseOnCommit(cursor, temporary, global);
        cursor.expect("as");
        Token start = cursor.peek();
        if (start.isKeyword("execute")) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "CREATE TABLE ... AS EXECUTE is not supported", null,
                    "Write the prepared statement's query after AS.", start.position(), null);
        }
        if (!start.isSymbol("(") && !(start.kind() == TokenKind.IDENTIFIER && QUERY_STARTS.contains(start.value()))) {
            throw cursor.syntaxError(start);
        }
        int end = tokensLeft(cursor);
        if (cursor.peek(end - 1).isSymbol(";")) {
            end--;
        }
        boolean withData = true;
        if (end >= 3 && isKeywords(cursor, end - 3, "with", "no", "data")) {
            withData = false;
            end -= 3;
        } else if (end >= 2 && isKeywords(cursor, end - 2, "with", "data")) {
            end -= 2;
        }
        if (end == 0) {
            throw cursor.syntaxError(cursor.peek(1));
        }
        checkNoParameters(cursor, end);
        int depth = 0;
        for (int ahead = 0; ahead < end; ahead++) {
            Token token = cursor.peek(ahead);
            depth += token.isSymbol("(") ? 1 : token.isSymbol(")") ? -1 : 0;
            if (depth != 0 || token.kind() != TokenKind.IDENTIFIER) {
                continue;
            }
            if (MODIFYING.contains(token.value())) {
                throw cursor.syntaxError(token);
            }
            if (token.value().equals("into")) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "SELECT ... INTO is not allowed here", null, null,
                        token.position(), null);
            }
        }
        String query = cursor.sql().substring(start.start(), cursor.peek(end - 1).end());
        return new CreateTableAsStatement(tableName, ifNotExists, columnNames, storageParameters, query, start.start(), withData,
                temporaryTable);
    }

    /**
     * PostgreSQL's 42P02 for a {@code $n} among the next {@code count} tokens: a utility statement is
     * given no parameter values, so its query cannot use any.
     */
    private static void checkNoParameters(TokenCursor cursor, int count) {
        for (int ahead = 0; ahead < count; ahead++) {
            Token token = cursor.peek(ahead);
            if (token.kind() == TokenKind.SYMBOL && token.value().length() > 1 && token.value().charAt(0) == '$') {
                throw new ParallaxException(SqlState.UNDEFINED_PARAMETER, "there is no parameter " + token.value(), null, null,
                        token.position(), null);
            }
        }
    }

    /** How many tokens come before the end of the statement. */
    private static int tokensLeft(TokenCursor cursor) {
        int count = 0;
        while (cursor.peek(count).kind() != TokenKind.END) {
            count++;
        }
        return count;
    }

    private static boolean isKeywords(TokenCursor cursor, int ahead, String... keywords) {
        for (int index = 0; index < keywords.length; index++) {
            if (!cursor.peek(ahead + index).isKeyword(keywords[index])) {
                return false;
            }
        }
        return true;
    }

    /**
     * A SELECT (or WITH ... SELECT) with an INTO clause of its own, at its top level and before its
     * FROM, as a CREATE TABLE ... AS of the rest; null when it has none (an ordinary query, or a WITH
     * leading to INSERT/UPDATE/DELETE). PostgreSQL's errors: 42601 for an INTO after FROM or in a later
     * branch of a set operation, 0A000 here for INTO TEMPORARY (Parallax has no temporary tables).
     */
    static CreateTableAsStatement parseSelectInto(TokenCursor cursor) {
        int into = -1;
        boolean afterSetOperation = false;
        boolean afterTargets = false;
        int depth = 0;
        for (int ahead = 0; into < 0 && cursor.peek(ahead).kind() != TokenKind.END; ahead++) {
            Token token = cursor.peek(ahead);
            depth += token.isSymbol("(") ? 1 : token.isSymbol(")") ? -1 : 0;
            if (depth != 0 || token.kind() != TokenKind.IDENTIFIER) {
                continue;
            }
            String word = token.value();
            if (MODIFYING.contains(word)) {
                return null;
            }
            if (SET_OPERATIONS.contains(word)) {
                afterSetOperation = true;
            } else if (CLAUSES_AFTER_TARGETS.contains(word)) {
                afterTargets = true;
            } else if (word.equals("into")) {
                if (afterSetOperation) {
                    throw new ParallaxException(SqlState.SYNTAX_ERROR, "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT",
                            null, null, token.position(), null);
                }
                if (afterTargets) {
                    throw cursor.syntaxError(token);
                }
                into = ahead;
            }
        }
        if (into < 0) {
            return null;
        }
        checkNoParameters(cursor, tokensLeft(cursor));
        Token first = cursor.peek();
        Token intoToken = cursor.peek(into);
        for (int skipped = 0; skipped <= into; skipped++) {
            cursor.next();
        }
        Token modifier = cursor.peek();
        boolean global = false;
        boolean temporary = false;
        if ((modifier.isKeyword("local") || modifier.isKeyword("global"))
                && (cursor.peek(1).isKeyword("temp") || cursor.peek(1).isKeyword("temporary"))) {
            global = modifier.isKeyword("global");
            cursor.next();
        }
        if (cursor.accept("temp") || cursor.accept("temporary")) {
            temporary = true;
        } else {
            // Every Parallax table lives in memory without a log, so UNLOGGED changes nothing (as in CREATE UNLOGGED TABLE).
            cursor.accept("unlogged");
        }
        cursor.accept("table");
        RelationName created = cursor.createdTableName(temporary);
        temporary |= created.schema() == RelationName.Schema.TEMPORARY;
        String tableName = created.name();
        int clauseEnd = cursor.peek().start();
        StringBuilder query = new StringBuilder(cursor.sql());
        for (int offset = intoToken.start(); offset < clauseEnd; offset++) {
            if (query.charAt(offset) != '\n') {
                query.setCharAt(offset, ' ');
            }
        }
        return new CreateTableAsStatement(tableName, false, List.of(), Map.of(), query.substring(first.start()), first.start(), true,
                temporary ? new TemporaryTable(TemporaryTable.OnCommit.PRESERVE_ROWS, global) : null);
    }
}
