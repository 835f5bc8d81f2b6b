package dev.parallax.planner.statement;

/**
 * One parsed SQL statement. Utility statements (DDL, settings, COPY, CALL, EXPLAIN's wrapper) are
 * parsed by {@link StatementParser}; queries and DML stay text for the query planner.
 */
public sealed interface Statement
        permits EmptyStatement, QueryStatement, CreateTableStatement, DropTableStatement, SetStatement,
        ShowStatement, ResetStatement, AlterTableOptionsStatement, CallStatement, CopyStatement, CopyToStatement,
        ExplainStatement, TransactionStatement, CreateIndexStatement, DropIndexStatement, VacuumStatement,
        CreateViewStatement, DropViewStatement, CreatePartitionStatement, AlterTableStatement,
        CreateSequenceStatement, DropSequenceStatement, AlterSequenceStatement, AlterSystemStatement,
        CreateTableAsStatement, PrepareStatement, ExecuteStatement, DeallocateStatement, RenameRelationStatement,
        RenameColumnStatement, TruncateStatement, PrivilegeStatement, SetConfigStatement, CommentStatement {
}
