package dev.parallax.planner.statement;

/** Kinds of tokens the utility-statement lexer produces. */
public enum TokenKind {
    /** A name or keyword; unquoted ones are folded to lower case, as PostgreSQL does. */
    IDENTIFIER,
    /** A double-quoted identifier, case kept. */
    QUOTED_IDENTIFIER,
    /** A string constant ({@code '...'}, {@code E'...'}, {@code $$...$$}); the text is its value. */
    STRING,
    /** An integer or decimal number constant, as written. */
    NUMBER,
    /** Punctuation or an operator: {@code ( ) , ; . = => :=} and other operator characters. */
    SYMBOL,
    /** End of the statement text. */
    END
}
