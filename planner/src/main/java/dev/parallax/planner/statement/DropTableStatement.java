package dev.parallax.planner.statement;

import java.util.List;
import java.util.Set;

/**
 * {@code DROP TABLE [IF EXISTS] name [, ...] [CASCADE | RESTRICT]} ({@code cascade}: also drop the foreign keys that reference them); {@code publicNames} are those written
 * {@code public.name}, which a session's temporary table of the name does not hide.
 */
public record DropTableStatement(List<String> tableNames, boolean ifExists, Set<String> publicNames, boolean cascade)
        implements Statement {
    public DropTableStatement {
        tableNames = List.copyOf(tableNames);
        publicNames = Set.copyOf(publicNames);
    }

    /** Names without a schema, RESTRICT. */
    public DropTableStatement(List<String> tableNames, boolean ifExists) {
        this(tableNames, ifExists, Set.of(), false);
    }
}
