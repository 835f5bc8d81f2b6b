package dev.parallax.planner.progress;

import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.RelationComment;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.index.OrderedIndex;

import java.util.ArrayList;
import java.util.List;

/**
 * The relations of the engine catalog as PostgreSQL's pg_class sees them, with their object
 * identifiers: user tables ({@code r}, partitioned {@code p}), views ({@code v}, the system views
 * in pg_catalog), indexes ({@code i}: CREATE INDEX and the indexes of PRIMARY KEY / UNIQUE
 * constraints; {@code I}: a partitioned table's constraint index). One listing serves the catalog
 * views and the catalog functions, so they agree on every OID.
 */
public final class CatalogRelations {
    /** pg_namespace OIDs, PostgreSQL's fixed ones for pg_catalog and public. */
    public static final long PG_CATALOG_NAMESPACE = 11;
    public static final long PUBLIC_NAMESPACE = 2200;
    public static final long INFORMATION_SCHEMA_NAMESPACE = 13207;
    /** pg_am OIDs: heap tables, btree (ordered) and hash indexes. */
    public static final long HEAP_ACCESS_METHOD = 2;
    public static final long BTREE_ACCESS_METHOD = 403;
    public static final long HASH_ACCESS_METHOD = 405;

    /**
     * A table, partition or view. {@code table} is null for a (user) view, {@code view} null
     * otherwise; {@code temporary} for a session's temporary table (pg_class.relpersistence {@code t}).
     */
    public record Relation(long oid, String name, long namespace, String schemaName, char kind, Table table, View view,
                           boolean temporary) {
    }

    /**
     * An index of {@code table}: its key columns (0-based table column indexes); for the index of a
     * constraint, the constraint's name and OID (0 otherwise). {@code accessMethod} is a pg_am OID;
     * {@code descendingKeys} flags the key columns CREATE INDEX declared DESC.
     */
    public record Index(long oid, String name, Table table, long tableOid, int[] keyColumns, boolean unique,
                       boolean primary, long constraintOid, long accessMethod, boolean partitioned, boolean[] descendingKeys) {
        public String accessMethodName() {
            return accessMethod == HASH_ACCESS_METHOD ? "hash" : "btree";
        }

        /**
         * PostgreSQL's pg_get_indexdef: {@code CREATE [UNIQUE] INDEX name ON public.table USING method (columns)};
         * the pretty form leaves out the schema of a table on the search path, as PostgreSQL does.
         */
        public String definition(boolean pretty) {
            return "CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + name + " ON " + (partitioned ? "ONLY " : "")
                    + (pretty ? "" : "public.") + table.name() + " USING " + accessMethodName() + " (" + columnList(true) + ")";
        }

        /** PostgreSQL's pg_get_constraintdef of the constraint: {@code PRIMARY KEY (a, b)} or {@code UNIQUE (a)}. */
        public String constraintDefinition() {
            return (primary ? "PRIMARY KEY" : "UNIQUE") + " (" + columnList(false) + ")";
        }

        /** The key columns' names, comma separated, each followed by DESC where it was declared so and {@code orders} asks. */
        public String columnList(boolean orders) {
            StringBuilder list = new StringBuilder();
            for (int position = 0; position < keyColumns.length; position++) {
                if (!list.isEmpty()) {
                    list.append(", ");
                }
                list.append(table.columns().get(keyColumns[position]).name());
                if (orders && descendingKeys[position]) {
                    list.append(" DESC");
                }
            }
            return list.toString();
        }
    }

    /** A CHECK constraint of table {@code table} (pg_constraint contype {@code c}). */
    public record Check(CheckConstraint constraint, Table table, long tableOid) {
        /** PostgreSQL's pg_get_constraintdef: {@code CHECK ((a > 0))}, or pretty {@code CHECK (a > 0)}. */
        public String definition(boolean pretty) {
            List<String> names = table.columns().stream().map(dev.parallax.engine.catalog.ColumnDefinition::name).toList();
            return pretty ? constraint.prettyDefinition(names) : constraint.definition(names);
        }

        /** The condition's text (pg_constraint.conbin, read by pg_get_expr): {@code (a > 0)}. */
        public String conditionText() {
            return constraint.conditionText(table.columns().stream().map(dev.parallax.engine.catalog.ColumnDefinition::name).toList());
        }

