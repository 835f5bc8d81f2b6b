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

    /** A table name, optionally qualified by the {@code public} schema (the only one there is). */
    /** Whether the name ahead is written {@code public.name} (call before {@link #tableName()}). */
    boolean namesPublicSchema() {
        return peek().isName() && peek().value().equals("public") && peek(1).isSymbol(".");
    }

    String tableName() {
        Token first = peek();
        String name = name();
        if (acceptSymbol(".")) {
            if (!name.equals("public")) {
                throw new ParallaxException(dev.parallax.engine.error.SqlState.FEATURE_NOT_SUPPORTED,
                        "schema \"" + name + "\" does not exist", null,
                        "Parallax has only the schema \"public\".", first.position(), null);
            }
            return name();
        }
        return name;
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
