package dev.parallax.planner.statement;

/**
 * {@code SELECT [pg_catalog.]set_config('name', 'value', is_local)} with constants, as pg_dump writes
 * it ({@code SELECT pg_catalog.set_config('search_path', '', false);}): SET or SET LOCAL of the
 * setting, answered with one row, the setting's new value, as PostgreSQL's function returns it.
 * Other calls of set_config (inside a larger query, with expressions) are not this statement.
 */
public record SetConfigStatement(String name, String value, boolean local) implements Statement {
}
