package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.View;

import java.util.List;

/**
 * The views of {@code information_schema} that tools read to discover tables and columns, defined
 * as PostgreSQL defines them: queries over the pg_catalog views. Column names are the SQL
 * standard's; the values are text and integers where PostgreSQL uses its sql_identifier,
 * character_data and cardinal_number domains.
 */
public final class InformationSchemaViews {
    private static final View TABLES = new View("tables", List.of(
            "table_catalog", "table_schema", "table_name", "table_type", "self_referencing_column_name",
            "reference_generation", "user_defined_type_catalog", "user_defined_type_schema", "user_defined_type_name",
            "is_insertable_into", "is_typed", "commit_action"), """
            select current_database(), n.nspname, c.relname,
                   case when c.relkind in ('r', 'p') and c.relpersistence = 't' then 'LOCAL TEMPORARY'
                        when c.relkind in ('r', 'p') then 'BASE TABLE' else 'VIEW' end,
                   cast(null as text), cast(null as text), cast(null as text), cast(null as text), cast(null as text),
                   case when c.relkind in ('r', 'p') and n.nspname <> 'pg_catalog' then 'YES' else 'NO' end, 'NO',
                   cast(null as text)
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where c.relkind in ('r', 'p', 'v')""");

    private static final View COLUMNS = new View("columns", List.of(
            "table_catalog", "table_schema", "table_name", "column_name", "ordinal_position", "column_default",
            "is_nullable", "data_type", "character_maximum_length", "character_octet_length", "numeric_precision",
            "numeric_precision_radix", "numeric_scale", "datetime_precision", "udt_catalog", "udt_schema", "udt_name",
            "is_identity", "is_generated", "is_updatable"), """
            select current_database(), n.nspname, c.relname, a.attname, cast(a.attnum as integer), d.adbin,
                   case when a.attnotnull then 'NO' else 'YES' end,
                   case a.atttypid when 1042 then 'character' when 1560 then 'bit'
                        else pg_catalog.format_type(a.atttypid, null) end,
                   case when a.atttypid in (1042, 1043) and a.atttypmod > 0 then a.atttypmod - 4
                        when a.atttypid in (1560, 1562) and a.atttypmod > 0 then a.atttypmod end,
                   case when a.atttypid in (1042, 1043) and a.atttypmod > 0 then 4 * (a.atttypmod - 4)
                        when a.atttypid in (25, 1042, 1043) then 1073741824 end,
                   case a.atttypid when 21 then 16 when 23 then 32 when 20 then 64 when 700 then 24 when 701 then 53
                        when 1700 then case when a.atttypmod > 0 then (a.atttypmod - 4) / 65536 end end,
                   case when a.atttypid in (21, 23, 20, 700, 701) then 2 when a.atttypid = 1700 then 10 end,
                   case when a.atttypid in (21, 23, 20) then 0
                        when a.atttypid = 1700 and a.atttypmod > 0 then mod(a.atttypmod - 4, 65536) end,
                   case when a.atttypid = 1082 then 0 when a.atttypid in (1114, 1184) then case when a.atttypmod < 0 then 6 else a.atttypmod end
                        when a.atttypid = 1186 then 6 end,
                   current_database(), 'pg_catalog', t.typname,
                   case when a.attidentity in ('a', 'd') then 'YES' else 'NO' end, 'NEVER',
                   case when c.relkind in ('r', 'p') and n.nspname <> 'pg_catalog' then 'YES' else 'NO' end
            from pg_catalog.pg_attribute a
                 join pg_catalog.pg_class c on c.oid = a.attrelid
                 join pg_catalog.pg_namespace n on n.oid = c.relnamespace
                 join pg_catalog.pg_type t on t.oid = a.atttypid
                 left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
            where c.relkind in ('r', 'p', 'v') and a.attnum > 0 and not a.attisdropped""");

    private static final View SCHEMATA = new View("schemata", List.of(
            "catalog_name", "schema_name", "schema_owner", "default_character_set_catalog",
            "default_character_set_schema", "default_character_set_name", "sql_path"), """
            select current_database(), n.nspname, pg_catalog.pg_get_userbyid(n.nspowner), cast(null as text),
                   cast(null as text), cast(null as text), cast(null as text)
            from pg_catalog.pg_namespace n""");

    /**
     * The PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK constraints of pg_constraint (PostgreSQL also
     * lists each NOT NULL column as a CHECK named after OIDs; Parallax does not).
     */
    private static final View TABLE_CONSTRAINTS = new View("table_constraints", List.of(
            "constraint_catalog", "constraint_schema", "constraint_name", "table_catalog", "table_schema", "table_name",
            "constraint_type", "is_deferrable", "initially_deferred", "enforced", "nulls_distinct"), """
            select current_database(), n.nspname, con.conname, current_database(), n.nspname, c.relname,
                   case con.contype when 'c' then 'CHECK' when 'f' then 'FOREIGN KEY' when 'p' then 'PRIMARY KEY'
                        when 'u' then 'UNIQUE' end,
                   case when con.condeferrable then 'YES' else 'NO' end, case when con.condeferred then 'YES' else 'NO' end,
                   'YES', case when con.contype = 'u' then 'YES' end
            from pg_catalog.pg_constraint con
                 join pg_catalog.pg_class c on c.oid = con.conrelid
                 join pg_catalog.pg_namespace n on n.oid = con.connamespace
            where c.relkind in ('r', 'p')""");

    /** The FOREIGN KEY constraints with the name of the key they reference and their rules. */
    private static final View REFERENTIAL_CONSTRAINTS = new View("referential_constraints", List.of(
            "constraint_catalog", "constraint_schema", "constraint_name", "unique_constraint_catalog", "unique_constraint_schema",
            "unique_constraint_name", "match_option", "update_rule", "delete_rule"), """
            select current_database(), n.nspname, con.conname, current_database(), n.nspname, referenced.conname,
                   case con.confmatchtype when 'f' then 'FULL' when 'p' then 'PARTIAL' else 'NONE' end,
                   case con.confupdtype when 'c' then 'CASCADE' when 'n' then 'SET NULL' when 'd' then 'SET DEFAULT'
                        when 'r' then 'RESTRICT' else 'NO ACTION' end,
                   case con.confdeltype when 'c' then 'CASCADE' when 'n' then 'SET NULL' when 'd' then 'SET DEFAULT'
                        when 'r' then 'RESTRICT' else 'NO ACTION' end
            from pg_catalog.pg_constraint con
                 join pg_catalog.pg_namespace n on n.oid = con.connamespace
                 left join pg_catalog.pg_constraint referenced
                      on referenced.conindid = con.conindid and referenced.contype in ('p', 'u')
            where con.contype = 'f'""");

    /** The views, each named without its schema. */
    public static final List<View> VIEWS = List.of(TABLES, COLUMNS, SCHEMATA, TABLE_CONSTRAINTS, REFERENTIAL_CONSTRAINTS);

    private InformationSchemaViews() {
    }
}
