package dev.parallax.planner;

import dev.parallax.Database;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Engine services with the real executor and storage, and a query "planner" that answers from a
 * table of SQL texts to hand-built plans, counting how often it is asked (to observe the plan cache).
 */
final class FakePlanner implements EngineServices {
    private final StandardEngineServices real;
    private final Map<String, Supplier<PlannedStatement>> plans = new HashMap<>();
    final List<String> planned = new ArrayList<>();
    final List<Settings> settingsSeen = new ArrayList<>();

    FakePlanner(Database database) {
        this.real = new StandardEngineServices(database);
    }

    void define(String sql, Supplier<PlannedStatement> plan) {
        plans.put(sql, plan);
    }

    @Override
    public PlannedStatement plan(String sql, Settings settings) {
        planned.add(sql);
        settingsSeen.add(settings.snapshot());
        Supplier<PlannedStatement> plan = plans.get(sql);
        if (plan == null) {
            throw new dev.parallax.engine.error.ParallaxException(dev.parallax.engine.error.SqlState.SYNTAX_ERROR,
                    "syntax error at or near \"bogus\"", null, null, 3, null);
        }
        return plan.get();
    }

    @Override
    public PlannedStatement planInsertFromQuery(String querySql, Settings settings,
                                                java.util.function.Function<List<dev.parallax.ResultColumn>, Table> target) {
        return real.planInsertFromQuery(querySql, settings, target);
    }

    @Override
    public dev.parallax.engine.catalog.ColumnDefault planColumnDefault(String expressionText,
            dev.parallax.engine.catalog.ColumnDefinition column, dev.parallax.engine.settings.Settings settings) {
        return real.planColumnDefault(expressionText, column, settings);
    }

    @Override
    public dev.parallax.engine.expr.Expr planCheckCondition(String tableName,
            java.util.List<dev.parallax.engine.catalog.ColumnDefinition> columns, String expressionText,
            dev.parallax.engine.settings.Settings settings) {
        return real.planCheckCondition(tableName, columns, expressionText, settings);
    }

    @Override
    public void checkSyntax(String sql) {
        real.checkSyntax(sql);
    }

    @Override
    public Operator open(PlanNode root, ExecutionContext context) {
        return real.open(root, context);
    }

    @Override
    public List<String> explain(PlanNode root, ExplainOptions options) {
        return List.of(root.getClass().getSimpleName() + (options.costs() ? "  (cost=...)" : ""));
    }

    @Override
    public List<String> explainAnalyze(PlanNode root, ExplainOptions options, ExecutionContext context) {
        long rows = 0;
        try (Operator operator = real.open(root, context)) {
            var batch = operator.next();
            while (batch != null) {
                rows += batch.selectedCount();
                batch = operator.next();
            }
        }
        return List.of(root.getClass().getSimpleName() + " (actual rows=" + rows + " loops=1)");
    }

    @Override
    public TableStorage createStorage(List<DataType> columnTypes) {
        return real.createStorage(columnTypes);
    }

    @Override
    public void generateTpch(double scaleFactor, ExecutionContext context) {
        real.generateTpch(scaleFactor, context);
    }

    @Override
    public long copyFrom(Table table, int[] columns, Path file, CopyFormat options, ExecutionContext context) {
        return real.copyFrom(table, columns, file, options, context);
    }
}
