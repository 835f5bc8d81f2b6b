package dev.parallax.planner.statement;

import java.util.Objects;

/** SELECT, VALUES, INSERT and anything else not parsed here: the query planner's job. */
public record QueryStatement(String sql) implements Statement {
    public QueryStatement {
        Objects.requireNonNull(sql, "sql");
    }
}
