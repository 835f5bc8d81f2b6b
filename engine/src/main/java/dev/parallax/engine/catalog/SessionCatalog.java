package dev.parallax.engine.catalog;

import dev.parallax.engine.index.OrderedIndex;
import dev.parallax.engine.sequence.Sequence;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The catalog as one session sees it: its temporary relations (PostgreSQL's {@code pg_temp_N}
 * schema: CREATE TEMP TABLE, their key indexes, the sequences of their serial columns, CREATE
 * INDEX on them) in front of the database's catalog, which every session shares. A name is looked
 * up among the temporary relations first, as PostgreSQL searches pg_temp before any other schema,
 * so a temporary table hides a permanent one of the same name in this session only; other sessions
 * neither see it nor are kept from making their own. The temporary relations share the database's
 * object identifiers but not its names: a temporary table {@code t} and its {@code t_pkey} may
 * exist beside a permanent {@code t} and {@code t_pkey}.
 *
 * <p>Creating goes to the database's catalog ({@link #addTable}, {@link #addSequence},
 * {@link #addView}) unless the caller adds to {@link #temporary()} itself; an index goes where its
 * table is. Dropping, renaming and replacing act on the relation the name finds. Thread-safe as
 * the catalog is, though only the owning session's threads use its temporary relations.
 */
public final class SessionCatalog extends Catalog {
    /**
     * Temporary changes count in {@link #version()} above this bit, shared ones below: a version
     * that includes temporary changes never equals one of the database's (whose versions stay
     * below 2^40, a trillion DDL statements), so a plan checked against either stays honest.
     */
    private static final int TEMPORARY_VERSION_SHIFT = 40;

    private final Catalog shared;
    private final Catalog temporary;
    private final String temporarySchemaName;
    /** pg_namespace's OID of the temporary schema: 0 until the session's first temporary table, as PostgreSQL makes it then. */
    private volatile long temporaryNamespaceOid;

    /**
     * @param shared    the database's catalog
     * @param sessionId the session's number: the temporary schema is {@code pg_temp_<sessionId>}
     */
    public SessionCatalog(Catalog shared, int sessionId) {
        super(Objects.requireNonNull(shared, "shared"));
        if (shared instanceof SessionCatalog) {
            throw new IllegalArgumentException("a session catalog stands over the database's catalog");
        }
        this.shared = shared;
        this.temporary = new Catalog(shared);
        this.temporarySchemaName = "pg_temp_" + sessionId;
    }

    /** The database's catalog, shared by every session. */
    public Catalog shared() {
        return shared;
    }

    /** This session's temporary relations only: where CREATE TEMP TABLE adds its table, sequences and keys. */
    public Catalog temporary() {
        return temporary;
    }

    /** The name of this session's temporary schema, as pg_namespace and \d show it. */
    public String temporarySchemaName() {
        return temporarySchemaName;
    }

    /**
     * The temporary schema's pg_namespace OID once the session has made a temporary table (it
     * stays, as PostgreSQL keeps a backend's pg_temp_N schema); 0 before.
     */
    public long temporaryNamespaceOid() {
        if (temporaryNamespaceOid == 0 && temporary.version() > 0) {
            synchronized (this) {
                if (temporaryNamespaceOid == 0) {
                    temporaryNamespaceOid = shared.allocateObjectId();
                }
            }
        }
        return temporaryNamespaceOid;
    }

    @Override
    public boolean isTemporary(Table table) {
        return temporary.findTable(table.name()) == table;
    }

    /** Whether this session has a temporary table now. */
    public boolean hasTemporaryTables() {
        return temporary.hasTables();
    }

    /** This session's temporary tables (with partitions), by name. */
    public List<Table> temporaryTables() {
        return temporary.tables();
    }

    /**
     * Drops every temporary table (with its partitions, keys, indexes and sequences) and frees its
     * memory: the session ends. Each statement that read them has finished by then.
     */
    public void dropTemporaryTables() {
        for (Table table : temporary.tables()) {
            if (table.parent() == null || !isTemporary(table.parent())) {
                temporary.dropTable(table.name());
            }
        }
    }

    @Override
    public long allocateObjectId() {
        return shared.allocateObjectId();
    }

    @Override
    public void addTable(Table table) {
        shared.addTable(table);
    }

    @Override
    public void addIndex(OrderedIndex index) {
        (isTemporary(index.table()) ? temporary : shared).addIndex(index);
    }

    @Override
    public Table findKeyTable(String name) {
        Table table = temporary.findKeyTable(name);
        return table != null ? table : shared.findKeyTable(name);
    }

    @Override
    public OrderedIndex findIndex(String name) {
        OrderedIndex index = temporary.findIndex(name);
        return index != null ? index : shared.findIndex(name);
    }

    @Override
    public boolean relationExists(String name) {
        return temporary.relationExists(name) || shared.relationExists(name);
    }

    @Override
    public void addSequence(Sequence sequence) {
        shared.addSequence(sequence);
    }

    @Override
    public Sequence findSequence(String name) {
        Sequence sequence = temporary.findSequence(name);
        return sequence != null ? sequence : shared.findSequence(name);
    }

    @Override
    public Sequence sequence(String name) {
        return (temporary.relationExists(name) ? temporary : shared).sequence(name);
    }

    @Override
    public Sequence sequence(long oid) {
        return (temporary.relationName(oid) != null ? temporary : shared).sequence(oid);
    }

    @Override
    String relationName(long oid) {
        String name = temporary.relationName(oid);
        return name != null ? name : shared.relationName(oid);
    }

    @Override
    public boolean dropSequence(String name) {
        return temporary.dropSequence(name) || shared.dropSequence(name);
    }

    @Override
    public List<Sequence> sequences() {
        return merged(temporary.sequences(), shared.sequences(), Comparator.comparing(Sequence::name));
    }

    @Override
    public void addView(View view, boolean replace) {
        shared.addView(view, replace);
    }

    @Override
    public View findView(String name) {
        return temporary.relationExists(name) ? null : shared.findView(name);
    }

    @Override
    public boolean dropView(String name) {
        return shared.dropView(name);
    }

    @Override
    public List<View> views() {
        return shared.views();
    }

    @Override
    public boolean dropIndex(String name) {
        return temporary.dropIndex(name) || shared.dropIndex(name);
    }

    @Override
    public void renameRelation(String name, String newName) {
        (temporary.findTable(name) != null ? temporary : shared).renameRelation(name, newName);
    }

    @Override
    public void renameColumn(Table table, int column, String newName) {
        (isTemporary(table) ? temporary : shared).renameColumn(table, column, newName);
    }

    @Override
    public void replaceTable(Table table, Table replacement, List<OrderedIndex> indexes) {
        (isTemporary(table) ? temporary : shared).replaceTable(table, replacement, indexes);
    }

    @Override
    public void addForeignKey(ForeignKey key) {
        (isTemporary(key.referencing()) ? temporary : shared).addForeignKey(key);
    }

    @Override
    public void dropForeignKey(ForeignKey key) {
        (isTemporary(key.referencing()) ? temporary : shared).dropForeignKey(key);
    }

    @Override
    public Table findTable(String name) {
        Table table = temporary.findTable(name);
        return table != null ? table : shared.findTable(name);
    }

    @Override
    public Table table(String name) {
        Table table = temporary.findTable(name);
        return table != null ? table : shared.table(name);
    }

    @Override
    public boolean dropTable(String name) {
        return temporary.findTable(name) != null ? temporary.dropTable(name) : shared.dropTable(name);
    }

    @Override
    public void setComment(long relationOid, String columnName, String text) {
        (temporary.relationName(relationOid) != null ? temporary : shared).setComment(relationOid, columnName, text);
    }

    @Override
    public List<RelationComment> comments() {
        return merged(temporary.comments(), shared.comments(), Comparator.comparingLong(RelationComment::relationOid));
    }

    @Override
    public long relationOid(String name) {
        long oid = temporary.relationOid(name);
        return oid != 0 ? oid : shared.relationOid(name);
    }

    @Override
    public long constraintOid(String name) {
        long oid = temporary.constraintOid(name);
        return oid != 0 ? oid : shared.constraintOid(name);
    }

    @Override
    public void touch() {
        shared.touch();
    }

    /** Every table this session sees: its temporary ones and the database's, by name (a temporary one first). */
    @Override
    public List<Table> tables() {
        return merged(temporary.tables(), shared.tables(), Comparator.comparing(Table::name));
    }

    @Override
    public long version() {
        long temporaryVersion = temporary.version();
        return temporaryVersion == 0 ? shared.version() : (temporaryVersion << TEMPORARY_VERSION_SHIFT) + shared.version();
    }

    private static <T> List<T> merged(List<T> first, List<T> second, Comparator<T> order) {
        if (first.isEmpty()) {
            return second;
        }
        List<T> all = new ArrayList<>(first.size() + second.size());
        all.addAll(first);
        all.addAll(second);
        // Stable: of two with one name, the temporary one stays first.
        all.sort(order);
        return all;
    }
}
