package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Executor;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.explain.ExplainLabels;
import dev.parallax.engine.explain.ExplainPrinter;
import dev.parallax.engine.explain.InitialPruning;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.tpch.TpchLoader;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.PlannedQuery;
import dev.parallax.planner.query.QueryPlanner;
import dev.parallax.engine.load.CopyFormat;
import dev.parallax.engine.load.CopyLoader;
import dev.parallax.planner.statement.ExplainOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The real components behind the sessions of one database: the Calcite-based {@link QueryPlanner},
 * the {@link Executor} and {@link ExplainPrinter}, {@link PagedTableStorage} on the database's page
 * allocator, and the TPC-H loader. Shared by all sessions of the database (thread-safe).
 */
public final class StandardEngineServices implements EngineServices {
    private final Database database;
    private final QueryPlanner queryPlanner;

    public StandardEngineServices(Database database) {
        this(database, new QueryPlanner(database.catalog()));
    }

    private StandardEngineServices(Database database, QueryPlanner queryPlanner) {
        this.database = Objects.requireNonNull(database, "database");
        this.queryPlanner = queryPlanner;
    }

    @Override
    public EngineServices forSession(SessionCatalog catalog) {
        return new StandardEngineServices(database, new QueryPlanner(catalog, queryPlanner));
    }

    @Override
    public PlannedStatement plan(String sql, Settings settings) {
        return statement(queryPlanner.plan(sql, settings));
    }

    @Override
    public PlannedStatement planInsertFromQuery(String querySql, Settings settings, Function<List<ResultColumn>, Table> target) {
        return statement(queryPlanner.planInsertFromQuery(querySql, settings, target));
    }

    private static PlannedStatement statement(PlannedQuery query) {
        return new PlannedStatement(query.root(), query.columns(), query.parameterTypes(), query.returnsRows(), query.commandName());
    }

    @Override
    public dev.parallax.engine.catalog.ColumnDefault planColumnDefault(String expressionText,
                                                                       dev.parallax.engine.catalog.ColumnDefinition column,
                                                                       Settings settings) {
        return queryPlanner.planColumnDefault(expressionText, column, settings);
    }

    @Override
    public dev.parallax.engine.expr.Expr planCheckCondition(String tableName, java.util.List<dev.parallax.engine.catalog.ColumnDefinition> columns,
                                                            String expressionText, Settings settings) {
        return queryPlanner.planCheckCondition(tableName, columns, expressionText, settings);
    }

    @Override
    public void checkSyntax(String sql) {
        queryPlanner.checkSyntax(sql);
    }

    @Override
    public Operator open(PlanNode root, ExecutionContext context) {
        return Executor.open(root, context);
    }

    @Override
    public List<String> explain(PlanNode root, ExplainOptions options) {
        return ExplainPrinter.print(root, engineOptions(options), null, ExplainLabels.NONE);
    }

    @Override
    public List<String> explainWithParameters(PlanNode root, ExplainOptions options, ExecutionContext context) {
        return ExplainPrinter.print(root, engineOptions(options), InitialPruning.of(root, context), ExplainLabels.NONE);
    }

    @Override
    public List<String> explainAnalyze(PlanNode root, ExplainOptions options, ExecutionContext context) {
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(root);
        try (Operator operator = Executor.open(root, context, statistics)) {
            // EXPLAIN ANALYZE runs the query for its statistics and discards the rows.
            while (operator.next() != null) {
                context.checkCancelled();
            }
        }
        return ExplainPrinter.print(root, engineOptions(options), statistics, ExplainLabels.NONE);
    }

    private static dev.parallax.engine.explain.ExplainOptions engineOptions(ExplainOptions options) {
        return new dev.parallax.engine.explain.ExplainOptions(options.analyze(), options.verbose(), options.costs(), options.timing());
    }

    @Override
    public TableStorage createStorage(List<DataType> columnTypes) {
        return new PagedTableStorage(columnTypes, database.pageAllocator());
    }

    @Override
    public void generateTpch(double scaleFactor, ExecutionContext context) {
        TpchLoader loader = new TpchLoader(database.catalog(), database.pageAllocator());
        loader.load(scaleFactor, context.workers().pool(), database.options().workerThreads(), new DbgenProgress(context, scaleFactor));
    }

    @Override
    public long copyFrom(Table table, int[] columns, Path file, CopyFormat options, ExecutionContext context) {
        if (!isAllColumnsInOrder(columns, table.columns().size())) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, "COPY with a column list is not supported yet")
                    .withHint("List all columns of \"" + table.name() + "\" in table order, or none.");
        }
        return CopyLoader.copyFrom(table, file, options, context);
    }

    private static boolean isAllColumnsInOrder(int[] columns, int columnCount) {
        if (columns == null) {
            return true;
        }
        if (columns.length != columnCount) {
            return false;
        }
        for (int index = 0; index < columns.length; index++) {
            if (columns[index] != index) {
                return false;
            }
        }
        return true;
    }
}
