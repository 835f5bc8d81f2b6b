package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.progress.PgCatalogViews;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.statement.PrivilegeStatement;

import java.util.List;
import java.util.Set;

/**
 * Runs GRANT, REVOKE and ALTER ... OWNER TO. Parallax has one role (pg_roles' {@code parallax}) and
 * checks no privileges: every session, under whatever user name it connected with, may do all a
 * PostgreSQL superuser may, and every object belongs to that one owner. Giving or taking a privilege
 * or an owner therefore changes nothing, and the statement only checks, as PostgreSQL does, that the
 * objects and roles it names exist, then answers with PostgreSQL's tag. The roles that exist are
 * {@code parallax} and the session's user ({@code session_authorization}: the name a wire client
 * connected as), so a dump taken by that user restores its OWNER TO and GRANT lines, and a dump
 * naming other roles fails there with 42704 as in a PostgreSQL cluster lacking those roles.
 */
final class PrivilegeCommand {
    /** The schemas Parallax has: names of the relations it holds, its catalog views and the SQL standard's. */
    private static final Set<String> SCHEMAS = Set.of("public", "pg_catalog", "information_schema");

    private final SqlSession session;

    PrivilegeCommand(SqlSession session) {
        this.session = session;
    }

    Result run(PrivilegeStatement statement) {
        boolean owner = statement.privileges().isEmpty();
        if (!owner) {
            // PostgreSQL resolves the grantees before the objects.
            checkRoles(statement.roles());
        }
        Catalog catalog = session.catalog();
        for (String name : statement.objectNames()) {
            switch (statement.kind()) {
                case SCHEMA -> {
                    if (!SCHEMAS.contains(name)) {
                        throw ParallaxException.of(SqlState.INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", name);
                    }
                }
                case RELATION, VIEW, SEQUENCE -> {
                    Table table = catalog.findTable(name);
                    View view = table == null ? catalog.findView(name) : null;
                    boolean sequence = table == null && view == null && catalog.findSequence(name) != null;
                    if (table == null && view == null && !sequence) {
                        if (statement.ifExists()) {
                            return new CommandResult(statement.commandTag(), 0, List.of("relation \"" + name + "\" does not exist, skipping"));
                        }
                        throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
                    }
                    if (statement.kind() == PrivilegeStatement.ObjectKind.VIEW && view == null) {
                        throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a view", name);
                    }
                    if (statement.kind() == PrivilegeStatement.ObjectKind.SEQUENCE && !sequence) {
                        throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", name);
                    }
                    for (String column : statement.columns()) {
                        boolean found = table != null ? table.columnIndex(column) >= 0 : view != null && view.columnNames().contains(column);
                        if (!found) {
                            throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", column, name);
                        }
                    }
                }
            }
        }
        if (owner) {
            checkRoles(statement.roles());
        }
        return new CommandResult(statement.commandTag());
    }

    /** 42704 for a role that is neither Parallax's one role nor the session's user; PUBLIC and CURRENT_USER always exist. */
    private void checkRoles(List<PrivilegeStatement.Role> roles) {
        String sessionUser = session.settings().show("session_authorization");
        for (PrivilegeStatement.Role role : roles) {
            if (role.kind() == PrivilegeStatement.Role.Kind.NAMED && !role.name().equals(PgCatalogViews.OWNER) && !role.name().equals(sessionUser)) {
                throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "role \"%s\" does not exist", role.name());
            }
        }
    }
}
