package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]}.
 * With {@code cascade}, the tables that reference a truncated one by a foreign key are truncated too.
 */
public record TruncateStatement(List<Target> targets, boolean restartIdentity, boolean cascade) implements Statement {
    public TruncateStatement {
        targets = List.copyOf(targets);
    }

    /** RESTRICT. */
    public TruncateStatement(List<Target> targets, boolean restartIdentity) {
        this(targets, restartIdentity, false);
    }

    /** One named table; {@code only} when written with ONLY (its partitions are then not truncated). */
    public record Target(RelationName tableName, boolean only) {
    }
}
