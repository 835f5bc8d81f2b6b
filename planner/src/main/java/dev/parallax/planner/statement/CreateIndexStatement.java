package dev.parallax.planner.statement;

import java.util.List;
import java.util.Objects;

/**
 * {@code CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT EXISTS] name] ON [ONLY] table [USING btree] (column [ASC] [NULLS LAST], ...)}.
 *
 * @param unique       CREATE UNIQUE INDEX: a unique index on Chronicle Map, enforced as a UNIQUE constraint's
 * @param indexName    the index's name, or null to let the command choose one as PostgreSQL does ({@code table_col_idx})
 * @param columnNames  the key columns, most significant first
 * @param only         ON ONLY: the index of a partitioned table alone
 * @param concurrently accepted as PostgreSQL's option; an in-memory build never blocks the table's writers
 */
public record CreateIndexStatement(String indexName, boolean ifNotExists, String tableName, List<String> columnNames,
                                   boolean concurrently, boolean unique, boolean only) implements Statement {
    public CreateIndexStatement {
        Objects.requireNonNull(tableName, "tableName");
        columnNames = List.copyOf(columnNames);
    }
}
