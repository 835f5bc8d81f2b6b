package dev.parallax.planner;

import dev.parallax.engine.catalog.SessionCatalog;

import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.ColumnDefault;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.load.CopyFormat;
import dev.parallax.planner.statement.ExplainOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The components a {@link SqlSession} drives: the query planner, the executor and EXPLAIN printer,
 * table storage, and the loaders behind CALL dbgen and COPY. {@link StandardEngineServices} wires
 * the real ones; tests may substitute hand-written fakes. All methods are called on the session's
 * thread; implementations are shared by the sessions of a database and must be thread-safe.
 */
public interface EngineServices {
    /**
     * Parses, validates and plans one query or DML statement with the session's {@code settings}.
     * Errors are ParallaxExceptions (42601 with the position in {@code sql}, 42P01, 42703, ...).
     */
    PlannedStatement plan(String sql, Settings settings);

    /**
     * The services one session drives, whose planning resolves names in {@code catalog}: the
     * session's temporary tables in front of the database's catalog. Called once, when the session
     * opens. Services that plan against a catalog of their own (test fakes) return themselves.
     */
    default EngineServices forSession(SessionCatalog catalog) {
        return this;
    }

    /**
     * CREATE TABLE ... AS / SELECT ... INTO: plans {@code querySql} (a query returning rows), calls
     * {@code target} once with its result columns for the table to fill, and plans the insert of the
     * query's rows into that table (the plan's one BIGINT row is the count; command name SELECT).
     * Errors as {@link #plan}; 42P02 when the query has parameters.
     */
    PlannedStatement planInsertFromQuery(String querySql, Settings settings, Function<List<ResultColumn>, Table> target);

    /**
     * Parses one query or DML statement without validating or planning it: throws a 42601
     * ParallaxException (with the position in {@code sql}) when its syntax is wrong, nothing
     * otherwise. A failed transaction block reports syntax errors before refusing the statement.
     */
    void checkSyntax(String sql);

    /**
     * Checks a column's DEFAULT expression (as written) for CREATE TABLE / ALTER TABLE ... SET DEFAULT
     * with PostgreSQL's errors; returns the default to store, or null for a default that is NULL.
     */
    ColumnDefault planColumnDefault(String expressionText, ColumnDefinition column, Settings settings);

    /**
     * Plans a CHECK constraint's condition (as written) over the columns of table {@code tableName}
     * with PostgreSQL's errors (42703, 42804, 0A000 subquery, 42803 aggregate, 42P20 window function).
     */
    dev.parallax.engine.expr.Expr planCheckCondition(String tableName, List<ColumnDefinition> columns, String expressionText,
                                                     Settings settings);

    /** Opens the root operator of {@code root} for one execution; the caller pulls and closes it. */
    Operator open(PlanNode root, ExecutionContext context);

    /** EXPLAIN without ANALYZE: the plan's lines in PostgreSQL's text format. */
    List<String> explain(PlanNode root, ExplainOptions options);

    /**
     * EXPLAIN of a prepared statement with its parameter values (EXPLAIN EXECUTE): the plan as
     * {@link #explain} prints it, less the partitions that execution-time pruning removes with the
     * values in {@code context} ({@code Subplans Removed: N}), without running it.
     */
    default List<String> explainWithParameters(PlanNode root, ExplainOptions options, ExecutionContext context) {
        return explain(root, options);
    }

    /**
     * EXPLAIN ANALYZE: runs the plan to completion in {@code context} (which collects statistics),
     * discards its rows, and returns the plan's lines with actual rows, loops and times. The
     * Planning Time / Execution Time lines are the caller's.
     */
    List<String> explainAnalyze(PlanNode root, ExplainOptions options, ExecutionContext context);

    /** Empty storage for a new table with these column types, charged to the database's memory. */
    TableStorage createStorage(List<DataType> columnTypes);

    /** CALL dbgen: creates and fills the eight TPC-H tables at {@code scaleFactor}, in parallel on the context's workers. */
    void generateTpch(double scaleFactor, ExecutionContext context);

    /**
     * COPY FROM a file: loads {@code file} into {@code columns} of {@code table} (the other columns
     * get NULL); all rows or none. Returns the number of rows loaded.
     */
    long copyFrom(Table table, int[] columns, Path file, CopyFormat options, ExecutionContext context);
}
