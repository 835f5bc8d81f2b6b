package dev.parallax.engine.catalog;

import java.util.Objects;

/**
 * A comment given by COMMENT ON TABLE | VIEW | SEQUENCE | INDEX | COLUMN: on the relation with
 * object identifier {@code relationOid} itself ({@code columnName} null) or on one of its columns,
 * named (Parallax renumbers columns when one is dropped, PostgreSQL keeps attnum; the name stays).
 */
public record RelationComment(long relationOid, String columnName, String text) {
    public RelationComment {
        Objects.requireNonNull(text, "text");
    }
}
