package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses COMMENT ON for the objects Parallax has (tables, views, sequences, indexes and their
 * columns); comments on other objects (schemas, functions, constraints, ...) are 0A000.
 */
final class CommentStatementParser {
    private CommentStatementParser() {
    }

    static Statement parse(TokenCursor cursor) {
        cursor.expect("comment");
        cursor.expect("on");
        Token what = cursor.next();
        CommentStatement.Kind kind = switch (what.kind() == TokenKind.IDENTIFIER ? what.value() : "") {
            case "table" -> CommentStatement.Kind.TABLE;
            case "view" -> CommentStatement.Kind.VIEW;
            case "sequence" -> CommentStatement.Kind.SEQUENCE;
            case "index" -> CommentStatement.Kind.INDEX;
            case "column" -> CommentStatement.Kind.COLUMN;
            case "" -> throw cursor.syntaxError(what);
            default -> throw StatementParser.notSupported("COMMENT ON " + what.value().toUpperCase(Locale.ROOT) + " is not supported", what);
        };
        RelationName relation;
        String column = null;
        if (kind == CommentStatement.Kind.COLUMN) {
            Token start = cursor.peek();
            List<String> names = new ArrayList<>();
            do {
                names.add(cursor.name());
            } while (cursor.acceptSymbol("."));
            if (names.size() == 1) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "column name must be qualified", null, null, 0, null);
            }
            if (names.size() > 3) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "schema \"" + names.getFirst() + "\" does not exist", null,
                        "Parallax has only the schema \"public\".", start.position(), null);
            }
            relation = names.size() == 3 ? TokenCursor.qualified(start, names.getFirst(), names.get(1))
                    : RelationName.unqualified(names.getFirst());
            column = names.getLast();
        } else {
            relation = cursor.relationName();
        }
        cursor.expect("is");
        Token text = cursor.next();
        String comment;
        if (text.kind() == TokenKind.STRING) {
            comment = text.value();
        } else if (text.isKeyword("null")) {
            comment = null;
        } else {
            throw cursor.syntaxError(text);
        }
        cursor.expectEnd();
        return new CommentStatement(kind, relation, column, comment);
    }
}
