package dev.parallax.planner.statement;

import java.util.Objects;

/**
 * A CHECK constraint as written in CREATE TABLE (on a column or as a table constraint) or ALTER
 * TABLE ... ADD: its name ({@code CONSTRAINT name}, or null for the name PostgreSQL chooses) and the
 * condition's text between the parentheses, planned against the table's columns when the statement
 * runs; {@code textOffset} is where that text starts in the statement (0-based), for error positions.
 */
public record CheckClause(String name, String expressionText, int textOffset) {
    public CheckClause {
        Objects.requireNonNull(expressionText, "expressionText");
    }
}
