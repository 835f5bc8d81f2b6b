package dev.parallax.planner;

import dev.parallax.Result;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.View;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.result.CommandResult;
import dev.parallax.planner.statement.CommentStatement;

/**
 * COMMENT ON: checks the object as PostgreSQL does (42P01 when there is none, 42809 when the
 * relation is of another kind, 42703 for a missing column) and keeps the comment in the catalog,
 * where obj_description, col_description, pg_description and psql's {@code \d+} read it.
 */
final class CommentCommand {
    private final SqlSession session;

    CommentCommand(SqlSession session) {
        this.session = session;
    }

    Result run(CommentStatement comment) {
        Catalog catalog = comment.relationName().namespace(session.catalog());
        String name = comment.relationName().name();
        Table table = catalog.findTable(name);
        View view = table == null ? catalog.findView(name) : null;
        boolean sequence = table == null && view == null && catalog.findSequence(name) != null;
        boolean index = table == null && view == null && !sequence && (catalog.findIndex(name) != null || catalog.findKeyTable(name) != null);
        if (table == null && view == null && !sequence && !index) {
            throw comment.relationName().notFound();
        }
        String column = null;
        switch (comment.kind()) {
            case TABLE -> requireKind(table != null && !table.isSystemView(), name, "a table");
            case VIEW -> requireKind(view != null, name, "a view");
            case SEQUENCE -> requireKind(sequence, name, "a sequence");
            case INDEX -> requireKind(index, name, "an index");
            case COLUMN -> {
                column = comment.columnName();
                boolean found = table != null ? table.columnIndex(column) >= 0 : view != null && view.columnNames().contains(column);
                if (!found) {
                    throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", column, name);
                }
            }
        }
        // The session's catalog finds the relation's namespace by its object id.
        session.catalog().setComment(catalog.relationOid(name), column, comment.text());
        return new CommandResult("COMMENT");
    }

    private static void requireKind(boolean matches, String name, String kind) {
        if (!matches) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "\"%s\" is not %s", name, kind);
        }
    }
}
