package dev.parallax.planner.statement;

import dev.parallax.engine.load.CopyFormat;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Collects COPY options in both PostgreSQL syntaxes, {@code WITH (FORMAT csv, DELIMITER '|', HEADER)}
 * and the older {@code WITH DELIMITER '|' CSV HEADER}, and checks them as PostgreSQL's
 * ProcessCopyOptions does.
 */
final class CopyOptionsParser {
    private final TokenCursor cursor;
    private final Set<String> seen = new HashSet<>();
    private CopyFormat.Kind format = CopyFormat.Kind.TEXT;
    private Character delimiter;
    private boolean header;
    private String nullString;
    private Character quote;
    private Character escape;

    CopyOptionsParser(TokenCursor cursor) {
        this.cursor = cursor;
    }

    /** One option of the parenthesized list; the option name was just read. */
    void option(String name) {
        Token nameToken = cursor.peek();
        if (!seen.add(name)) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "conflicting or redundant options", null, null, nameToken.position(), null);
        }
        Token valueToken = cursor.peek();
        boolean hasValue = !valueToken.isSymbol(",") && !valueToken.isSymbol(")");
        String value = hasValue ? value() : null;
        switch (name) {
            case "format" -> format = format(value, valueToken);
            case "delimiter" -> delimiter = singleCharacter("COPY delimiter", requireValue(name, value, valueToken));
            case "null" -> nullString = requireValue(name, value, valueToken);
            case "header" -> header = value == null || bool(name, value, valueToken);
            case "quote" -> quote = singleCharacter("COPY quote", requireValue(name, value, valueToken));
            case "escape" -> escape = singleCharacter("COPY escape", requireValue(name, value, valueToken));
            case "encoding" -> {
                String encoding = requireValue(name, value, valueToken).toLowerCase(Locale.ROOT).replace("-", "");
                if (!encoding.equals("utf8") && !encoding.equals("unicode")) {
                    throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                            "COPY encoding \"" + value + "\" is not supported", null, "Parallax reads files as UTF8.", valueToken.position(), null);
                }
            }
            // Parallax has no transactions whose visibility FREEZE would change.
            case "freeze" -> bool(name, value == null ? "true" : value, valueToken);
            default -> throw new ParallaxException(SqlState.SYNTAX_ERROR, "option \"" + name + "\" not recognized",
                    null, null, nameToken.position(), null);
        }
    }

    /** The old option syntax: {@code [WITH] [BINARY] [DELIMITER [AS] 'c'] [NULL [AS] 's'] [CSV [HEADER] [QUOTE [AS] 'c'] [ESCAPE [AS] 'c']]}. */
    void legacy(boolean withWritten) {
        while (!cursor.atEnd()) {
            Token token = cursor.next();
            String keyword = token.kind() == TokenKind.IDENTIFIER ? token.value() : "";
            switch (keyword) {
                case "binary" -> format = format("binary", token);
                case "csv" -> format = CopyFormat.Kind.CSV;
                case "header" -> header = true;
                case "delimiter" -> delimiter = singleCharacter("COPY delimiter", legacyString());
                case "null" -> nullString = legacyString();
                case "quote" -> quote = singleCharacter("COPY quote", legacyString());
                case "escape" -> escape = singleCharacter("COPY escape", legacyString());
                default -> throw cursor.syntaxError(token);
            }
        }
    }

    CopyFormat build() {
        CopyFormat defaults = format == CopyFormat.Kind.CSV ? CopyFormat.csv() : CopyFormat.text();
        if (format == CopyFormat.Kind.TEXT && quote != null) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "COPY quote available only in CSV mode");
        }
        if (format == CopyFormat.Kind.TEXT && escape != null) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "COPY escape available only in CSV mode");
        }
        char resolvedDelimiter = delimiter != null ? delimiter : defaults.delimiter();
        if (resolvedDelimiter == '\r' || resolvedDelimiter == '\n') {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "COPY delimiter cannot be newline or carriage return");
        }
        String resolvedNull = nullString != null ? nullString : defaults.nullString();
        if (resolvedNull.indexOf('\r') >= 0 || resolvedNull.indexOf('\n') >= 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "COPY null representation cannot use newline or carriage return");
        }
        if (format == CopyFormat.Kind.TEXT && "\\.abcdefghijklmnopqrstuvwxyz0123456789".indexOf(resolvedDelimiter) >= 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "COPY delimiter cannot be \"" + resolvedDelimiter + "\"");
        }
        char resolvedQuote = quote != null ? quote : defaults.quote();
        if (format == CopyFormat.Kind.CSV && resolvedQuote == resolvedDelimiter) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "COPY delimiter and quote must be different");
        }
        if (format == CopyFormat.Kind.CSV && resolvedNull.indexOf(resolvedDelimiter) >= 0) {
            throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, "COPY delimiter character must not appear in the NULL specification");
        }
        return new CopyFormat(format, resolvedDelimiter, header, resolvedNull, resolvedQuote,
                escape != null ? escape : resolvedQuote);
    }

    private String value() {
        Token token = cursor.peek();
        if (token.kind() == TokenKind.STRING || token.isName() || token.kind() == TokenKind.NUMBER) {
            cursor.next();
            return token.value();
        }
        throw cursor.syntaxError(token);
    }

    private String legacyString() {
        cursor.accept("as");
        Token token = cursor.peek();
        if (token.kind() != TokenKind.STRING) {
            throw cursor.syntaxError(token);
        }
        cursor.next();
        return token.value();
    }

    private static String requireValue(String name, String value, Token at) {
        if (value == null) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, name + " requires a parameter", null, null, at.position(), null);
        }
        return value;
    }

    private static CopyFormat.Kind format(String value, Token at) {
        String name = value == null ? "" : value.toLowerCase(Locale.ROOT);
        return switch (name) {
            case "text" -> CopyFormat.Kind.TEXT;
            case "csv" -> CopyFormat.Kind.CSV;
            case "binary" -> throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "COPY format \"binary\" is not supported", null, null, at.position(), null);
            default -> throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "COPY format \"" + value + "\" not recognized", null, null, at.position(), null);
        };
    }

    private static boolean bool(String name, String value, Token at) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "on", "1", "yes" -> true;
            case "false", "off", "0", "no" -> false;
            default -> throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    name + " requires a Boolean value", null, null, at.position(), null);
        };
    }

    private static char singleCharacter(String what, String value) {
        if (value.length() != 1 || value.charAt(0) > 127) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, what + " must be a single one-byte character");
        }
        return value.charAt(0);
    }
}
