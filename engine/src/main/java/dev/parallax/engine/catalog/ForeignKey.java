package dev.parallax.engine.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A FOREIGN KEY constraint (MATCH SIMPLE or FULL, not deferrable): the columns of {@code referencing}
 * whose values, when none is NULL, must be a key of {@code referenced}'s PRIMARY KEY or UNIQUE
 * constraint {@link #referencedKey()} over {@code referencedColumns} (in the order written, paired
 * with {@code referencingColumns}). Both tables list it ({@link Table#foreignKeys()},
 * {@link Table#referencedBy()}); the catalog adds and removes it ({@link Catalog#addForeignKey}).
 *
 * <p>{@link #lock()} keeps its two sides apart: a statement that writes referencing values holds it
 * shared while it checks them against the referenced key's index and applies its rows, and a
 * statement that deletes or changes referenced keys holds it exclusively while it looks for the
 * referencing rows and applies. Without it a child inserted while its parent is deleted could pass
 * its check against the parent's still present key while the delete found no child yet: an orphan
 * (PostgreSQL takes a FOR KEY SHARE row lock on the parent row instead). Writers of tables that
 * take part in no foreign key never touch it.
 */
public final class ForeignKey {
    private final String name;
    private final long objectId;
    private final Table referencing;
    private final int[] referencingColumns;
    private final Table referenced;
    private final int[] referencedColumns;
    private final ReferentialAction onDelete;
    private final ReferentialAction onUpdate;
    /** MATCH FULL: the key's columns are all NULL or none is (MATCH SIMPLE, the default, skips a key with any NULL). */
    private final boolean matchFull;
    private final UniqueConstraint referencedKey;
    /** The referencing columns in the key order of {@link #referencedKey}: a referencing row's key as the index reads it. */
    private final int[] lookupColumns;
    private final ReentrantReadWriteLock lock;
    /** Per referencing column (in the order written), the value SET DEFAULT stores: its constant default, or null. */
    private final Object[] defaultValues;

    /**
     * @throws IllegalArgumentException when {@code referenced} has no PRIMARY KEY or UNIQUE
     *                                  constraint over exactly {@code referencedColumns} (the caller reports 42830)
     */
    public ForeignKey(String name, long objectId, Table referencing, int[] referencingColumns, Table referenced,
                      int[] referencedColumns, ReferentialAction onDelete, ReferentialAction onUpdate, boolean matchFull) {
        this(name, objectId, referencing, referencingColumns, referenced, referencedColumns, onDelete, onUpdate, matchFull,
                new ReentrantReadWriteLock(), new Object[referencingColumns.length]);
    }

    private ForeignKey(String name, long objectId, Table referencing, int[] referencingColumns, Table referenced,
                       int[] referencedColumns, ReferentialAction onDelete, ReferentialAction onUpdate, boolean matchFull,
                       ReentrantReadWriteLock lock, Object[] defaultValues) {
        this.name = Objects.requireNonNull(name, "name");
        this.objectId = objectId;
        this.referencing = Objects.requireNonNull(referencing, "referencing");
        this.referencingColumns = referencingColumns.clone();
        this.referenced = Objects.requireNonNull(referenced, "referenced");
        this.referencedColumns = referencedColumns.clone();
        this.onDelete = Objects.requireNonNull(onDelete, "onDelete");
        this.onUpdate = Objects.requireNonNull(onUpdate, "onUpdate");
        this.matchFull = matchFull;
        this.lock = lock;
        this.defaultValues = defaultValues.clone();
        if (referencingColumns.length != referencedColumns.length || referencingColumns.length == 0) {
            throw new IllegalArgumentException("foreign key " + name + " pairs " + referencingColumns.length + " columns with "
                    + referencedColumns.length);
        }
        this.referencedKey = keyOver(referenced, referencedColumns);
        if (referencedKey == null) {
            throw new IllegalArgumentException("no unique constraint matching given keys for referenced table \"" + referenced.name() + "\"");
        }
        int[] keyColumns = referencedKey.keyColumns();
        this.lookupColumns = new int[keyColumns.length];
        for (int key = 0; key < keyColumns.length; key++) {
            for (int pair = 0; pair < referencedColumns.length; pair++) {
                if (referencedColumns[pair] == keyColumns[key]) {
                    lookupColumns[key] = referencingColumns[pair];
                }
            }
        }
    }

    /**
     * The PRIMARY KEY or UNIQUE constraint (not a mere unique index, as PostgreSQL 15 also accepts,
     * but then pg_dump's order still has the constraint) of {@code table} whose key columns are
     * {@code columns} in any order, the primary key first; null when none is.
     */
    public static UniqueConstraint keyOver(Table table, int[] columns) {
        int[] sorted = columns.clone();
        Arrays.sort(sorted);
        UniqueConstraint found = null;
        for (UniqueConstraint constraint : table.uniqueConstraints()) {
            int[] key = constraint.keyColumns();
            Arrays.sort(key);
            if (Arrays.equals(key, sorted) && (found == null || constraint.primaryKey())) {
                found = constraint;
            }
        }
        return found;
    }

    /** This key over other tables (a rewritten one's replacement), with other column positions; the same lock. */
    public ForeignKey rebound(Table newReferencing, int[] newReferencingColumns, Table newReferenced, int[] newReferencedColumns) {
        return new ForeignKey(name, objectId, newReferencing, newReferencingColumns, newReferenced, newReferencedColumns,
                onDelete, onUpdate, matchFull, lock, defaultValues);
    }

    /**
     * This key with the values SET DEFAULT stores, per referencing column in the order written
     * (its default's constant value, or null for none): the caller evaluated them when the key was declared.
     */
    public ForeignKey withDefaultValues(Object[] values) {
        return new ForeignKey(name, objectId, referencing, referencingColumns, referenced, referencedColumns, onDelete, onUpdate,
                matchFull, lock, values);
    }

    /** The value SET DEFAULT stores in referencing column {@code index} (in the order written), or null. */
    public Object defaultValue(int index) {
        return defaultValues[index];
    }

    public String name() {
        return name;
    }

    /** Its pg_constraint.oid. */
    public long objectId() {
        return objectId;
    }

    public Table referencing() {
        return referencing;
    }

    /** The referencing columns in the order written (a copy). */
    public int[] referencingColumns() {
        return referencingColumns.clone();
    }

    public Table referenced() {
        return referenced;
    }

    /** The referenced columns in the order written (a copy). */
    public int[] referencedColumns() {
        return referencedColumns.clone();
    }

    public ReferentialAction onDelete() {
        return onDelete;
    }

    public ReferentialAction onUpdate() {
        return onUpdate;
    }

    /** MATCH FULL (pg_constraint.confmatchtype {@code f}), else MATCH SIMPLE ({@code s}). */
    public boolean matchFull() {
        return matchFull;
    }

    /** The referenced table's constraint whose index finds a referencing row's parent. */
    public UniqueConstraint referencedKey() {
        return referencedKey;
    }

    /** The referencing columns in {@link #referencedKey()}'s key order (not to be changed). */
    public int[] lookupColumns() {
        return lookupColumns;
    }

    public ReentrantReadWriteLock lock() {
        return lock;
    }

    /** Whether {@code column} of the referencing table is one of the key's columns. */
    public boolean isReferencingColumn(int column) {
        return contains(referencingColumns, column);
    }

    /** Whether {@code column} of the referenced table is one of the referenced columns. */
    public boolean isReferencedColumn(int column) {
        return contains(referencedColumns, column);
    }

    private static boolean contains(int[] columns, int column) {
        for (int own : columns) {
            if (own == column) {
                return true;
            }
        }
        return false;
    }

    /** PostgreSQL's {@code pg_get_constraintdef}: {@code FOREIGN KEY (a, b) REFERENCES p(x, y) ON UPDATE CASCADE ON DELETE SET NULL}. */
    public String definition() {
        StringBuilder text = new StringBuilder("FOREIGN KEY (");
        appendColumns(text, referencing.columns(), referencingColumns);
        text.append(") REFERENCES ").append(referenced.name()).append('(');
        appendColumns(text, referenced.columns(), referencedColumns);
        text.append(')');
        if (matchFull) {
            text.append(" MATCH FULL");
        }
        if (onUpdate != ReferentialAction.NO_ACTION) {
            text.append(" ON UPDATE ").append(onUpdate.text());
        }
        if (onDelete != ReferentialAction.NO_ACTION) {
            text.append(" ON DELETE ").append(onDelete.text());
        }
        return text.toString();
    }

    /** The referencing column names in order, as {@code a, b}. */
    public String referencingColumnNames() {
        StringBuilder text = new StringBuilder();
        appendColumns(text, referencing.columns(), referencingColumns);
        return text.toString();
    }

    /** The referenced column names in order, as {@code x, y}. */
    public String referencedColumnNames() {
        StringBuilder text = new StringBuilder();
        appendColumns(text, referenced.columns(), referencedColumns);
        return text.toString();
    }

    private static void appendColumns(StringBuilder text, List<ColumnDefinition> columns, int[] positions) {
        for (int index = 0; index < positions.length; index++) {
            if (index > 0) {
                text.append(", ");
            }
            text.append(quoteIfNeeded(columns.get(positions[index]).name()));
        }
    }

    /** A name as PostgreSQL's quote_ident prints it in a definition: bare when lower-case letters, digits and underscores. */
    private static String quoteIfNeeded(String name) {
        return name.matches("[a-z_][a-z0-9_$]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String toString() {
        return name + " " + definition();
    }
}
