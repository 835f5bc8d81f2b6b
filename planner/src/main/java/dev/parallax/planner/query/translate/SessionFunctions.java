package dev.parallax.planner.query.translate;

import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.function.ParallaxFunctions;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The functions whose value is fixed for a session ({@code version()}, {@code pg_reload_conf()}, {@code current_database()} and
 * its SQL-standard name {@code current_catalog},
 * {@code current_schema}, {@code current_user}, {@code session_user}, {@code user}): evaluated once
 * when the statement is planned, so that the executor sees a text literal and not a per-row call.
 * The values come from the session's settings ({@code session_authorization}, {@code server_version}),
 * which are part of the plan cache's key, so a cached plan never shows another session's user.
 */
final class SessionFunctions {
    /** The one database an embedded Parallax instance holds. */
    static final String DATABASE_NAME = "parallax";
    /** Where unqualified tables live: PostgreSQL's {@code public} schema. */
    static final String SCHEMA_NAME = "public";

    private SessionFunctions() {
    }

    /** The literal value of {@code operator} in this session, or null when it is not a session function. */
    static Literal value(SqlOperator operator, Settings settings) {
        if (operator == ParallaxFunctions.PG_RELOAD_CONF) {
            return Literal.ofLong(1, DataType.BOOLEAN);
        }
        if (operator == ParallaxFunctions.PI || operator == SqlStdOperatorTable.PI) {
            return new Literal(Math.PI, DataType.DOUBLE);
        }
        String value;
        if (operator == ParallaxFunctions.VERSION) {
            value = version(settings.show("server_version"));
        } else if (operator == ParallaxFunctions.CURRENT_DATABASE || operator == SqlStdOperatorTable.CURRENT_CATALOG) {
            value = DATABASE_NAME;
        } else if (operator == ParallaxFunctions.CURRENT_SCHEMA || operator == SqlStdOperatorTable.CURRENT_SCHEMA) {
            value = SCHEMA_NAME;
        } else if (operator == SqlStdOperatorTable.CURRENT_USER || operator == SqlStdOperatorTable.SESSION_USER
                || operator == SqlStdOperatorTable.USER || operator == SqlStdOperatorTable.CURRENT_ROLE) {
            value = settings.show("session_authorization");
        } else {
            return null;
        }
        return new Literal(value.getBytes(StandardCharsets.UTF_8), DataType.TEXT);
    }

    /**
     * PostgreSQL's shape, {@code PostgreSQL 15.0 on x86_64-pc-linux-gnu, compiled by ..., 64-bit}:
     * clients (pgJDBC, psql, ORMs) take the version from the second word.
     */
    static String version(String serverVersion) {
        return "PostgreSQL " + serverVersion + " on " + System.getProperty("os.arch") + "-"
                + System.getProperty("os.name").toLowerCase(Locale.ROOT) + ", compiled by Java "
                + Runtime.version().feature() + ", 64-bit";
    }
}
