package dev.parallax.planner.progress;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.storage.TableStorage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.PostgresType;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The pg_catalog views Parallax answers from its own catalog, with PostgreSQL 15's names for the
 * columns clients read (psql's {@code \d} family, pgJDBC's DatabaseMetaData): pg_namespace,
 * pg_tables, pg_indexes, pg_class, pg_attribute, pg_type, pg_index, pg_constraint, pg_inherits, pg_am,
 * pg_database, pg_roles, pg_tablespace, pg_collation, pg_attrdef (column defaults), and pg_description,
 * which is empty (Parallax has no comments), as are pg_policy, pg_statistic_ext,
 * pg_publication, pg_publication_namespace and pg_publication_rel (no row security, extended
 * statistics or publications; psql's {@code \d} reads them), and pg_proc (Parallax has no
 * user-defined functions; its built-in functions are not listed, so psql's {@code \df} answers
 * right and {@code \dfS} lists nothing), pg_auth_members, pg_extension, pg_language,
 * pg_default_acl, pg_db_role_setting, pg_largeobject_metadata and pg_event_trigger. Types: {@code oid} columns are
 * bigint, {@code "char"} and {@code name} columns text; the arrays that clients subscript or
 * search are arrays ({@code polroles} bigint[], {@code stxkind} text[], {@code prattrs}
 * int2vector); pg_index.indkey and indoption int2vector, pg_constraint.conkey smallint[],
 * pg_class.reloptions text[]); the others (aclitem[]) still hold PostgreSQL's text form of the array. Every view
 * reads the catalog when scanned.
 */
public final class PgCatalogViews {
    /** PostgreSQL's OID of the bootstrap superuser, owner of everything here. */
    public static final long SUPERUSER_OID = 10;
    /** The owner's name: the embedded user. */
    public static final String OWNER = "parallax";
    /** The one database's OID (PostgreSQL's {@code postgres} database has 5). */
    public static final long DATABASE_OID = 5;
    /** PostgreSQL's OID of the pg_default tablespace, pg_database.dattablespace. */
    public static final long DEFAULT_TABLESPACE_OID = 1663;
    /** PostgreSQL's OID of the pg_global tablespace. */
    public static final long GLOBAL_TABLESPACE_OID = 1664;
    /** The one database's name, pg_database.datname. */
    public static final String DATABASE_NAME = "parallax";
    /** PostgreSQL's encoding number of UTF8, pg_database.encoding. */
    public static final int UTF8_ENCODING = 6;

