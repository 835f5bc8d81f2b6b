package dev.parallax.planner.statement;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Objects;

/**
 * A relation's name as a statement writes it: {@code name}, {@code public.name} or
 * {@code pg_temp.name}. An unqualified name is looked up along PostgreSQL's search path, the
 * session's temporary relations first; a qualified one only in its schema, so {@code public.t}
 * reaches the permanent {@code t} that a temporary {@code t} hides, as it does in a query.
 *
 * @param schema where the name is looked up
 * @param name   the relation's catalog name (unquoted identifiers folded to lower case)
 */
public record RelationName(Schema schema, String name) {
    /** The schema a name is qualified by, or none. */
    public enum Schema {
        /** Unqualified: the session's temporary relations, then the database's. */
        SEARCH_PATH(null),
        /** {@code public.name}: the database's relations, past any temporary one of the name. */
        PUBLIC("public"),
        /** {@code pg_temp.name}: the session's temporary relations only. */
        TEMPORARY("pg_temp");

        private final String writtenName;

        Schema(String writtenName) {
            this.writtenName = writtenName;
        }

        /** The schema a name written {@code schema.name} is in, or null for a schema Parallax does not have. */
        public static Schema written(String schema) {
            return switch (schema) {
                case "public" -> PUBLIC;
                case "pg_temp" -> TEMPORARY;
                default -> null;
            };
        }
    }

    public RelationName {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(name, "name");
    }

    /** A name written without a schema. */
    public static RelationName unqualified(String name) {
        return new RelationName(Schema.SEARCH_PATH, name);
    }

    /**
     * {@code schema.name}; 0A000 for a schema other than {@code public} and {@code pg_temp}, the
     * ones there are, blamed on {@code position} (1-based, 0 for none) where the schema is written.
     */
    public static RelationName qualified(String schema, String name, int position) {
        Schema written = Schema.written(schema);
        if (written == null) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "schema \"" + schema + "\" does not exist", null,
                    "Parallax has only the schema \"public\".", position, null);
        }
        return new RelationName(written, name);
    }

    /** The schema's name as written ({@code public}, {@code pg_temp}), null for an unqualified name. */
    public String schemaName() {
        return schema.writtenName;
    }

    public boolean qualified() {
        return schema != Schema.SEARCH_PATH;
    }

    /**
     * The part of {@code catalog} (the session's view of it) this name is looked up in: the whole
     * of it for an unqualified name, the database's relations for {@code public}, the session's
     * temporary ones for {@code pg_temp}; 3F000 when the session has no temporary schema yet, as
     * PostgreSQL makes it with the first temporary table.
     */
    public Catalog namespace(Catalog catalog) {
        if (!(catalog instanceof SessionCatalog session)) {
            return catalog;
        }
        return switch (schema) {
            case SEARCH_PATH -> session;
            case PUBLIC -> session.shared();
            case TEMPORARY -> {
                if (session.temporaryNamespaceOid() == 0) {
                    throw ParallaxException.of(SqlState.INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema.writtenName);
                }
                yield session.temporary();
            }
        };
    }

    /** The table this name finds in {@code catalog}, or null. */
    public Table findTable(Catalog catalog) {
        return namespace(catalog).findTable(name);
    }

    /** The table this name finds in {@code catalog}; 42P01 naming it as written when there is none. */
    public Table table(Catalog catalog) {
        Table table = findTable(catalog);
        if (table == null) {
            throw notFound();
        }
        return table;
    }

    /** PostgreSQL's 42P01 for a relation looked up by this name: {@code relation "public.t" does not exist}. */
    public ParallaxException notFound() {
        return ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", this);
    }

    /** The name as PostgreSQL quotes it in messages: with its schema when written with one. */
    @Override
    public String toString() {
        return qualified() ? schema.writtenName + "." + name : name;
    }
}
