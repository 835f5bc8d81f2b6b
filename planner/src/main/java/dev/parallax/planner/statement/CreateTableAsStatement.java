package dev.parallax.planner.statement;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name [(column, ...)] [WITH (parameter [= value], ...)] AS query
 * [WITH [NO] DATA]}, also spelled {@code SELECT ... INTO [TABLE] name FROM ...}: the column names
 * given (possibly fewer than the query's columns, none when omitted), the storage parameters as
 * written (name to value text, null for a bare name; in the order written), the query's text, where
 * it starts in the statement's text (so that errors in it point at the right character), and
 * whether the query's rows fill the table. {@code temporary} is null for a permanent table.
 */
public record CreateTableAsStatement(String tableName, boolean ifNotExists, List<String> columnNames,
                                     Map<String, String> storageParameters, String query, int queryOffset,
                                     boolean withData, TemporaryTable temporary) implements Statement {
    public CreateTableAsStatement {
        Objects.requireNonNull(tableName, "tableName");
        columnNames = List.copyOf(columnNames);
        Objects.requireNonNull(storageParameters, "storageParameters");
        Objects.requireNonNull(query, "query");
    }

    /** A permanent table. */
    public CreateTableAsStatement(String tableName, boolean ifNotExists, List<String> columnNames,
                                  Map<String, String> storageParameters, String query, int queryOffset, boolean withData) {
        this(tableName, ifNotExists, columnNames, storageParameters, query, queryOffset, withData, null);
    }
}
