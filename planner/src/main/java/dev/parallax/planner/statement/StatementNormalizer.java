package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;

import java.util.ArrayList;
import java.util.List;

/**
 * Auto-parameterization of a query's text: the integer and string constants whose type a parameter
 * in the same place would take from its context are replaced by {@code $1, $2, ...} (the
 * <em>shape</em>) and returned as values, so that statements differing only in those constants share
 * one plan. Constants whose value or spelling shapes the plan stay in the shape:
 * <ul>
 * <li>LIMIT / OFFSET / FETCH counts, everything in ORDER BY / GROUP BY (ordinal positions), and
 *     select and RETURNING lists (a constant there gives the result column its type);</li>
 * <li>typed literals ({@code date '...'}, {@code interval '1' day}, {@code U&'...'}, {@code B'...'})
 *     and constants cast with {@code ::} ({@code '1'::int});</li>
 * <li>arguments of function calls and type modifiers ({@code substr(v, 1, 3)}, {@code numeric(10, 2)}):
 *     only parentheses opened after an operator, a comma, another parenthesis, IN or VALUES are
 *     searched, so IN-lists of different lengths have different shapes;</li>
 * <li>decimals and exponents ({@code 1.5} is numeric with its scale), and all constants of a text that already has {@code $n} placeholders.</li>
 * </ul>
 * A minus sign directly before a number, where it cannot be a binary minus, becomes part of the
 * value. Whether the shape's plan may really be used for the values is for the caller to decide
 * (the parameter types inferred for the shape must accept each value as the constant would be).
 */
public final class StatementNormalizer {
    /** Keywords after which a constant stands where a parameter could (an operand). */
    private static final List<String> OPERAND_KEYWORDS = List.of("like", "ilike", "between", "and", "or", "not", "then", "else",
            "when", "is", "distinct", "from", "escape");
    /** Keywords that end a select list or an ORDER BY / GROUP BY list. */
    private static final List<String> LIST_END_KEYWORDS = List.of("limit", "offset", "fetch", "having", "window", "union",
            "intersect", "except", "for", "returning", "on", "where", "from", "group", "order", "into");

    private StatementNormalizer() {
    }

    /** A statement's shape and the constants taken out of it, in placeholder order. */
    public record Normalized(String shape, List<Constant> constants) {
        public Normalized {
            constants = List.copyOf(constants);
        }
    }

    /**
     * One constant taken out: an integer (as a Long) or the value of a string constant (quotes
     * removed, escapes applied).
     */
    public record Constant(Object value) {
        public boolean isInteger() {
            return value instanceof Long;
        }
    }

    /** The shape of {@code sql}, or null when nothing in it can be parameterized (or it does not lex). */
    public static Normalized normalize(String sql) {
        List<Token> tokens;
        try {
            tokens = SqlLexer.tokenize(sql);
        } catch (ParallaxException notLexable) {
            return null;
        }
        for (Token token : tokens) {
            if (token.kind() == TokenKind.SYMBOL && token.value().startsWith("$")) {
                return null;
            }
        }
        StringBuilder shape = new StringBuilder(sql.length());
        List<Constant> constants = new ArrayList<>();
        // Per open parenthesis: whether constants directly inside it may be parameterized.
        boolean[] searchable = new boolean[tokens.size() + 1];
        int depth = 0;
        searchable[0] = true;
        // The depth of the select list, RETURNING list or ORDER BY / GROUP BY list we are in, or -1.
        int listDepth = -1;
        int copiedUpTo = 0;
        for (int index = 0; index < tokens.size(); index++) {
            Token token = tokens.get(index);
            Token previous = index > 0 ? tokens.get(index - 1) : null;
            if (token.isSymbol("(")) {
                depth++;
                searchable[depth] = previous == null || opensOperandList(previous);
                continue;
            }
            if (token.isSymbol(")")) {
                if (depth > 0) {
                    depth--;
                }
                if (listDepth > depth) {
                    listDepth = -1;
                }
                continue;
            }
            if (token.isKeyword("by") && previous != null && (previous.isKeyword("order") || previous.isKeyword("group"))) {
                listDepth = depth;
                continue;
            }
            if (token.kind() == TokenKind.IDENTIFIER && LIST_END_KEYWORDS.contains(token.value()) && listDepth == depth) {
                listDepth = -1;
            }
            if (token.isKeyword("select") || token.isKeyword("returning")) {
                listDepth = depth;
                continue;
            }
            if (token.kind() != TokenKind.NUMBER && token.kind() != TokenKind.STRING) {
                continue;
            }
            Token next = tokens.get(index + 1);
            if (!searchable[depth] || listDepth >= 0 || next.isSymbol("::") || next.kind() == TokenKind.STRING
                    || previous == null || !standsForOperand(previous)) {
                continue;
            }
            int start = token.start();
            Object value;
            if (token.kind() == TokenKind.STRING) {
                value = token.value();
            } else {
                Long integer = integerValue(token.value());
                if (integer == null) {
                    continue;
                }
                value = integer;
                Token beforeMinus = index > 1 ? tokens.get(index - 2) : null;
                if (previous.isSymbol("-") && previous.end() == token.start() && beforeMinus != null && isUnaryContext(beforeMinus)) {
                    value = -integer;
                    start = previous.start();
                }
            }
            shape.append(sql, copiedUpTo, start).append('$').append(constants.size() + 1);
            copiedUpTo = token.end();
            constants.add(new Constant(value));
        }
        if (constants.isEmpty()) {
            return null;
        }
        shape.append(sql, copiedUpTo, sql.length());
        return new Normalized(shape.toString(), constants);
    }

    /** Whether a parenthesis after {@code token} groups operands (not a function's arguments or a type modifier). */
    private static boolean opensOperandList(Token token) {
        if (token.kind() == TokenKind.SYMBOL) {
            return !token.isSymbol(")") && !token.isSymbol("]");
        }
        return token.isKeyword("in") || token.isKeyword("values") || token.isKeyword("and") || token.isKeyword("or")
                || token.isKeyword("not") || token.isKeyword("where") || token.isKeyword("when") || token.isKeyword("then")
                || token.isKeyword("else");
    }

    /** Whether a constant right after {@code token} is an operand (not a typed literal's text, not a LIMIT count). */
    private static boolean standsForOperand(Token token) {
        if (token.kind() == TokenKind.SYMBOL) {
            // Not after '&' (U&'...'), nor after ')' / ']' (never an operand position without an operator).
            return !token.isSymbol("&") && !token.isSymbol(")") && !token.isSymbol("]") && !token.isSymbol(".")
                    && !token.isSymbol(";");
        }
        return token.kind() == TokenKind.IDENTIFIER && OPERAND_KEYWORDS.contains(token.value());
    }

    /** Whether a '-' after {@code token} is a sign (after an operator, '(' or ','), not a binary minus. */
    private static boolean isUnaryContext(Token token) {
        if (token.kind() == TokenKind.SYMBOL) {
            return !token.isSymbol(")") && !token.isSymbol("]");
        }
        return token.kind() == TokenKind.IDENTIFIER && OPERAND_KEYWORDS.contains(token.value());
    }

    /** A plain digit string that fits a long, else null (decimals and exponents stay in the shape). */
    private static Long integerValue(String text) {
        if (text.length() > 18) {
            return null;
        }
        for (int index = 0; index < text.length(); index++) {
            if (!Character.isDigit(text.charAt(index))) {
                return null;
            }
        }
        return Long.parseLong(text);
    }
}
