package dev.parallax.jdbc;

import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.type.LikePattern;
import dev.parallax.engine.type.TypeKind;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What a Parallax database is and holds, as JDBC asks. Tables and columns come from the engine
 * catalog (every table is a {@code TABLE} in schema {@code public}); the catalog column is the
 * connection's catalog (the database name of {@code jdbc:parallax:mem:NAME}, null for a private
 * database). Name patterns are JDBC's LIKE patterns ({@code %}, {@code _}, backslash escape), matched
 * case-sensitively against the case-folded names, as pgJDBC does. Objects Parallax does not have yet
 * (keys, indexes, procedures, privileges, user-defined types) give empty results with the columns
 * JDBC specifies. Feature answers describe the engine as it is: no joins, subqueries, UNION or
 * transactions yet.
 */
final class ParallaxDatabaseMetaData implements DatabaseMetaData {
    private static final String SCHEMA = "public";
    private static final String TABLE_TYPE = "TABLE";
    /** A session's temporary table, in its pg_temp_N schema, as pgJDBC names the type. */
    private static final String TEMPORARY_TABLE_TYPE = "TEMPORARY TABLE";
    private static final String VIEW_TYPE = "VIEW";

    /** A user table or view: its schema, name, JDBC table type and columns. */
    private record Relation(String schema, String name, String type, List<ColumnDefinition> columns) {
    }

    private final ParallaxConnection connection;

