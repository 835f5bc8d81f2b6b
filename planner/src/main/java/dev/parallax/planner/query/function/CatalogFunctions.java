package dev.parallax.planner.query.function;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperatorBinding;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * PostgreSQL's system-catalog functions and regular-expression operators, as Calcite functions the
 * validator types. None reaches the engine as a call: {@code CatalogFunctionExpander} replaces the
 * catalog functions by expressions over a snapshot of the catalog taken when the statement is
 * planned (plans are cached per catalog version, so the snapshot is never stale), and the regular
 * expression functions map to the engine's match functions.
 */
public final class CatalogFunctions {
    private static final SqlReturnTypeInference NULLABLE_TEXT =
            ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.FORCE_NULLABLE);
    private static final SqlReturnTypeInference NULLABLE_BIGINT =
            ReturnTypes.explicit(SqlTypeName.BIGINT).andThen(SqlTypeTransforms.FORCE_NULLABLE);
    /** A relation (or database) by OID or by name. */
    private static final org.apache.calcite.sql.type.SqlOperandTypeChecker RELATION =
            OperandTypes.or(OperandTypes.NUMERIC, OperandTypes.CHARACTER);
    private static final SqlReturnTypeInference NULLABLE_BOOLEAN =
            ReturnTypes.explicit(SqlTypeName.BOOLEAN).andThen(SqlTypeTransforms.FORCE_NULLABLE);

    public static final SqlFunction REGEX_MATCH = regex("pg_regex_match");
    public static final SqlFunction NOT_REGEX_MATCH = regex("pg_not_regex_match");
    public static final SqlFunction REGEX_MATCH_INSENSITIVE = regex("pg_regex_match_insensitive");
    public static final SqlFunction NOT_REGEX_MATCH_INSENSITIVE = regex("pg_not_regex_match_insensitive");

    /** {@code format_type(type_oid, typmod)}: the SQL name of a type with its modifier. */
    public static final SqlFunction FORMAT_TYPE = text("format_type",
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));
    /** {@code pg_get_userbyid(role_oid)}: a role's name. */
    public static final SqlFunction GET_USER_BY_ID = text("pg_get_userbyid", OperandTypes.INTEGER);
    /** {@code pg_table_is_visible(relation_oid)}: whether the relation is found by its unqualified name. */
    public static final SqlFunction TABLE_IS_VISIBLE = SqlBasicFunction.create("pg_table_is_visible", NULLABLE_BOOLEAN,
            OperandTypes.INTEGER, SqlFunctionCategory.SYSTEM);
    /** {@code pg_type_is_visible(type_oid)}: whether the type is found by its unqualified name (every type lives in pg_catalog). */
    public static final SqlFunction TYPE_IS_VISIBLE = SqlBasicFunction.create("pg_type_is_visible", NULLABLE_BOOLEAN,
            OperandTypes.INTEGER, SqlFunctionCategory.SYSTEM);
    /**
     * {@code pg_function_is_visible(function_oid)}, {@code pg_get_function_result(function_oid)},
     * {@code pg_get_function_arguments(function_oid)}: about a function of pg_proc, which lists none
     * (Parallax has no user-defined functions): NULL, PostgreSQL's answer for an unknown OID.
     */
    public static final SqlFunction FUNCTION_IS_VISIBLE = SqlBasicFunction.create("pg_function_is_visible", NULLABLE_BOOLEAN,
            OperandTypes.INTEGER, SqlFunctionCategory.SYSTEM);
    public static final SqlFunction GET_FUNCTION_RESULT = text("pg_get_function_result", OperandTypes.INTEGER);
    public static final SqlFunction GET_FUNCTION_ARGUMENTS = text("pg_get_function_arguments", OperandTypes.INTEGER);
    /**
     * {@code pg_relation_is_publishable(relation_oid)}: whether a publication could include the
     * relation (a user table or partitioned table); NULL for an unknown OID.
     */
    public static final SqlFunction RELATION_IS_PUBLISHABLE = SqlBasicFunction.create("pg_relation_is_publishable",
            NULLABLE_BOOLEAN, OperandTypes.INTEGER, SqlFunctionCategory.SYSTEM);
    /**
     * {@code pg_get_statisticsobjdef_columns(statistics_oid)}: the columns of an extended statistics
     * object; NULL, since Parallax has no such objects (PostgreSQL's answer for an unknown OID).
     */
    public static final SqlFunction STATISTICS_OBJECT_COLUMNS = text("pg_get_statisticsobjdef_columns", OperandTypes.INTEGER);
    /** {@code pg_get_indexdef(index_oid[, column, pretty])}: the CREATE INDEX command, or one key column's name. */
    public static final SqlFunction GET_INDEX_DEFINITION = text("pg_get_indexdef", OperandTypes.or(OperandTypes.INTEGER,
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN)));
    /** {@code pg_get_constraintdef(constraint_oid[, pretty])}: the constraint's definition. */
    public static final SqlFunction GET_CONSTRAINT_DEFINITION = text("pg_get_constraintdef", OperandTypes.or(
            OperandTypes.INTEGER, OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN)));
    /** {@code pg_get_partkeydef(table_oid)}: a partitioned table's key ({@code HASH (id)}); NULL for any other OID. */
    public static final SqlFunction GET_PARTITION_KEY_DEFINITION = text("pg_get_partkeydef", OperandTypes.INTEGER);
    /** {@code pg_get_partition_constraintdef(partition_oid)}: a partition's implicit constraint; NULL for any other OID. */
    public static final SqlFunction GET_PARTITION_CONSTRAINT_DEFINITION = text("pg_get_partition_constraintdef", OperandTypes.INTEGER);
    /**
     * {@code pg_get_viewdef(view_oid[, pretty])}: a view's query as it was written, in PostgreSQL's
     * frame (a leading space, a closing semicolon: {@code " select a from t;"}; PostgreSQL prints its
     * own deparsed form, qualified and indented, inside it); NULL for any other OID.
     */
    public static final SqlFunction GET_VIEW_DEFINITION = text("pg_get_viewdef", OperandTypes.or(OperandTypes.NUMERIC,
            OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.BOOLEAN)));
    /** {@code pg_get_expr(node_tree, relation_oid[, pretty])}: an expression column's text. */
    public static final SqlFunction GET_EXPRESSION = text("pg_get_expr", OperandTypes.or(
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.INTEGER, SqlTypeFamily.BOOLEAN)));
    /** {@code obj_description(oid[, catalog])}, {@code col_description(oid, column)}, {@code shobj_description(oid, catalog)}: comments. */
    public static final SqlFunction OBJECT_DESCRIPTION = text("obj_description", OperandTypes.or(OperandTypes.INTEGER,
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER)));
    public static final SqlFunction COLUMN_DESCRIPTION = text("col_description",
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.INTEGER));
    public static final SqlFunction SHARED_OBJECT_DESCRIPTION = text("shobj_description",
            OperandTypes.family(SqlTypeFamily.INTEGER, SqlTypeFamily.CHARACTER));
    /** {@code pg_encoding_to_char(encoding)}: an encoding number's name. */
    public static final SqlFunction ENCODING_TO_CHAR = text("pg_encoding_to_char", OperandTypes.INTEGER);
    /** {@code x::regclass}: a relation's name to its OID, or an OID to the relation's name. */
    public static final SqlFunction REGCLASS = SqlBasicFunction.create("pg_regclass", CatalogFunctions::regclassType,
            OperandTypes.or(OperandTypes.INTEGER, OperandTypes.CHARACTER), SqlFunctionCategory.SYSTEM);
    /**
     * {@code x::regproc}: a function's name to its OID, or an OID shown as its function's name.
     * pg_proc lists no function: a name is 42883 (psql's {@code \sf name}), an OID shows as its
     * number ({@code -} for 0), as PostgreSQL shows an OID no function has.
     */
    public static final SqlFunction REGPROC = SqlBasicFunction.create("pg_regproc", CatalogFunctions::regclassType,
            OperandTypes.or(OperandTypes.INTEGER, OperandTypes.CHARACTER), SqlFunctionCategory.SYSTEM);
    /** {@code pg_tablespace_location(tablespace_oid)}: empty for PostgreSQL's built-in pg_default and pg_global, NULL otherwise. */
    public static final SqlFunction TABLESPACE_LOCATION = text("pg_tablespace_location", OperandTypes.NUMERIC);
    /** {@code oid::regtype}: a type OID's name. */
    public static final SqlFunction REGTYPE = text("pg_regtype", OperandTypes.INTEGER);
    /** {@code oid::regnamespace}: a schema OID's name. */
    public static final SqlFunction REGNAMESPACE = text("pg_regnamespace", OperandTypes.INTEGER);
    /**
     * {@code current_schemas(include_implicit)}: the search path as an array. Only its elements can
     * be used ({@code current_schemas(true)[1]}, as pgJDBC does): the engine has no array values.
     */
    public static final SqlFunction CURRENT_SCHEMAS = SqlBasicFunction.create("current_schemas",
            binding -> binding.getTypeFactory().createArrayType(
                    binding.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), -1),
            OperandTypes.BOOLEAN, SqlFunctionCategory.SYSTEM);

    /**
     * {@code has_table_privilege}, {@code has_schema_privilege}, {@code has_database_privilege}
     * ({@code [user,] object, privilege}): Parallax has one user, the owner of every object, so
     * each holds every privilege.
     */
    public static final SqlFunction HAS_TABLE_PRIVILEGE = privilege("has_table_privilege");
    public static final SqlFunction HAS_SCHEMA_PRIVILEGE = privilege("has_schema_privilege");
    public static final SqlFunction HAS_DATABASE_PRIVILEGE = privilege("has_database_privilege");

    /**
     * PostgreSQL's size functions of a relation, by OID or by name (a name is looked up as
     * {@code ::regclass} is): {@code pg_table_size}, {@code pg_relation_size(rel[, fork])},
     * {@code pg_indexes_size}, {@code pg_total_relation_size}; and {@code pg_database_size(name or
     * oid)}. Not expanded at planning: the engine reads the sizes when the statement runs
     * ({@code RelationSizeSnapshot} says which memory counts).
     */
    public static final SqlFunction TABLE_SIZE = size("pg_table_size", RELATION);
    public static final SqlFunction RELATION_SIZE = size("pg_relation_size", OperandTypes.or(RELATION,
            OperandTypes.family(SqlTypeFamily.NUMERIC, SqlTypeFamily.CHARACTER),
            OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER)));
    public static final SqlFunction INDEXES_SIZE = size("pg_indexes_size", RELATION);
    public static final SqlFunction TOTAL_RELATION_SIZE = size("pg_total_relation_size", RELATION);
    public static final SqlFunction DATABASE_SIZE = size("pg_database_size", RELATION);
    /**
     * {@code pg_tablespace_size(oid or name)}: every relation lives in pg_default, so it holds the
     * database's bytes; pg_global holds none. 42704 for another name, NULL for another OID.
     */
    public static final SqlFunction TABLESPACE_SIZE = size("pg_tablespace_size", RELATION);
    /** {@code pg_size_pretty(bigint | numeric)}: bytes with a unit. */
    public static final SqlFunction SIZE_PRETTY = text("pg_size_pretty", OperandTypes.NUMERIC);
    /**
     * PostgreSQL's {@code pg_typeof("any")}: the argument's type name as regtype prints it (the
     * planner answers it from the argument's type; text here, as Parallax has no regtype).
     */
    public static final SqlFunction TYPE_OF = SqlBasicFunction.create("pg_typeof",
            ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.ANY, SqlFunctionCategory.SYSTEM);
    /**
     * What the validator puts in place of an untyped literal or NULL given to {@code pg_typeof}:
     * its type is unknown, which the literal's type after Calcite's typing (CHAR(n), or a cast's
     * type folded into it) no longer tells.
     */
    public static final SqlFunction UNKNOWN_LITERAL = SqlBasicFunction.create("pg_unknown_literal",
            ReturnTypes.explicit(SqlTypeName.VARCHAR), OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM);

    /** The functions above, for the validator's operator table. */
    public static final SqlOperatorTable TABLE = SqlOperatorTables.of(TYPE_OF, UNKNOWN_LITERAL, REGEX_MATCH, NOT_REGEX_MATCH, REGEX_MATCH_INSENSITIVE,
            NOT_REGEX_MATCH_INSENSITIVE, FORMAT_TYPE, GET_USER_BY_ID, TABLE_IS_VISIBLE, GET_INDEX_DEFINITION,
            GET_CONSTRAINT_DEFINITION, GET_EXPRESSION, OBJECT_DESCRIPTION, COLUMN_DESCRIPTION, SHARED_OBJECT_DESCRIPTION,
            ENCODING_TO_CHAR, REGCLASS, REGTYPE, REGNAMESPACE, CURRENT_SCHEMAS, HAS_TABLE_PRIVILEGE,
            HAS_SCHEMA_PRIVILEGE, HAS_DATABASE_PRIVILEGE, RELATION_IS_PUBLISHABLE, STATISTICS_OBJECT_COLUMNS,
            GET_PARTITION_KEY_DEFINITION, GET_PARTITION_CONSTRAINT_DEFINITION, TYPE_IS_VISIBLE, FUNCTION_IS_VISIBLE,
            GET_FUNCTION_RESULT, GET_FUNCTION_ARGUMENTS, TABLE_SIZE, RELATION_SIZE, INDEXES_SIZE, TOTAL_RELATION_SIZE,
            DATABASE_SIZE, SIZE_PRETTY, GET_VIEW_DEFINITION, REGPROC, TABLESPACE_LOCATION, TABLESPACE_SIZE);

    /**
     * PostgreSQL's own functions whose names start with {@code pg_}: a result column is named after
     * them, unlike the {@code pg_*} calls the dialect rewrite makes of operators ({@code pg_regex_match}).
     */
    public static final java.util.Set<String> POSTGRES_NAMED = java.util.stream.Stream.of(GET_USER_BY_ID, TABLE_IS_VISIBLE,
            TYPE_IS_VISIBLE, FUNCTION_IS_VISIBLE, GET_FUNCTION_RESULT, GET_FUNCTION_ARGUMENTS, RELATION_IS_PUBLISHABLE,
            STATISTICS_OBJECT_COLUMNS, GET_INDEX_DEFINITION, GET_CONSTRAINT_DEFINITION, GET_PARTITION_KEY_DEFINITION,
            GET_PARTITION_CONSTRAINT_DEFINITION, GET_EXPRESSION, ENCODING_TO_CHAR, GET_VIEW_DEFINITION, TABLESPACE_LOCATION, TABLE_SIZE, RELATION_SIZE, INDEXES_SIZE,
            TOTAL_RELATION_SIZE, DATABASE_SIZE, TABLESPACE_SIZE, SIZE_PRETTY, TYPE_OF).map(SqlFunction::getName).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** The size functions that take a relation (a name is resolved as {@code ::regclass}). */
    public static final java.util.Set<SqlFunction> RELATION_SIZE_FUNCTIONS = java.util.Set.of(TABLE_SIZE, RELATION_SIZE, INDEXES_SIZE,
            TOTAL_RELATION_SIZE);

    private CatalogFunctions() {
    }

    private static SqlFunction regex(String name) {
        return SqlBasicFunction.create(name, ReturnTypes.BOOLEAN_NULLABLE,
                OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.CHARACTER), SqlFunctionCategory.STRING);
    }

    /** An object by OID or name, then the privilege; or a user first. */
    private static SqlFunction privilege(String name) {
        SqlTypeFamily object = SqlTypeFamily.ANY;
        return SqlBasicFunction.create(name, NULLABLE_BOOLEAN, OperandTypes.or(
                OperandTypes.family(object, SqlTypeFamily.CHARACTER),
                OperandTypes.family(object, object, SqlTypeFamily.CHARACTER)), SqlFunctionCategory.SYSTEM);
    }

    private static SqlFunction size(String name, org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return SqlBasicFunction.create(name, NULLABLE_BIGINT, operands, SqlFunctionCategory.SYSTEM);
    }

    private static SqlFunction text(String name, org.apache.calcite.sql.type.SqlOperandTypeChecker operands) {
        return SqlBasicFunction.create(name, NULLABLE_TEXT, operands, SqlFunctionCategory.SYSTEM);
    }

    /** A name gives an OID (bigint), an OID gives a name. */
    private static RelDataType regclassType(SqlOperatorBinding binding) {
        boolean name = SqlTypeFamily.CHARACTER.contains(binding.getOperandType(0));
        return binding.getTypeFactory().createTypeWithNullability(
                binding.getTypeFactory().createSqlType(name ? SqlTypeName.BIGINT : SqlTypeName.VARCHAR), true);
    }
}
