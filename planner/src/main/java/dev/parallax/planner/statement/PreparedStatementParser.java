package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * PostgreSQL's SQL-level prepared statements: {@code PREPARE name [(type, ...)] AS statement},
 * {@code EXECUTE name [(expression, ...)]} and {@code DEALLOCATE [PREPARE] name | ALL}, with the
 * grammar's syntax errors (only SELECT, INSERT, UPDATE, DELETE and VALUES can be prepared).
 */
final class PreparedStatementParser {
    /** The first words of PostgreSQL's PreparableStmt (a parenthesized query starts with "("). */
    private static final Set<String> PREPARABLE = Set.of("select", "insert", "update", "delete", "values", "with", "table");

    private PreparedStatementParser() {
    }

    static Statement parsePrepare(TokenCursor cursor) {
        cursor.expect("prepare");
        Token nameToken = cursor.peek();
        if (nameToken.isKeyword("transaction") && cursor.peek(1).kind() == TokenKind.STRING) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "PREPARE TRANSACTION is not supported", null,
                    "Parallax has no two-phase commit.", nameToken.position(), null);
        }
        String name = cursor.name();
        List<DataType> types = new ArrayList<>();
        List<String> typeTexts = new ArrayList<>();
        if (cursor.acceptSymbol("(")) {
            do {
                Token typeStart = cursor.peek();
                types.add(TypeNameParser.parse(cursor));
                int typeEnd = cursor.peek().start();
                typeTexts.add(cursor.sql().substring(typeStart.start(), typeEnd).strip());
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        }
        cursor.expect("as");
        Token queryStart = cursor.peek();
        boolean preparable = queryStart.isSymbol("(")
                || queryStart.kind() == TokenKind.IDENTIFIER && PREPARABLE.contains(queryStart.value());
        if (!preparable) {
            throw cursor.syntaxError(queryStart);
        }
        return new PrepareStatement(name, types, typeTexts, cursor.sql().substring(queryStart.start()), queryStart.start());
    }

    static Statement parseExecute(TokenCursor cursor) {
        cursor.expect("execute");
        String name = cursor.name();
        List<ExecuteStatement.Argument> arguments = new ArrayList<>();
        if (cursor.acceptSymbol("(")) {
            do {
                arguments.add(argument(cursor));
            } while (cursor.acceptSymbol(","));
            cursor.expectSymbol(")");
        }
        cursor.expectEnd();
        return new ExecuteStatement(name, arguments);
    }

    /** One argument expression: the tokens up to a comma or the closing parenthesis at its own nesting level. */
    private static ExecuteStatement.Argument argument(TokenCursor cursor) {
        Token start = cursor.peek();
        int depth = 0;
        int end = start.start();
        while (true) {
            Token token = cursor.peek();
            if (token.kind() == TokenKind.END || token.isSymbol(";")) {
                throw cursor.syntaxError(token);
            }
            if (depth == 0 && (token.isSymbol(",") || token.isSymbol(")"))) {
                break;
            }
            if (token.isSymbol("(") || token.isSymbol("[")) {
                depth++;
            } else if (token.isSymbol(")") || token.isSymbol("]")) {
                depth--;
            }
            end = token.end();
            cursor.next();
        }
        if (end == start.start()) {
            throw cursor.syntaxError(cursor.peek());
        }
        return new ExecuteStatement.Argument(cursor.sql().substring(start.start(), end), start.start());
    }

    static Statement parseDeallocate(TokenCursor cursor) {
        cursor.expect("deallocate");
        if (cursor.peek().isKeyword("prepare") && !cursor.peek(1).isSymbol(";") && cursor.peek(1).kind() != TokenKind.END) {
            cursor.next();
        }
        if (cursor.accept("all")) {
            cursor.expectEnd();
            return new DeallocateStatement(null);
        }
        String name = cursor.name();
        cursor.expectEnd();
        return new DeallocateStatement(name);
    }
}
