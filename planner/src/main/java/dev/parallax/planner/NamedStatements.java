package dev.parallax.planner;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's named prepared statements: PostgreSQL keeps those of SQL {@code PREPARE} and the
 * extended protocol's named statements in one namespace per session, so a name taken by either
 * is taken for both (42P05), {@code EXECUTE} and {@code DEALLOCATE} reach both, and
 * pg_prepared_statements lists both. Used by the session's thread only.
 */
final class NamedStatements {
    private final Map<String, NamedStatement> statements = new LinkedHashMap<>();

    /** One named statement and what pg_prepared_statements shows of it. */
    static final class NamedStatement {
        private final String name;
        private final String text;
        private final Instant prepareTime;
        private final List<DataType> parameterTypes;
        private final boolean fromSql;
        private final SqlPreparedQuery query;

        NamedStatement(String name, String text, List<DataType> parameterTypes, boolean fromSql, SqlPreparedQuery query) {
            this.name = name;
            this.text = text;
            this.prepareTime = Instant.now();
            this.parameterTypes = List.copyOf(parameterTypes);
            this.fromSql = fromSql;
            this.query = query;
        }

        String name() {
            return name;
        }

        /** The PREPARE statement as the client sent it, or the protocol-level statement's query. */
        String text() {
            return text;
        }

        Instant prepareTime() {
            return prepareTime;
        }

        /** Declared or inferred, one per parameter EXECUTE takes. */
        List<DataType> parameterTypes() {
            return parameterTypes;
        }

        boolean fromSql() {
            return fromSql;
        }

        SqlPreparedQuery query() {
            return query;
        }

    }

    /** Adds {@code statement}; 42P05 when its name is taken. */
    void add(NamedStatement statement) {
        checkFree(statement.name());
        statements.put(statement.name(), statement);
    }

    /** PostgreSQL's 42P05 when {@code name} is taken. */
    void checkFree(String name) {
        if (statements.containsKey(name)) {
            throw ParallaxException.of(SqlState.DUPLICATE_PREPARED_STATEMENT, "prepared statement \"%s\" already exists", name);
        }
    }

    /** The statement named {@code name}; 26000 when there is none. */
    NamedStatement get(String name) {
        NamedStatement statement = statements.get(name);
        if (statement == null) {
            throw ParallaxException.of(SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", name);
        }
        return statement;
    }

    /** The statement named {@code name}, or null. */
    NamedStatement find(String name) {
        return statements.get(name);
    }

    /** Removes and closes the statement named {@code name}; 26000 when there is none. */
    void remove(String name) {
        get(name);
        statements.remove(name).query().close();
    }

    /** Removes and closes every statement. */
    void clear() {
        for (NamedStatement statement : statements.values()) {
            statement.query().close();
        }
        statements.clear();
    }

    /** The statements in the order they were prepared. */
    List<NamedStatement> list() {
        return new ArrayList<>(statements.values());
    }
}
