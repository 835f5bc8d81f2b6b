package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;

import java.util.ArrayList;
import java.util.List;

/** Reads the tokens of one statement front to back, with PostgreSQL's syntax error messages. */
final class TokenCursor {
    private final String sql;
    private final List<Token> tokens;
    private int index;

    TokenCursor(String sql) {
        this.sql = sql;
        this.tokens = SqlLexer.tokenize(sql);
    }

    String sql() {
        return sql;
    }

    Token peek() {
        return tokens.get(index);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    Token next() {
        Token token = tokens.get(index);
        if (token.kind() != TokenKind.END) {
            index++;
        }
        return token;
    }

    boolean atEnd() {
        return peek().kind() == TokenKind.END || (peek().isSymbol(";") && peek(1).kind() == TokenKind.END);
    }

    /** Consumes the keyword when it comes next. */
    boolean accept(String keyword) {
        if (peek().isKeyword(keyword)) {
            index++;
            return true;
        }
        return false;
    }

    boolean acceptSymbol(String symbol) {
        if (peek().isSymbol(symbol)) {
            index++;
            return true;
        }
        return false;
    }

    void expect(String keyword) {
        if (!accept(keyword)) {
            throw syntaxError(peek());
        }
    }

    void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw syntaxError(peek());
        }
    }

    /** An identifier (quoted or not): its folded name. */
    String name() {
        Token token = peek();
        if (!token.isName()) {
            throw syntaxError(token);
        }
        index++;
        return token.value();
    }

    /** {@code (name, ...)} when a parenthesis comes next: its names, folded; otherwise no names. */
    List<String> optionalNameList() {
        List<String> names = new ArrayList<>();
        if (acceptSymbol("(")) {
            do {
                names.add(name());
            } while (acceptSymbol(","));
            expectSymbol(")");
        }
        return names;
    }

    /** A relation's name, optionally qualified by {@code public} or {@code pg_temp} (the schemas there are). */
    RelationName relationName() {
        Token first = peek();
        String name = name();
        if (acceptSymbol(".")) {
            return qualified(first, name, name());
        }
        return RelationName.unqualified(name);
    }

    /**
     * The name of a table to create, TEMP or not as {@code temporary} says: {@code pg_temp.name}
     * makes it temporary as TEMP does, {@code public.name} a temporary one never (42P16, as PostgreSQL).
     */
    RelationName createdTableName(boolean temporary) {
        Token first = peek();
        RelationName created = relationName();
        if (created.schema() == RelationName.Schema.PUBLIC && temporary) {
            throw new ParallaxException(dev.parallax.engine.error.SqlState.INVALID_TABLE_DEFINITION,
                    "cannot create temporary relation in non-temporary schema", null, null, first.position(), null);
        }
        return created;
    }

    /**
     * The name of a sequence or view to create, which Parallax makes permanent only:
     * {@code pg_temp.name} is 0A000 as TEMP is ({@code kinds}: "sequences" or "views").
     */
    String permanentRelationName(String kinds) {
        Token first = peek();
        RelationName created = relationName();
        if (created.schema() == RelationName.Schema.TEMPORARY) {
            throw new ParallaxException(dev.parallax.engine.error.SqlState.FEATURE_NOT_SUPPORTED,
                    "temporary " + kinds + " are not supported", null, null, first.position(), null);
        }
        return created.name();
    }

    /** {@code schema.name}, where {@code schemaToken} wrote the schema (see {@link RelationName#qualified}). */
    static RelationName qualified(Token schemaToken, String schema, String name) {
        return RelationName.qualified(schema, name, schemaToken.position());
    }

    /** Requires the end of the statement (an optional trailing semicolon is fine). */
    void expectEnd() {
        acceptSymbol(";");
        if (peek().kind() != TokenKind.END) {
            throw syntaxError(peek());
        }
    }

    /** PostgreSQL's {@code syntax error at or near "x"} or {@code syntax error at end of input}. */
    ParallaxException syntaxError(Token token) {
        if (token.kind() == TokenKind.END) {
            return SqlLexer.syntaxError("syntax error at end of input", token.start());
        }
        return SqlLexer.syntaxError("syntax error at or near \"" + sql.substring(token.start(), token.end()) + "\"", token.start());
    }
}
