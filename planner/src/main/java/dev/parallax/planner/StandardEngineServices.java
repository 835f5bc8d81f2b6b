package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Executor;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.explain.ExecutionStatistics;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.storage.PagedTableStorage;
import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.statement.CopyOptions;
import dev.parallax.planner.statement.ExplainOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** The real components behind a session: Calcite-based query planner, executor, paged storage, loaders. */
public final class StandardEngineServices implements EngineServices {
    private final Database database;

    public StandardEngineServices(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    @Override
    public PlannedStatement plan(String sql, Settings settings) {
        throw notAvailable("query planning");
    }

    @Override
    public Operator open(PlanNode root, ExecutionContext context) {
        return Executor.open(root, context);
    }

    @Override
    public List<String> explain(PlanNode root, ExplainOptions options) {
        throw notAvailable("EXPLAIN");
    }

    @Override
    public List<String> explainAnalyze(PlanNode root, ExplainOptions options, ExecutionContext context) {
        ExecutionStatistics statistics = ExecutionStatistics.forPlan(root);
        try (Operator operator = Executor.open(root, context, statistics)) {
            while (operator.next() != null) {
                context.checkCancelled();
            }
        }
        throw notAvailable("EXPLAIN ANALYZE");
    }

    @Override
    public TableStorage createStorage(List<DataType> columnTypes) {
        return new PagedTableStorage(columnTypes, database.pageAllocator());
    }

    @Override
    public void generateTpch(double scaleFactor, ExecutionContext context) {
        throw notAvailable("CALL dbgen");
    }

    @Override
    public long copyFrom(Table table, int[] columns, Path file, CopyOptions options, ExecutionContext context) {
        throw notAvailable("COPY");
    }

    private static ParallaxException notAvailable(String what) {
        return new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, what + " is not available in this build yet");
    }
}
