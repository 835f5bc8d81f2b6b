package dev.parallax.planner.statement;

import java.util.List;
import java.util.Objects;

/**
 * {@code CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT EXISTS] name] ON [ONLY] table [USING btree] (column [ASC [NULLS LAST] | DESC [NULLS FIRST]], ...)}.
 *
 * @param unique       CREATE UNIQUE INDEX: a unique index on Chronicle Map, enforced as a UNIQUE constraint's
 * @param indexName    the index's name, or null to let the command choose one as PostgreSQL does ({@code table_col_idx})
 * @param columnNames  the key columns, most significant first
 * @param descending   per key column, whether it was declared DESC
 * @param only         ON ONLY: the index of a partitioned table alone
 * @param concurrently accepted as PostgreSQL's option; an in-memory build never blocks the table's writers
 */
public record CreateIndexStatement(String indexName, boolean ifNotExists, RelationName tableName, List<String> columnNames,
                                   List<Boolean> descending, boolean concurrently, boolean unique, boolean only) implements Statement {
    public CreateIndexStatement {
        Objects.requireNonNull(tableName, "tableName");
        columnNames = List.copyOf(columnNames);
        descending = List.copyOf(descending);
        if (descending.size() != columnNames.size()) {
            throw new IllegalArgumentException("one order per key column");
        }
    }

    /** An index with every key column ascending. */
    public CreateIndexStatement(String indexName, boolean ifNotExists, RelationName tableName, List<String> columnNames,
                                boolean concurrently, boolean unique, boolean only) {
        this(indexName, ifNotExists, tableName, columnNames, java.util.Collections.nCopies(columnNames.size(), false), concurrently,
                unique, only);
    }

    /** The DESC flags as an array, one per key column. */
    public boolean[] descendingKeys() {
        boolean[] flags = new boolean[descending.size()];
        for (int key = 0; key < flags.length; key++) {
            flags[key] = descending.get(key);
        }
        return flags;
    }
}
