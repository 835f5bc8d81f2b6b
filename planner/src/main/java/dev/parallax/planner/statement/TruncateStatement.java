package dev.parallax.planner.statement;

import java.util.List;

/**
 * {@code TRUNCATE [TABLE] [ONLY] name [*] [, ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]}.
 * No table references another (there are no foreign keys), so CASCADE and RESTRICT behave alike.
 */
public record TruncateStatement(List<Target> targets, boolean restartIdentity) implements Statement {
    public TruncateStatement {
        targets = List.copyOf(targets);
    }

    /**
     * One named table; {@code only} when written with ONLY (its partitions are then not truncated);
     * {@code publicName} when written {@code public.name}, which a session's temporary table of the name does not hide.
     */
    public record Target(String tableName, boolean only, boolean publicName) {
        public Target(String tableName, boolean only) {
            this(tableName, only, false);
        }
    }
}
