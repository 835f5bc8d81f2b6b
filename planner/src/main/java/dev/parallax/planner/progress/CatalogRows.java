package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ForeignKey;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PostgresType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The rows of the pg_catalog views over relations (column order as in {@link PgCatalogViews}). */
final class CatalogRows {
    private static final DataType INT2VECTOR = DataType.vector(DataType.SMALLINT);
    private static final DataType SMALLINT_ARRAY = DataType.array(DataType.SMALLINT);
    private static final DataType TEXT_ARRAY = DataType.array(DataType.TEXT);

    private CatalogRows() {
    }

    static List<Object[]> classes(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Relation relation : listing.relations()) {
            Table table = relation.table();
            boolean view = relation.kind() == 'v';
            boolean partitioned = relation.kind() == 'p';
            boolean hasIndex = table != null && (!table.indexes().isEmpty() || !table.uniqueConstraints().isEmpty()
                    || !table.partitionedConstraints().isEmpty());
            int columns = table != null ? table.columns().size() : relation.view().columnNames().size();
            boolean partition = table != null && table.parent() != null;
            byte[] options = table != null ? options(table) : null;
            rows.add(new Object[] {relation.oid(), relation.name(), relation.namespace(), 0L, 0L, PgCatalogViews.SUPERUSER_OID,
                    view || partitioned ? 0L : CatalogRelations.HEAP_ACCESS_METHOD, view || partitioned ? 0L : relation.oid(), 0L,
                    pages(relation), tuples(relation), 0, 0L, hasIndex, false, relation.temporary() ? "t" : "p",
                    String.valueOf(relation.kind()), columns, table != null ? table.checkConstraints().size() : 0, false, false,
                    partitioned, false, false, true, view ? "n" : "d",
                    partition, 0L, null, options, partition ? table.partitionBound().text() : null});
        }
        for (CatalogRelations.Index index : listing.indexes()) {
            long namespace = listing.namespaceOf(index.table());
            rows.add(new Object[] {index.oid(), index.name(), namespace, 0L, 0L,
                    PgCatalogViews.SUPERUSER_OID, index.accessMethod(), index.partitioned() ? 0L : index.oid(), 0L, 0, -1.0, 0, 0L,
                    false, false, persistence(namespace), index.partitioned() ? "I" : "i", index.keyColumns().length, 0, false, false,
                    false, false, false, true, "n", false, 0L, null, null, null});
        }
        for (CatalogRelations.SequenceRelation sequence : listing.sequences()) {
            long namespace = listing.namespaceOf(sequence.sequence());
            rows.add(new Object[] {sequence.oid(), sequence.sequence().name(), namespace, 0L, 0L,
                    PgCatalogViews.SUPERUSER_OID, 0L, sequence.oid(), 0L, 1, 1.0, 0, 0L, false, false,
                    persistence(namespace), "S", 3, 0, false, false,
                    false, false, false, true, "n", false, 0L, null, null, null});
        }
        return rows;
    }

    /** pg_class.relpersistence of a relation in {@code namespace}: {@code t} for a session's temporary schema. */
    private static String persistence(long namespace) {
        return namespace == CatalogRelations.PUBLIC_NAMESPACE || namespace == CatalogRelations.PG_CATALOG_NAMESPACE ? "p" : "t";
    }

    /** pg_class's own OID: pg_description.classoid of a comment on a relation or its column. */
    static final long PG_CLASS_OID = 1259;

    /** pg_description: the comments on relations and their columns (COMMENT ON). */
    static List<Object[]> descriptions(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Description description : listing.descriptions()) {
            rows.add(new Object[] {description.objectOid(), PG_CLASS_OID, description.columnNumber(), description.text()});
        }
        return rows;
    }

    /** pg_sequences: each sequence's definition and last value (NULL before its first nextval). */
    static List<Object[]> sequences(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.SequenceRelation relation : listing.sequences()) {
            dev.parallax.engine.sequence.Sequence sequence = relation.sequence();
            dev.parallax.engine.sequence.SequenceOptions options = sequence.options();
            String schema = listing.namespaceOf(sequence) == CatalogRelations.PUBLIC_NAMESPACE ? "public" : listing.temporarySchemaName();
            rows.add(new Object[] {schema, sequence.name(), PgCatalogViews.OWNER, options.type().sqlName(), options.start(),
                    options.minValue(), options.maxValue(), options.increment(), options.cycle(), options.cache(),
                    sequence.lastValueOrNull()});
        }
        return rows;
    }

    /**
     * reloptions: PostgreSQL's {@code name=value} entries of the table's storage parameters (the
     * ones ALTER TABLE ... SET (...) set), or NULL when none is set.
     */
    private static byte[] options(Table table) {
        if (table.storageParameters().isEmpty()) {
            return null;
        }
        ArrayValue.Builder options = new ArrayValue.Builder(TEXT_ARRAY);
        for (String entry : table.storageParameters().entries()) {
            options.add(entry.getBytes(StandardCharsets.UTF_8));
        }
        return options.build(1);
    }

    /**
     * relpages: the table's pages now (PostgreSQL's figure is from the last VACUUM or ANALYZE;
     * Parallax knows the current one, and vacuumdb orders tables by it). Views and partitioned
     * tables hold no pages of their own.
     */
    private static int pages(CatalogRelations.Relation relation) {
        if (relation.kind() != 'r') {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, relation.table().storage().pageCount());
    }

    /** reltuples: the table's live rows now; -1 (PostgreSQL's "unknown") for views and partitioned tables. */
    private static double tuples(CatalogRelations.Relation relation) {
        return relation.kind() == 'r' ? (double) relation.table().storage().rowCount() : -1.0;
    }

    static List<Object[]> attributes(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Relation relation : listing.relations()) {
            List<ColumnDefinition> columns = relation.table() != null ? relation.table().columns() : relation.view().columns();
            for (int index = 0; index < columns.size(); index++) {
                rows.add(attribute(relation.oid(), columns.get(index), index + 1, columns.get(index).defaultValue()));
            }
        }
        for (CatalogRelations.Index index : listing.indexes()) {
            int[] keyColumns = index.keyColumns();
            for (int key = 0; key < keyColumns.length; key++) {
                rows.add(attribute(index.oid(), index.table().columns().get(keyColumns[key]), key + 1, null));
            }
        }
        return rows;
    }

    /** A column's pg_attribute row; {@code columnDefault} is the table column's default (null for none, and for index columns). */
    private static Object[] attribute(long relationOid, ColumnDefinition column, int number,
                                      dev.parallax.engine.catalog.ColumnDefault columnDefault) {
        PostgresType type = PostgresType.of(column.type());
        boolean hasDefault = columnDefault != null && columnDefault.identity() == dev.parallax.engine.catalog.ColumnDefault.Identity.NONE;
        return new Object[] {relationOid, column.name(), (long) type.oid(), -1, type.length(), number, 0, -1,
                PostgresType.modifier(column.type()), type.byValue(), alignment(type), String.valueOf(type.storage()), "", column.notNull(),
                hasDefault, false, columnDefault == null ? "" : columnDefault.identityCode(), "", false, true, 0, type.collatable() ? PostgresType.DEFAULT_COLLATION_OID : 0L, null, null};
    }

    /**
     * pg_attrdef: one row per column default of a table (oid, adrelid, adnum, adbin); adbin holds the
     * default's text as PostgreSQL deparses it, which is what pg_get_expr returns for it. The row's
     * OID is derived from the table's and the column's number: unique, and stable while both exist.
     */
    static List<Object[]> attributeDefaults(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Relation relation : listing.relations()) {
            if (relation.table() == null || relation.kind() == 'v') {
                continue;
            }
            List<ColumnDefinition> columns = relation.table().columns();
            for (int index = 0; index < columns.size(); index++) {
                dev.parallax.engine.catalog.ColumnDefault value = columns.get(index).defaultValue();
                if (value != null && value.identity() == dev.parallax.engine.catalog.ColumnDefault.Identity.NONE) {
                    rows.add(new Object[] {(relation.oid() << 16) + index + 1, relation.oid(), index + 1, value.displayText()});
                }
            }
        }
        return rows;
    }

    static List<Object[]> types() {
        List<Object[]> rows = new ArrayList<>();
        for (PostgresType type : PostgresType.values()) {
            boolean preferred = type == PostgresType.BOOL || type == PostgresType.TEXT || type == PostgresType.FLOAT8
                    || type == PostgresType.OID;
            rows.add(new Object[] {(long) type.oid(), type.typeName(), CatalogRelations.PG_CATALOG_NAMESPACE,
                    PgCatalogViews.SUPERUSER_OID, type.length(), type.byValue(), type == PostgresType.UNKNOWN ? "p" : "b",
                    String.valueOf(type.category()), preferred, true, ",", 0L,
                    type.element() == null ? 0L : (long) type.element().oid(),
                    PostgresType.arrayOf(type) == null ? 0L : (long) PostgresType.arrayOf(type).oid(), false, 0L, -1, 0,
                    type.collatable() ? PostgresType.DEFAULT_COLLATION_OID : 0L, null});
        }
        return rows;
    }

    static List<Object[]> indexes(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Index index : listing.indexes()) {
            int[] keyColumns = index.keyColumns();
            boolean[] descending = index.descendingKeys();
            ArrayValue.Builder key = new ArrayValue.Builder(INT2VECTOR);
            ArrayValue.Builder options = new ArrayValue.Builder(INT2VECTOR);
            for (int position = 0; position < keyColumns.length; position++) {
                key.addLong(keyColumns[position] + 1);
                // PostgreSQL's INDOPTION_DESC (1) | INDOPTION_NULLS_FIRST (2): DESC keeps NULLs first.
                options.addLong(descending[position] ? 3 : 0);
            }
            rows.add(new Object[] {index.oid(), index.tableOid(), keyColumns.length, keyColumns.length, index.unique(), false,
                    index.primary(), false, true, false, true, false, true, true, false, key.build(0), options.build(0),
                    null, null});
        }
        return rows;
    }

    static List<Object[]> constraints(CatalogRelations listing) {
        List<Object[]> rows = new ArrayList<>();
        for (CatalogRelations.Index index : listing.indexes()) {
            if (index.constraintOid() == 0) {
                continue;
            }
            ArrayValue.Builder key = new ArrayValue.Builder(SMALLINT_ARRAY);
            for (int column : index.keyColumns()) {
                key.addLong(column + 1);
            }
            rows.add(new Object[] {index.constraintOid(), index.name(), listing.namespaceOf(index.table()),
                    index.primary() ? "p" : "u", false, false, true, index.tableOid(), 0L, index.oid(), 0L, 0L, " ", " ", " ",
                    true, 0, true, key.build(1), null, null});
        }
        for (CatalogRelations.Check check : listing.checks()) {
            ArrayValue.Builder key = new ArrayValue.Builder(SMALLINT_ARRAY);
            for (int column : check.columns()) {
                key.addLong(column + 1);
            }
            boolean inherited = check.table().parent() != null && check.table().parent().checkConstraints().contains(check.constraint());
            rows.add(new Object[] {check.constraint().objectId(), check.constraint().name(), listing.namespaceOf(check.table()),
                    "c", false, false, true, check.tableOid(), 0L, 0L, 0L, 0L, " ", " ", " ",
                    !inherited, inherited ? 1 : 0, false, key.build(1), null, check.conditionText()});
        }
        for (CatalogRelations.ForeignKeyEntry entry : listing.foreignKeys()) {
            ForeignKey foreignKey = entry.key();
            ArrayValue.Builder key = new ArrayValue.Builder(SMALLINT_ARRAY);
            for (int column : foreignKey.referencingColumns()) {
                key.addLong(column + 1);
            }
            ArrayValue.Builder referenced = new ArrayValue.Builder(SMALLINT_ARRAY);
            for (int column : foreignKey.referencedColumns()) {
                referenced.addLong(column + 1);
            }
            rows.add(new Object[] {foreignKey.objectId(), foreignKey.name(), listing.namespaceOf(foreignKey.referencing()),
                    "f", false, false, true, entry.tableOid(), 0L, entry.indexOid(), 0L, entry.referencedOid(),
                    String.valueOf(foreignKey.onUpdate().code()), String.valueOf(foreignKey.onDelete().code()), foreignKey.matchFull() ? "f" : "s",
                    true, 0, true, key.build(1), referenced.build(1), null});
        }
        return rows;
    }

    static List<Object[]> inherits(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        for (Table table : catalog.tables()) {
            Table parent = table.parent();
            long oid = catalog.relationOid(table.name());
            long parentOid = parent == null ? 0 : catalog.relationOid(parent.name());
            if (oid != 0 && parentOid != 0) {
                rows.add(new Object[] {oid, parentOid, 1, false});
            }
        }
        return rows;
    }

    /** pg_type.typalign: c (char), s (short), i (int), d (double). */
    private static String alignment(PostgresType type) {
        return switch (type) {
            case BOOL, CHAR, NAME, UNKNOWN, UUID -> "c";
            case INT2 -> "s";
            case INT8, FLOAT8, TIMESTAMP, TIMESTAMPTZ, INTERVAL -> "d";
            case INT4, TEXT, OID, FLOAT4, BPCHAR, VARCHAR, DATE, BIT, VARBIT, NUMERIC -> "i";
            // An array aligns as its elements do, at least on an int.
            case INT2VECTOR, OIDVECTOR, BOOL_ARRAY, CHAR_ARRAY, NAME_ARRAY, INT2_ARRAY, INT4_ARRAY, TEXT_ARRAY, BPCHAR_ARRAY,
                 VARCHAR_ARRAY, FLOAT4_ARRAY, OID_ARRAY, DATE_ARRAY, BIT_ARRAY, VARBIT_ARRAY, NUMERIC_ARRAY, UUID_ARRAY -> "i";
            case INT8_ARRAY, FLOAT8_ARRAY, TIMESTAMP_ARRAY, TIMESTAMPTZ_ARRAY, INTERVAL_ARRAY -> "d";
        };
    }
}
