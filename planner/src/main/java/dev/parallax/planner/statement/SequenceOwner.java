package dev.parallax.planner.statement;

/**
 * {@code OWNED BY table.column} of CREATE / ALTER SEQUENCE: the sequence goes with that column (it is
 * dropped with its table, restarted by TRUNCATE ... RESTART IDENTITY); {@link #NONE} ({@code OWNED BY
 * NONE}) makes it free again.
 */
public record SequenceOwner(RelationName tableName, String columnName) {
    public static final SequenceOwner NONE = new SequenceOwner(null, null);

    public boolean none() {
        return tableName == null;
    }
}