        /** The positions of the columns the condition reads, ascending (pg_constraint.conkey, from 0). */
        public int[] columns() {
            java.util.Set<Integer> read = new java.util.TreeSet<>();
            CheckConstraint.collectColumns(constraint.condition(), read);
            return read.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /**
     * A FOREIGN KEY constraint of table {@code tableOid} (pg_constraint contype {@code f}) referencing
     * {@code referencedOid} through the index {@code indexOid} of its referenced key.
     */
    public record ForeignKeyEntry(ForeignKey key, long tableOid, long referencedOid, long indexOid) {
    }

    /** A sequence (pg_class relkind {@code S}). */
    public record SequenceRelation(long oid, Sequence sequence) {
    }

    private final List<Relation> relations = new ArrayList<>();
    private final List<Index> indexes = new ArrayList<>();
    private final List<SequenceRelation> sequences = new ArrayList<>();
    private final List<Check> checks = new ArrayList<>();
    private final List<ForeignKeyEntry> foreignKeys = new ArrayList<>();
    /** The session's temporary schema, or 0 / null for the database's catalog and a session without temporary tables. */
    private final long temporaryNamespace;
    private final String temporarySchemaName;
    private final Catalog catalog;

    private CatalogRelations(Catalog catalog) {
        this.catalog = catalog;
        SessionCatalog session = catalog instanceof SessionCatalog own ? own : null;
        this.temporaryNamespace = session == null ? 0 : session.temporaryNamespaceOid();
        this.temporarySchemaName = temporaryNamespace == 0 ? null : session.temporarySchemaName();
    }

    /** The session's temporary schema's OID (pg_namespace), 0 when it has none. */
    public long temporaryNamespace() {
        return temporaryNamespace;
    }

    /** The session's temporary schema's name ({@code pg_temp_N}), null when it has none. */
    public String temporarySchemaName() {
        return temporarySchemaName;
    }

    /** The plain catalog that holds {@code table}'s names: the session's temporary one, else the database's. */
    private Catalog holder(Table table) {
        if (catalog instanceof SessionCatalog session) {
            return session.isTemporary(table) ? session.temporary() : session.shared();
        }
        return catalog;
    }

    /** The plain catalog that holds {@code sequence}: a temporary table's serial column's is the session's. */
    private Catalog holder(Sequence sequence) {
        if (catalog instanceof SessionCatalog session) {
            return session.temporary().findSequence(sequence.name()) == sequence ? session.temporary() : session.shared();
        }
        return catalog;
    }

    /** The pg_namespace OID of the schema {@code table} is in. */
    public long namespaceOf(Table table) {
        return table.isSystemView() ? PG_CATALOG_NAMESPACE : catalog.isTemporary(table) ? temporaryNamespace : PUBLIC_NAMESPACE;
    }

    /** The name of the schema {@code table} is in. */
    public String schemaNameOf(Table table) {
        return table.isSystemView() ? "pg_catalog" : catalog.isTemporary(table) ? temporarySchemaName : "public";
    }

    /** The pg_namespace OID of the schema {@code sequence} is in (a temporary table's serial column's is temporary too). */
    public long namespaceOf(Sequence sequence) {
        return catalog instanceof SessionCatalog session && holder(sequence) == session.temporary() ? temporaryNamespace : PUBLIC_NAMESPACE;
    }

    /** The relations and indexes of {@code catalog} now. */
    public static CatalogRelations of(Catalog catalog) {
        CatalogRelations listing = new CatalogRelations(catalog);
        for (Table table : catalog.tables()) {
            // A temporary table's names are its schema's: a permanent relation may have the same ones.
            Catalog names = listing.holder(table);
            long oid = names.relationOid(table.name());
            if (oid == 0) {
                continue; // dropped while listing
            }
            char kind = table.isSystemView() ? 'v' : table.isPartitioned() ? 'p' : 'r';
            listing.relations.add(new Relation(oid, table.name(), listing.namespaceOf(table), listing.schemaNameOf(table),
                    kind, table, null, catalog.isTemporary(table)));
            // A unique index of CREATE UNIQUE INDEX shows as PostgreSQL prints it (USING btree, as it was
            // asked for), though it is a hash map like a constraint's; it has no constraint (OID 0).
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                listing.indexes.add(new Index(names.relationOid(constraint.name()), constraint.name(), table, oid,
                        constraint.keyColumns(), true, constraint.primaryKey(), names.constraintOid(constraint.name()),
                        constraint.indexOnly() ? BTREE_ACCESS_METHOD : HASH_ACCESS_METHOD, false, new boolean[constraint.keyColumns().length]));
            }
            for (PartitionedConstraint constraint : table.partitionedConstraints()) {
                int[] keyColumns = constraint.columnNames().stream().mapToInt(table::columnIndex).toArray();
                listing.indexes.add(new Index(names.relationOid(constraint.name()), constraint.name(), table, oid,
                        keyColumns, true, constraint.primaryKey(), names.constraintOid(constraint.name()),
                        constraint.indexOnly() ? BTREE_ACCESS_METHOD : HASH_ACCESS_METHOD, true, new boolean[keyColumns.length]));
            }
            for (CheckConstraint constraint : table.checkConstraints()) {
                listing.checks.add(new Check(constraint, table, oid));
            }
            for (OrderedIndex index : table.indexes()) {
                listing.indexes.add(new Index(names.relationOid(index.name()), index.name(), table, oid,
                        index.keyColumns(), false, false, 0, BTREE_ACCESS_METHOD, false, index.descendingKeys()));
            }
            for (ForeignKey key : table.foreignKeys()) {
                Catalog referencedNames = listing.holder(key.referenced());
                listing.foreignKeys.add(new ForeignKeyEntry(key, oid, referencedNames.relationOid(key.referenced().name()),
                        referencedNames.relationOid(key.referencedKey().name())));
            }
        }
        for (View view : catalog.views()) {
            listing.relations.add(new Relation(catalog.relationOid(view.name()), view.name(), PUBLIC_NAMESPACE, "public", 'v', null,
                    view, false));
        }
        listing.indexes.removeIf(index -> index.oid() == 0);
        for (Sequence sequence : catalog.sequences()) {
            long oid = listing.holder(sequence).relationOid(sequence.name());
            if (oid != 0) {
                listing.sequences.add(new SequenceRelation(oid, sequence));
            }
        }
        return listing;
    }

