package dev.parallax.planner.statement;

import dev.parallax.engine.type.DataType;

import java.util.List;
import java.util.Objects;

/**
 * {@code PREPARE name [(type [, ...])] AS statement}: {@code name} folded like an identifier,
 * the declared parameter types with the text each was written as (a cast to it is spelled with
 * that text), and the statement with where it starts in the PREPARE text, so that errors in it
 * point at the right character.
 */
public record PrepareStatement(String name, List<DataType> parameterTypes, List<String> parameterTypeTexts,
                               String query, int queryOffset) implements Statement {
    public PrepareStatement {
        Objects.requireNonNull(name, "name");
        parameterTypes = List.copyOf(parameterTypes);
        parameterTypeTexts = List.copyOf(parameterTypeTexts);
        Objects.requireNonNull(query, "query");
    }

    /**
     * The query with each {@code $n} that has a declared type written as a cast to that type
     * ({@code CAST($n AS type)}), for a planner that cannot type the parameter from its context.
     */
    public String queryWithCasts() {
        StringBuilder text = new StringBuilder();
        int copied = 0;
        for (Token token : SqlLexer.tokenize(query)) {
            if (token.kind() != TokenKind.SYMBOL || token.value().length() < 2 || token.value().charAt(0) != '$') {
                continue;
            }
            String digits = token.value().substring(1);
            if (digits.length() > 9 || Integer.parseInt(digits) > parameterTypes.size()) {
                continue;
            }
            text.append(query, copied, token.start()).append("CAST(").append(token.value()).append(" AS ")
                    .append(parameterTypeTexts.get(Integer.parseInt(digits) - 1)).append(')');
            copied = token.end();
        }
        return text.append(query, copied, query.length()).toString();
    }
}