    ParallaxDatabaseMetaData(ParallaxConnection connection) {
        this.connection = connection;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    @Override
    public String getUserName() {
        return connection.user();
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    // ---- tables and columns from the catalog ----

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types) throws SQLException {
        List<ResultColumn> columns = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT", "TYPE_SCHEM",
                "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
        List<Object[]> rows = new ArrayList<>();
        // JDBC orders them by TABLE_TYPE, then name: the tables, then the views.
        for (String type : List.of(TABLE_TYPE, TEMPORARY_TABLE_TYPE, VIEW_TYPE)) {
            if (types != null && !Arrays.asList(types).contains(type)) {
                continue;
            }
            for (Relation relation : matchingRelations(catalog, schemaPattern, tableNamePattern)) {
                if (relation.type().equals(type)) {
                    rows.add(new Object[] {connection.catalogName(), relation.schema(), relation.name(), type, null, null, null, null, null,
                            null});
                }
            }
        }
        return result(columns, rows);
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        List<ResultColumn> columns = columns("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE:int", "TYPE_NAME",
                "COLUMN_SIZE:int", "BUFFER_LENGTH:int", "DECIMAL_DIGITS:int", "NUM_PREC_RADIX:int", "NULLABLE:int", "REMARKS",
                "COLUMN_DEF", "SQL_DATA_TYPE:int", "SQL_DATETIME_SUB:int", "CHAR_OCTET_LENGTH:int", "ORDINAL_POSITION:int",
                "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE:short", "IS_AUTOINCREMENT",
                "IS_GENERATEDCOLUMN");
        LikePattern columnPattern = pattern(columnNamePattern);
        List<Object[]> rows = new ArrayList<>();
        for (Relation relation : matchingRelations(catalog, schemaPattern, tableNamePattern)) {
            List<ColumnDefinition> definitions = relation.columns();
            for (int ordinal = 1; ordinal <= definitions.size(); ordinal++) {
                ColumnDefinition column = definitions.get(ordinal - 1);
                if (!matches(columnPattern, column.name())) {
                    continue;
                }
                DataType type = column.type();
                boolean characters = type.kind().isText();
                Integer decimalDigits = characters || type.kind().isBitString() ? null : JdbcTypes.scale(type);
                Integer octetLength = null;
                if (characters) {
                    // UTF-8 takes up to 4 bytes per character.
                    octetLength = type.length() == DataType.UNBOUNDED
                            ? JdbcTypes.UNLIMITED_LENGTH : (int) Math.min(4L * type.length(), Integer.MAX_VALUE);
                }
                rows.add(new Object[] {connection.catalogName(), relation.schema(), relation.name(), column.name(), JdbcTypes.sqlType(type),
                        JdbcTypes.typeName(type), JdbcTypes.precision(type), null, decimalDigits, JdbcTypes.radix(type),
                        column.notNull() ? columnNoNulls : columnNullable, null, null, null, null, octetLength, ordinal,
                        column.notNull() ? "NO" : "YES", null, null, null, null, "NO", "NO"});
            }
        }
        return result(columns, rows);
    }

    /** The user tables and views whose name matches, by name (a view's columns as CREATE VIEW recorded them). */
    private List<Relation> matchingRelations(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        connection.checkOpen();
        if (!catalogMatches(catalog)) {
            return List.of();
        }
        LikePattern schemas = pattern(schemaPattern);
        LikePattern namePattern = pattern(tableNamePattern);
        List<Relation> relations = new ArrayList<>();
        // The session's catalog: its temporary tables too, in their schema (also those hiding a permanent one).
        Catalog sessionCatalog = connection.session().catalog();
        for (Table table : sessionCatalog.tables()) {
            boolean temporary = sessionCatalog.isTemporary(table);
            String schema = temporary ? ((SessionCatalog) sessionCatalog).temporarySchemaName() : SCHEMA;
            if (!table.isSystemView() && matches(schemas, schema) && matches(namePattern, table.name())) {
                relations.add(new Relation(schema, table.name(), temporary ? TEMPORARY_TABLE_TYPE : TABLE_TYPE, table.columns()));
            }
        }
        for (View view : sessionCatalog.views()) {
            if (matches(schemas, SCHEMA) && matches(namePattern, view.name())) {
                relations.add(new Relation(SCHEMA, view.name(), VIEW_TYPE, view.columns()));
            }
        }
        relations.sort(Comparator.comparing(Relation::schema).thenComparing(Relation::name));
        return relations;
    }

    /** Whether {@code catalog} names this connection's catalog ("" asks for objects without one: those of a private database). */
    private boolean catalogMatches(String catalog) {
        String catalogName = connection.catalogName();
        return catalog == null || (catalog.isEmpty() ? catalogName == null : catalog.equals(catalogName));
    }

    /** A compiled JDBC name pattern, or null for "any name" (a null pattern). */
    private static LikePattern pattern(String namePattern) {
        return namePattern == null ? null : LikePattern.compile(namePattern);
    }

    private static boolean matches(LikePattern pattern, String name) {
        if (pattern == null) {
            return true;
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        return pattern.matches(bytes, 0, bytes.length);
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        connection.checkOpen();
        List<Object[]> rows = new ArrayList<>();
        if (matches(pattern(schemaPattern), SCHEMA)) {
            rows.add(new Object[] {SCHEMA, connection.catalogName()});
        }
        return result(columns("TABLE_SCHEM", "TABLE_CATALOG"), rows);
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        connection.checkOpen();
        List<Object[]> rows = new ArrayList<>();
        if (connection.catalogName() != null) {
            rows.add(new Object[] {connection.catalogName()});
        }
        return result(columns("TABLE_CAT"), rows);
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        connection.checkOpen();
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {TABLE_TYPE});
        rows.add(new Object[] {TEMPORARY_TABLE_TYPE});
        rows.add(new Object[] {VIEW_TYPE});
        return result(columns("TABLE_TYPE"), rows);
    }

    /** Every type Parallax stores, ordered by DATA_TYPE as JDBC asks. */
    @Override
    public ResultSet getTypeInfo() throws SQLException {
        connection.checkOpen();
        List<ResultColumn> columns = columns("TYPE_NAME", "DATA_TYPE:int", "PRECISION:int", "LITERAL_PREFIX", "LITERAL_SUFFIX",
                "CREATE_PARAMS", "NULLABLE:short", "CASE_SENSITIVE:bool", "SEARCHABLE:short", "UNSIGNED_ATTRIBUTE:bool",
                "FIXED_PREC_SCALE:bool", "AUTO_INCREMENT:bool", "LOCAL_TYPE_NAME", "MINIMUM_SCALE:short", "MAXIMUM_SCALE:short",
                "SQL_DATA_TYPE:int", "SQL_DATETIME_SUB:int", "NUM_PREC_RADIX:int");
        List<DataType> types = new ArrayList<>(List.of(DataType.BOOLEAN, DataType.SMALLINT, DataType.INTEGER, DataType.BIGINT,
                DataType.decimal(DataType.MAX_DECIMAL_PRECISION, 0), DataType.REAL, DataType.DOUBLE, DataType.DATE, DataType.TIMESTAMP,
                DataType.INTERVAL_DAY_TIME, DataType.charType(DataType.UNBOUNDED), DataType.varchar(DataType.UNBOUNDED), DataType.TEXT,
                DataType.bit(DataType.UNBOUNDED), DataType.VARBIT, DataType.UUID));
        types.sort(Comparator.comparingInt(JdbcTypes::sqlType));
        List<Object[]> rows = new ArrayList<>();
        for (DataType type : types) {
            TypeKind kind = type.kind();
            String quote = kind.isText() || kind == TypeKind.DATE || kind == TypeKind.TIMESTAMP
                    || kind == TypeKind.TIMESTAMPTZ || kind == TypeKind.INTERVAL_DAY_TIME ? "'" : null;
            String createParameters = switch (kind) {
                case DECIMAL -> "precision,scale";
                case CHAR, VARCHAR, BIT, VARBIT -> "length";
                case BOOLEAN, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DATE, TIMESTAMP, TIMESTAMPTZ, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, TEXT,
                     ARRAY, UUID, NULL -> null;
            };
            short maximumScale = (short) (kind == TypeKind.DECIMAL ? DataType.MAX_DECIMAL_PRECISION : JdbcTypes.scale(type));
            rows.add(new Object[] {JdbcTypes.typeName(type), JdbcTypes.sqlType(type), JdbcTypes.precision(type),
                    kind.isBitString() ? "B'" : quote, quote != null || kind.isBitString() ? "'" : null, createParameters,
                    (short) typeNullable, JdbcTypes.isCaseSensitive(type), (short) typeSearchable, !JdbcTypes.isSigned(type),
                    false, false, null, (short) 0, maximumScale, null, null, JdbcTypes.radix(type)});
        }
        return result(columns, rows);
    }

    // ---- objects Parallax does not have yet: empty, with JDBC's columns ----

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ:short", "PK_NAME");
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return emptyForeignKeys();
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return emptyForeignKeys();
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog,
                                       String foreignSchema, String foreignTable) throws SQLException {
        return emptyForeignKeys();
    }