    static final List<ColumnDefinition> NAMESPACE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("nspname", DataType.TEXT), column("nspowner", DataType.BIGINT),
            nullable("nspacl", DataType.TEXT));

    static final List<ColumnDefinition> TABLES_COLUMNS = List.of(
            column("schemaname", DataType.TEXT), column("tablename", DataType.TEXT), column("tableowner", DataType.TEXT),
            nullable("tablespace", DataType.TEXT), column("hasindexes", DataType.BOOLEAN), column("hasrules", DataType.BOOLEAN),
            column("hastriggers", DataType.BOOLEAN), column("rowsecurity", DataType.BOOLEAN));

    static final List<ColumnDefinition> INDEXES_COLUMNS = List.of(
            column("schemaname", DataType.TEXT), column("tablename", DataType.TEXT), column("indexname", DataType.TEXT),
            nullable("tablespace", DataType.TEXT), column("indexdef", DataType.TEXT));

    static final List<ColumnDefinition> CLASS_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("relname", DataType.TEXT), column("relnamespace", DataType.BIGINT),
            column("reltype", DataType.BIGINT), column("reloftype", DataType.BIGINT), column("relowner", DataType.BIGINT),
            column("relam", DataType.BIGINT), column("relfilenode", DataType.BIGINT), column("reltablespace", DataType.BIGINT),
            column("relpages", DataType.INTEGER), column("reltuples", DataType.REAL), column("relallvisible", DataType.INTEGER),
            column("reltoastrelid", DataType.BIGINT), column("relhasindex", DataType.BOOLEAN),
            column("relisshared", DataType.BOOLEAN), column("relpersistence", DataType.TEXT), column("relkind", DataType.TEXT),
            column("relnatts", DataType.SMALLINT), column("relchecks", DataType.SMALLINT), column("relhasrules", DataType.BOOLEAN),
            column("relhastriggers", DataType.BOOLEAN), column("relhassubclass", DataType.BOOLEAN),
            column("relrowsecurity", DataType.BOOLEAN), column("relforcerowsecurity", DataType.BOOLEAN),
            column("relispopulated", DataType.BOOLEAN), column("relreplident", DataType.TEXT),
            column("relispartition", DataType.BOOLEAN), column("relrewrite", DataType.BIGINT),
            nullable("relacl", DataType.TEXT), nullable("reloptions", DataType.array(DataType.TEXT)), nullable("relpartbound", DataType.TEXT));

    static final List<ColumnDefinition> ATTRIBUTE_COLUMNS = List.of(
            column("attrelid", DataType.BIGINT), column("attname", DataType.TEXT), column("atttypid", DataType.BIGINT),
            column("attstattarget", DataType.INTEGER), column("attlen", DataType.SMALLINT), column("attnum", DataType.SMALLINT),
            column("attndims", DataType.INTEGER), column("attcacheoff", DataType.INTEGER), column("atttypmod", DataType.INTEGER),
            column("attbyval", DataType.BOOLEAN), column("attalign", DataType.TEXT), column("attstorage", DataType.TEXT),
            column("attcompression", DataType.TEXT), column("attnotnull", DataType.BOOLEAN), column("atthasdef", DataType.BOOLEAN),
            column("atthasmissing", DataType.BOOLEAN), column("attidentity", DataType.TEXT), column("attgenerated", DataType.TEXT),
            column("attisdropped", DataType.BOOLEAN), column("attislocal", DataType.BOOLEAN), column("attinhcount", DataType.INTEGER),
            column("attcollation", DataType.BIGINT), nullable("attacl", DataType.TEXT), nullable("attoptions", DataType.TEXT));

    static final List<ColumnDefinition> TYPE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("typname", DataType.TEXT), column("typnamespace", DataType.BIGINT),
            column("typowner", DataType.BIGINT), column("typlen", DataType.SMALLINT), column("typbyval", DataType.BOOLEAN),
            column("typtype", DataType.TEXT), column("typcategory", DataType.TEXT), column("typispreferred", DataType.BOOLEAN),
            column("typisdefined", DataType.BOOLEAN), column("typdelim", DataType.TEXT), column("typrelid", DataType.BIGINT),
            column("typelem", DataType.BIGINT), column("typarray", DataType.BIGINT), column("typnotnull", DataType.BOOLEAN),
            column("typbasetype", DataType.BIGINT), column("typtypmod", DataType.INTEGER), column("typndims", DataType.INTEGER),
            column("typcollation", DataType.BIGINT), nullable("typdefault", DataType.TEXT));

    static final List<ColumnDefinition> INDEX_COLUMNS = List.of(
            column("indexrelid", DataType.BIGINT), column("indrelid", DataType.BIGINT), column("indnatts", DataType.SMALLINT),
            column("indnkeyatts", DataType.SMALLINT), column("indisunique", DataType.BOOLEAN),
            column("indnullsnotdistinct", DataType.BOOLEAN), column("indisprimary", DataType.BOOLEAN),
            column("indisexclusion", DataType.BOOLEAN), column("indimmediate", DataType.BOOLEAN),
            column("indisclustered", DataType.BOOLEAN), column("indisvalid", DataType.BOOLEAN),
            column("indcheckxmin", DataType.BOOLEAN), column("indisready", DataType.BOOLEAN), column("indislive", DataType.BOOLEAN),
            column("indisreplident", DataType.BOOLEAN), column("indkey", DataType.vector(DataType.SMALLINT)),
            column("indoption", DataType.vector(DataType.SMALLINT)),
            nullable("indexprs", DataType.TEXT), nullable("indpred", DataType.TEXT));

    static final List<ColumnDefinition> CONSTRAINT_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("conname", DataType.TEXT), column("connamespace", DataType.BIGINT),
            column("contype", DataType.TEXT), column("condeferrable", DataType.BOOLEAN), column("condeferred", DataType.BOOLEAN),
            column("convalidated", DataType.BOOLEAN), column("conrelid", DataType.BIGINT), column("contypid", DataType.BIGINT),
            column("conindid", DataType.BIGINT), column("conparentid", DataType.BIGINT), column("confrelid", DataType.BIGINT),
            column("confupdtype", DataType.TEXT), column("confdeltype", DataType.TEXT), column("confmatchtype", DataType.TEXT),
            column("conislocal", DataType.BOOLEAN), column("coninhcount", DataType.INTEGER), column("connoinherit", DataType.BOOLEAN),
            nullable("conkey", DataType.array(DataType.SMALLINT)), nullable("confkey", DataType.array(DataType.SMALLINT)),
            nullable("conbin", DataType.TEXT));

    static final List<ColumnDefinition> INHERITS_COLUMNS = List.of(
            column("inhrelid", DataType.BIGINT), column("inhparent", DataType.BIGINT), column("inhseqno", DataType.INTEGER),
            column("inhdetachpending", DataType.BOOLEAN));

    static final List<ColumnDefinition> ACCESS_METHOD_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("amname", DataType.TEXT), column("amhandler", DataType.TEXT),
            column("amtype", DataType.TEXT));

    static final List<ColumnDefinition> DATABASE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("datname", DataType.TEXT), column("datdba", DataType.BIGINT),
            column("encoding", DataType.INTEGER), column("datlocprovider", DataType.TEXT), column("datistemplate", DataType.BOOLEAN),
            column("datallowconn", DataType.BOOLEAN), column("datconnlimit", DataType.INTEGER),
            column("dattablespace", DataType.BIGINT), column("datcollate", DataType.TEXT), column("datctype", DataType.TEXT),
            nullable("daticulocale", DataType.TEXT), nullable("datcollversion", DataType.TEXT), nullable("datacl", DataType.TEXT));

    static final List<ColumnDefinition> TABLESPACE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("spcname", DataType.TEXT), column("spcowner", DataType.BIGINT),
            nullable("spcacl", DataType.TEXT), nullable("spcoptions", DataType.array(DataType.TEXT)));

    static final List<ColumnDefinition> AUTH_MEMBERS_COLUMNS = List.of(
            column("roleid", DataType.BIGINT), column("member", DataType.BIGINT), column("grantor", DataType.BIGINT),
            column("admin_option", DataType.BOOLEAN));

    static final List<ColumnDefinition> EXTENSION_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("extname", DataType.TEXT), column("extowner", DataType.BIGINT),
            column("extnamespace", DataType.BIGINT), column("extrelocatable", DataType.BOOLEAN), column("extversion", DataType.TEXT),
            nullable("extconfig", DataType.array(DataType.BIGINT)), nullable("extcondition", DataType.array(DataType.TEXT)));

    /** pg_language with the {@code tableoid} system column psql's {@code \dL} joins pg_description on. */
    static final List<ColumnDefinition> LANGUAGE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("lanname", DataType.TEXT), column("lanowner", DataType.BIGINT),
            column("lanispl", DataType.BOOLEAN), column("lanpltrusted", DataType.BOOLEAN), column("lanplcallfoid", DataType.BIGINT),
            column("laninline", DataType.BIGINT), column("lanvalidator", DataType.BIGINT), nullable("lanacl", DataType.TEXT),
            column("tableoid", DataType.BIGINT));

    static final List<ColumnDefinition> DEFAULT_ACL_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("defaclrole", DataType.BIGINT), column("defaclnamespace", DataType.BIGINT),
            column("defaclobjtype", DataType.TEXT), column("defaclacl", DataType.TEXT));

    static final List<ColumnDefinition> DB_ROLE_SETTING_COLUMNS = List.of(
            column("setdatabase", DataType.BIGINT), column("setrole", DataType.BIGINT), nullable("setconfig", DataType.array(DataType.TEXT)));

    static final List<ColumnDefinition> LARGEOBJECT_METADATA_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("lomowner", DataType.BIGINT), nullable("lomacl", DataType.TEXT));

    static final List<ColumnDefinition> EVENT_TRIGGER_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("evtname", DataType.TEXT), column("evtevent", DataType.TEXT),
            column("evtowner", DataType.BIGINT), column("evtfoid", DataType.BIGINT), column("evtenabled", DataType.TEXT),
            nullable("evttags", DataType.array(DataType.TEXT)));

    static final List<ColumnDefinition> ROLES_COLUMNS = List.of(
            column("rolname", DataType.TEXT), column("rolsuper", DataType.BOOLEAN), column("rolinherit", DataType.BOOLEAN),
            column("rolcreaterole", DataType.BOOLEAN), column("rolcreatedb", DataType.BOOLEAN), column("rolcanlogin", DataType.BOOLEAN),
            column("rolreplication", DataType.BOOLEAN), column("rolconnlimit", DataType.INTEGER), column("rolpassword", DataType.TEXT),
            nullable("rolvaliduntil", DataType.TIMESTAMP), column("rolbypassrls", DataType.BOOLEAN), nullable("rolconfig", DataType.TEXT),
            column("oid", DataType.BIGINT));

    static final List<ColumnDefinition> COLLATION_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("collname", DataType.TEXT), column("collnamespace", DataType.BIGINT),
            column("collowner", DataType.BIGINT), column("collprovider", DataType.TEXT),
            column("collisdeterministic", DataType.BOOLEAN), column("collencoding", DataType.INTEGER),
            nullable("collcollate", DataType.TEXT), nullable("collctype", DataType.TEXT));

    static final List<ColumnDefinition> ATTRIBUTE_DEFAULT_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("adrelid", DataType.BIGINT), column("adnum", DataType.SMALLINT),
            column("adbin", DataType.TEXT));

    static final List<ColumnDefinition> SEQUENCES_COLUMNS = List.of(
            column("schemaname", DataType.TEXT), column("sequencename", DataType.TEXT), column("sequenceowner", DataType.TEXT),
            column("data_type", DataType.TEXT), column("start_value", DataType.BIGINT), column("min_value", DataType.BIGINT),
            column("max_value", DataType.BIGINT), column("increment_by", DataType.BIGINT), column("cycle", DataType.BOOLEAN),
            column("cache_size", DataType.BIGINT), nullable("last_value", DataType.BIGINT));

    static final List<ColumnDefinition> DESCRIPTION_COLUMNS = List.of(
            column("objoid", DataType.BIGINT), column("classoid", DataType.BIGINT), column("objsubid", DataType.INTEGER),
            column("description", DataType.TEXT));

    static final List<ColumnDefinition> POLICY_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("polname", DataType.TEXT), column("polrelid", DataType.BIGINT),
            column("polcmd", DataType.TEXT), column("polpermissive", DataType.BOOLEAN),
            column("polroles", DataType.array(DataType.BIGINT)), nullable("polqual", DataType.TEXT),
            nullable("polwithcheck", DataType.TEXT));

    static final List<ColumnDefinition> STATISTIC_EXT_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("stxrelid", DataType.BIGINT), column("stxname", DataType.TEXT),
            column("stxnamespace", DataType.BIGINT), column("stxowner", DataType.BIGINT), column("stxstattarget", DataType.INTEGER),
            column("stxkeys", DataType.vector(DataType.SMALLINT)), column("stxkind", DataType.array(DataType.TEXT)),
            nullable("stxexprs", DataType.TEXT));

    static final List<ColumnDefinition> PUBLICATION_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("pubname", DataType.TEXT), column("pubowner", DataType.BIGINT),
            column("puballtables", DataType.BOOLEAN), column("pubinsert", DataType.BOOLEAN), column("pubupdate", DataType.BOOLEAN),
            column("pubdelete", DataType.BOOLEAN), column("pubtruncate", DataType.BOOLEAN), column("pubviaroot", DataType.BOOLEAN));

    static final List<ColumnDefinition> PUBLICATION_NAMESPACE_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("pnpubid", DataType.BIGINT), column("pnnspid", DataType.BIGINT));

    static final List<ColumnDefinition> PUBLICATION_REL_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("prpubid", DataType.BIGINT), column("prrelid", DataType.BIGINT),
            nullable("prqual", DataType.TEXT), nullable("prattrs", DataType.vector(DataType.SMALLINT)));

    static final List<ColumnDefinition> PROC_COLUMNS = List.of(
            column("oid", DataType.BIGINT), column("proname", DataType.TEXT), column("pronamespace", DataType.BIGINT),
            column("proowner", DataType.BIGINT), column("prolang", DataType.BIGINT), column("procost", DataType.REAL),
            column("prorows", DataType.REAL), column("provariadic", DataType.BIGINT), column("prosupport", DataType.TEXT),
            column("prokind", DataType.TEXT), column("prosecdef", DataType.BOOLEAN), column("proleakproof", DataType.BOOLEAN),
            column("proisstrict", DataType.BOOLEAN), column("proretset", DataType.BOOLEAN), column("provolatile", DataType.TEXT),
            column("proparallel", DataType.TEXT), column("pronargs", DataType.SMALLINT), column("pronargdefaults", DataType.SMALLINT),
            column("prorettype", DataType.BIGINT), column("proargtypes", DataType.array(DataType.BIGINT)),
            nullable("proallargtypes", DataType.array(DataType.BIGINT)), nullable("proargmodes", DataType.array(DataType.TEXT)),
            nullable("proargnames", DataType.array(DataType.TEXT)), nullable("proargdefaults", DataType.TEXT),
            nullable("protrftypes", DataType.array(DataType.BIGINT)), column("prosrc", DataType.TEXT), nullable("probin", DataType.TEXT),
            nullable("prosqlbody", DataType.TEXT), nullable("proconfig", DataType.array(DataType.TEXT)), nullable("proacl", DataType.TEXT));

    private PgCatalogViews() {
    }

    /**
     * The views whose rows depend on the relations a session sees (its temporary ones too), by
     * name: their columns and rows over a catalog.
     */
    private static final Map<String, SessionDependent> SESSION_DEPENDENT = sessionDependent();

    private record SessionDependent(List<ColumnDefinition> columns, Function<Catalog, List<Object[]>> rows) {
    }

    private static Map<String, SessionDependent> sessionDependent() {
        Map<String, SessionDependent> views = new LinkedHashMap<>();
        views.put("pg_namespace", new SessionDependent(NAMESPACE_COLUMNS, PgCatalogViews::namespaces));
        views.put("pg_tables", new SessionDependent(TABLES_COLUMNS, PgCatalogViews::tables));
        views.put("pg_indexes", new SessionDependent(INDEXES_COLUMNS, PgCatalogViews::indexes));
        views.put("pg_class", new SessionDependent(CLASS_COLUMNS, catalog -> CatalogRows.classes(CatalogRelations.of(catalog))));
        views.put("pg_attribute", new SessionDependent(ATTRIBUTE_COLUMNS, catalog -> CatalogRows.attributes(CatalogRelations.of(catalog))));
        views.put("pg_index", new SessionDependent(INDEX_COLUMNS, catalog -> CatalogRows.indexes(CatalogRelations.of(catalog))));
        views.put("pg_constraint", new SessionDependent(CONSTRAINT_COLUMNS, catalog -> CatalogRows.constraints(CatalogRelations.of(catalog))));
        views.put("pg_inherits", new SessionDependent(INHERITS_COLUMNS, CatalogRows::inherits));
        views.put("pg_attrdef", new SessionDependent(ATTRIBUTE_DEFAULT_COLUMNS,
                catalog -> CatalogRows.attributeDefaults(CatalogRelations.of(catalog))));
        views.put("pg_sequences", new SessionDependent(SEQUENCES_COLUMNS, catalog -> CatalogRows.sequences(CatalogRelations.of(catalog))));
        views.put("pg_description", new SessionDependent(DESCRIPTION_COLUMNS, catalog -> CatalogRows.descriptions(CatalogRelations.of(catalog))));
        return java.util.Collections.unmodifiableMap(views);
    }

    /**
     * The rows the system view {@code view} shows a session that sees {@code catalog} (its temporary
     * tables in front of the database's), or null when the view shows every session the same.
     */
    public static TableStorage sessionStorage(Table view, SessionCatalog catalog) {
        SessionDependent dependent = SESSION_DEPENDENT.get(view.name());
        return dependent == null ? null : new CatalogViewStorage(view.name(), dependent.columns(), () -> dependent.rows().apply(catalog));
    }

    /** Adds the views to {@code catalog}; each reads the catalog when scanned. */
    public static void register(Catalog catalog) {
        // In the order that gave the views their OIDs before some became session-dependent.
        for (String name : List.of("pg_namespace", "pg_tables", "pg_indexes", "pg_class", "pg_attribute")) {
            addSessionDependent(catalog, name);
        }
        add(catalog, "pg_type", TYPE_COLUMNS, CatalogRows::types);
        for (String name : List.of("pg_index", "pg_constraint", "pg_inherits")) {
            addSessionDependent(catalog, name);
        }
        add(catalog, "pg_am", ACCESS_METHOD_COLUMNS, PgCatalogViews::accessMethods);
        add(catalog, "pg_database", DATABASE_COLUMNS, PgCatalogViews::databases);
        add(catalog, "pg_roles", ROLES_COLUMNS, PgCatalogViews::roles);
        add(catalog, "pg_tablespace", TABLESPACE_COLUMNS, PgCatalogViews::tablespaces);
        add(catalog, "pg_collation", COLLATION_COLUMNS, PgCatalogViews::collations);
        addSessionDependent(catalog, "pg_attrdef");
        addSessionDependent(catalog, "pg_description");
        addSessionDependent(catalog, "pg_sequences");
        add(catalog, "pg_policy", POLICY_COLUMNS, List::of);
        add(catalog, "pg_statistic_ext", STATISTIC_EXT_COLUMNS, List::of);
        add(catalog, "pg_publication", PUBLICATION_COLUMNS, List::of);
        add(catalog, "pg_publication_namespace", PUBLICATION_NAMESPACE_COLUMNS, List::of);
        add(catalog, "pg_publication_rel", PUBLICATION_REL_COLUMNS, List::of);
        add(catalog, "pg_proc", PROC_COLUMNS, List::of);
        // One role, no extensions, procedural languages, default privileges, per-database role
        // settings, large objects or event triggers: psql's \du, \dx, \dL, \ddp, \drds, \dl, \dy list none.
        add(catalog, "pg_auth_members", AUTH_MEMBERS_COLUMNS, List::of);
        add(catalog, "pg_extension", EXTENSION_COLUMNS, List::of);
        add(catalog, "pg_language", LANGUAGE_COLUMNS, List::of);
        add(catalog, "pg_default_acl", DEFAULT_ACL_COLUMNS, List::of);
        add(catalog, "pg_db_role_setting", DB_ROLE_SETTING_COLUMNS, List::of);
        add(catalog, "pg_largeobject_metadata", LARGEOBJECT_METADATA_COLUMNS, List::of);
        add(catalog, "pg_event_trigger", EVENT_TRIGGER_COLUMNS, List::of);
    }

    private static void addSessionDependent(Catalog catalog, String name) {
        SessionDependent view = SESSION_DEPENDENT.get(name);
        add(catalog, name, view.columns(), () -> view.rows().apply(catalog));
    }

    private static void add(Catalog catalog, String name, List<ColumnDefinition> columns, Supplier<List<Object[]>> rows) {
        catalog.addTable(Table.systemView(name, columns, new CatalogViewStorage(name, columns, rows)));
    }

    private static ColumnDefinition column(String name, DataType type) {
        return new ColumnDefinition(name, type, true);
    }

    private static ColumnDefinition nullable(String name, DataType type) {
        return new ColumnDefinition(name, type, false);
    }

    private static List<Object[]> namespaces(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>(List.of(
                new Object[] {CatalogRelations.PG_CATALOG_NAMESPACE, "pg_catalog", SUPERUSER_OID, null},
                new Object[] {CatalogRelations.PUBLIC_NAMESPACE, "public", SUPERUSER_OID, null},
                new Object[] {CatalogRelations.INFORMATION_SCHEMA_NAMESPACE, "information_schema", SUPERUSER_OID, null}));
        if (catalog instanceof SessionCatalog session && session.temporaryNamespaceOid() != 0) {
            rows.add(new Object[] {session.temporaryNamespaceOid(), session.temporarySchemaName(), SUPERUSER_OID, null});
        }
        return rows;
    }

    private static List<Object[]> tables(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        CatalogRelations relations = CatalogRelations.of(catalog);
        for (Table table : catalog.tables()) {
            if (table.isSystemView()) {
                continue;
            }
            boolean hasIndexes = !table.indexes().isEmpty() || !table.uniqueConstraints().isEmpty()
                    || !table.partitionedConstraints().isEmpty();
            rows.add(new Object[] {relations.schemaNameOf(table), table.name(), OWNER, null, hasIndexes, false, false, false});
        }
        return rows;
    }

    /** pg_indexes: every index with pg_get_indexdef's text, as PostgreSQL's view defines it. */
    private static List<Object[]> indexes(Catalog catalog) {
        List<Object[]> rows = new ArrayList<>();
        CatalogRelations relations = CatalogRelations.of(catalog);
        for (CatalogRelations.Index index : relations.indexes()) {
            rows.add(new Object[] {relations.schemaNameOf(index.table()), index.table().name(), index.name(), null,
                    index.definition(false)});
        }
        return rows;
    }

    private static List<Object[]> accessMethods() {
        return List.of(
                new Object[] {CatalogRelations.HEAP_ACCESS_METHOD, "heap", "heap_tableam_handler", "t"},
                new Object[] {CatalogRelations.BTREE_ACCESS_METHOD, "btree", "bthandler", "i"},
                new Object[] {CatalogRelations.HASH_ACCESS_METHOD, "hash", "hashhandler", "i"});
    }

    private static List<Object[]> databases() {
        return List.<Object[]>of(new Object[] {DATABASE_OID, DATABASE_NAME, SUPERUSER_OID, UTF8_ENCODING, "c", false, true, -1,
                DEFAULT_TABLESPACE_OID, "C", "C", null, null, null});
    }

    /** PostgreSQL's two built-in tablespaces; every relation lives in pg_default (memory, in Parallax). */
    private static List<Object[]> tablespaces() {
        return List.of(new Object[] {DEFAULT_TABLESPACE_OID, "pg_default", SUPERUSER_OID, null, null},
                new Object[] {GLOBAL_TABLESPACE_OID, "pg_global", SUPERUSER_OID, null, null});
    }

    private static List<Object[]> roles() {
        return List.<Object[]>of(new Object[] {OWNER, true, true, true, true, true, true, -1, "********", null, true, null,
                SUPERUSER_OID});
    }

    private static List<Object[]> collations() {
        return List.<Object[]>of(new Object[] {PostgresType.DEFAULT_COLLATION_OID, "default", CatalogRelations.PG_CATALOG_NAMESPACE,
                SUPERUSER_OID, "d", true, -1, null, null});
    }
}