    public List<SequenceRelation> sequences() {
        return sequences;
    }

    /**
     * A comment as pg_description holds it: on the relation {@code objectOid} itself
     * ({@code columnNumber} 0) or on its column of that number (pg_attribute.attnum).
     */
    public record Description(long objectOid, int columnNumber, String text) {
    }

    /** The comments on the relations listed (COMMENT ON), in OID and column order. */
    public List<Description> descriptions() {
        List<Description> descriptions = new ArrayList<>();
        for (RelationComment comment : catalog.comments()) {
            if (comment.columnName() == null) {
                descriptions.add(new Description(comment.relationOid(), 0, comment.text()));
                continue;
            }
            for (Relation relation : relations) {
                if (relation.oid() == comment.relationOid()) {
                    int index = relation.table() != null ? relation.table().columnIndex(comment.columnName())
                            : relation.view().columnNames().indexOf(comment.columnName());
                    if (index >= 0) {
                        descriptions.add(new Description(comment.relationOid(), index + 1, comment.text()));
                    }
                }
            }
        }
        descriptions.sort(java.util.Comparator.comparingLong(Description::objectOid).thenComparingInt(Description::columnNumber));
        return descriptions;
    }

    /** The CHECK constraints of the tables (a partition's inherited ones too, as PostgreSQL copies them). */
    public List<Check> checks() {
        return checks;
    }

    /** The FOREIGN KEY constraints of the tables. */
    public List<ForeignKeyEntry> foreignKeys() {
        return foreignKeys;
    }

    public List<Relation> relations() {
        return relations;
    }

    public List<Index> indexes() {
        return indexes;
    }

    /** The relation with {@code oid}, or null. */
    public Relation relation(long oid) {
        for (Relation relation : relations) {
            if (relation.oid() == oid) {
                return relation;
            }
        }
        return null;
    }
}