    private ResultSet emptyForeignKeys() throws SQLException {
        return empty("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME",
                "FKCOLUMN_NAME", "KEY_SEQ:short", "UPDATE_RULE:short", "DELETE_RULE:short", "FK_NAME", "PK_NAME", "DEFERRABILITY:short");
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate) throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE:bool", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE:short",
                "ORDINAL_POSITION:short", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY:long", "PAGES:long", "FILTER_CONDITION");
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern) throws SQLException {
        return empty("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED1", "RESERVED2", "RESERVED3", "REMARKS",
                "PROCEDURE_TYPE:short", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern)
            throws SQLException {
        return empty("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "COLUMN_NAME", "COLUMN_TYPE:short", "DATA_TYPE:int",
                "TYPE_NAME", "PRECISION:int", "LENGTH:int", "SCALE:short", "RADIX:short", "NULLABLE:short", "REMARKS", "COLUMN_DEF",
                "SQL_DATA_TYPE:int", "SQL_DATETIME_SUB:int", "CHAR_OCTET_LENGTH:int", "ORDINAL_POSITION:int", "IS_NULLABLE",
                "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) throws SQLException {
        return empty("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", "FUNCTION_TYPE:short", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern)
            throws SQLException {
        return empty("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "COLUMN_NAME", "COLUMN_TYPE:short", "DATA_TYPE:int",
                "TYPE_NAME", "PRECISION:int", "LENGTH:int", "SCALE:short", "RADIX:short", "NULLABLE:short", "REMARKS",
                "CHAR_OCTET_LENGTH:int", "ORDINAL_POSITION:int", "IS_NULLABLE", "SPECIFIC_NAME");
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern) throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE", "IS_GRANTABLE");
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "GRANTOR", "GRANTEE", "PRIVILEGE", "IS_GRANTABLE");
    }

    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable) throws SQLException {
        return emptyRowIdentifier();
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return emptyRowIdentifier();
    }

    private ResultSet emptyRowIdentifier() throws SQLException {
        return empty("SCOPE:short", "COLUMN_NAME", "DATA_TYPE:int", "TYPE_NAME", "COLUMN_SIZE:int", "BUFFER_LENGTH:int",
                "DECIMAL_DIGITS:short", "PSEUDO_COLUMN:short");
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) throws SQLException {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "CLASS_NAME", "DATA_TYPE:int", "REMARKS", "BASE_TYPE:short");
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SUPERTYPE_CAT", "SUPERTYPE_SCHEM", "SUPERTYPE_NAME");
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME");
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern)
            throws SQLException {
        return empty("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "ATTR_NAME", "DATA_TYPE:int", "ATTR_TYPE_NAME", "ATTR_SIZE:int",
                "DECIMAL_DIGITS:int", "NUM_PREC_RADIX:int", "NULLABLE:int", "REMARKS", "ATTR_DEF", "SQL_DATA_TYPE:int",
                "SQL_DATETIME_SUB:int", "CHAR_OCTET_LENGTH:int", "ORDINAL_POSITION:int", "IS_NULLABLE", "SCOPE_CATALOG",
                "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE:short");
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return empty("NAME", "MAX_LEN:int", "DEFAULT_VALUE", "DESCRIPTION");
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return empty("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE:int", "COLUMN_SIZE:int",
                "DECIMAL_DIGITS:int", "NUM_PREC_RADIX:int", "COLUMN_USAGE", "REMARKS", "CHAR_OCTET_LENGTH:int", "IS_NULLABLE");
    }

    // ---- building results ----

    /**
     * Result columns from specs {@code NAME} (text) or {@code NAME:int|short|long|bool}, the types
     * the JDBC specification gives each metadata column.
     */
    private static List<ResultColumn> columns(String... specs) {
        List<ResultColumn> columns = new ArrayList<>(specs.length);
        for (String spec : specs) {
            int colon = spec.indexOf(':');
            String name = colon < 0 ? spec : spec.substring(0, colon);
            DataType type = colon < 0 ? DataType.TEXT : switch (spec.substring(colon + 1)) {
                case "int" -> DataType.INTEGER;
                case "short" -> DataType.SMALLINT;
                case "long" -> DataType.BIGINT;
                case "bool" -> DataType.BOOLEAN;
                default -> throw new IllegalArgumentException("unknown column type in " + spec);
            };
            columns.add(new ResultColumn(name, type));
        }
        return columns;
    }

    private ResultSet result(List<ResultColumn> columns, List<Object[]> rows) {
        return new ParallaxResultSet(null, new RowListResult(columns, rows), 0);
    }

    private ResultSet empty(String... specs) throws SQLException {
        connection.checkOpen();
        return result(columns(specs), List.of());
    }

    // ---- what the engine supports ----

    @Override
    public boolean allProceduresAreCallable() {
        return true;
    }

    @Override
    public boolean allTablesAreSelectable() {
        return true;
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public boolean nullsAreSortedHigh() {
        return true;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() {
        return false;
    }

    @Override
    public String getDatabaseProductName() {
        return "Parallax";
    }

    @Override
    public String getDatabaseProductVersion() {
        return ParallaxDriver.VERSION;
    }

    @Override
    public String getDriverName() {
        return ParallaxDriver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return ParallaxDriver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return ParallaxDriver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return ParallaxDriver.MINOR_VERSION;
    }

    @Override
    public boolean usesLocalFiles() {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() {
        return false;
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public String getIdentifierQuoteString() {
        return "\"";
    }

    @Override
    public String getSQLKeywords() {
        return "analyze,copy,explain,limit,offset,reset,show,verbose";
    }

    @Override
    public String getNumericFunctions() {
        return "abs,bitand,power,random,round,sqrt";
    }

    @Override
    public String getStringFunctions() {
        return "char_length,character_length,lower,md5,substring,upper";
    }

    @Override
    public String getSystemFunctions() {
        return "";
    }

    @Override
    public String getTimeDateFunctions() {
        return "clock_timestamp,date_trunc,extract,now";
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getExtraNameCharacters() {
        return "";
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean nullPlusNonNullIsNull() {
        return true;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() {
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupBy() {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() {
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() {
        return false;
    }

    @Override
    public boolean supportsMultipleResultSets() {
        return true;
    }

    @Override
    public boolean supportsMultipleTransactions() {
        return true;
    }

    @Override
    public boolean supportsNonNullableColumns() {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() {
        return true;
    }

    @Override
    public boolean supportsCoreSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() {
        return false;
    }

    @Override
    public boolean supportsOuterJoins() {
        return false;
    }

    @Override
    public boolean supportsFullOuterJoins() {
        return false;
    }

    @Override
    public boolean supportsLimitedOuterJoins() {
        return false;
    }

    @Override
    public String getSchemaTerm() {
        return "schema";
    }

    @Override
    public String getProcedureTerm() {
        return "procedure";
    }

    @Override
    public String getCatalogTerm() {
        return "database";
    }

    @Override
    public boolean isCatalogAtStart() {
        return true;
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    @Override
    public boolean supportsSchemasInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInComparisons() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInExists() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInIns() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() {
        return false;
    }

    @Override
    public boolean supportsCorrelatedSubqueries() {
        return false;
    }

    @Override
    public boolean supportsUnion() {
        return false;
    }

    @Override
    public boolean supportsUnionAll() {
        return false;
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() {
        return false;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() {
        return true;
    }

    @Override
    public int getMaxBinaryLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() {
        return 63;
    }

    @Override
    public int getMaxColumnsInGroupBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() {
        return 1600;
    }

    @Override
    public int getMaxConnections() {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() {
        return 0;
    }

    @Override
    public int getMaxIndexLength() {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() {
        return 63;
    }

    @Override
    public int getMaxProcedureNameLength() {
        return 63;
    }

    @Override
    public int getMaxCatalogNameLength() {
        return 0;
    }

    @Override
    public int getMaxRowSize() {
        return 0;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() {
        return false;
    }

    @Override
    public int getMaxStatementLength() {
        return 0;
    }

    @Override
    public int getMaxStatements() {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() {
        return 63;
    }

    @Override
    public int getMaxTablesInSelect() {
        return 1;
    }

    @Override
    public int getMaxUserNameLength() {
        return 0;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsTransactions() {
        return false;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_NONE;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() {
        return false;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) {
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsSavepoints() {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() {
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return true;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getDatabaseMajorVersion() {
        return ParallaxDriver.MAJOR_VERSION;
    }

    @Override
    public int getDatabaseMinorVersion() {
        return ParallaxDriver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 3;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() {
        return false;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() {
        return false;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() {
        return false;
    }

    @Override
    public long getMaxLogicalLobSize() {
        return 0;
    }

    @Override
    public boolean supportsRefCursors() {
        return false;
    }

    @Override
    public boolean supportsSharding() {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return JdbcWrappers.unwrap(iface, this);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
