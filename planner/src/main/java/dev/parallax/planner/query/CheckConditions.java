package dev.parallax.planner.query;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.TypeKind;
import dev.parallax.planner.query.parse.ExpressionTokens;
import dev.parallax.planner.query.translate.RexTranslator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;

import java.util.List;

/**
 * Plans a CHECK constraint's condition as PostgreSQL checks it when the constraint is declared: the
 * condition reads the table's columns (42703 for another name), is boolean (42804), and holds no
 * subquery (0A000), aggregate (42803), window function (42P20), set-returning function (0A000) or
 * parameter (42P02). It is planned as {@code SELECT (condition) FROM (VALUES (NULL::type, ...)) AS
 * table (column, ...)}, so the table's name qualifies the columns as in PostgreSQL; the engine
 * expression of the select item reads the columns by their positions in the table. An error's
 * position counts from the condition's first character.
 */
final class CheckConditions {
    private static final String PREFIX = "SELECT (";
    private CheckConditions() {
    }

    static Expr plan(QueryPlanner planner, String tableName, List<ColumnDefinition> columns, String expressionText, Settings settings) {
        if (ExpressionTokens.containsWord(expressionText, "select")) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
        }
        StringBuilder sql = new StringBuilder(PREFIX).append(expressionText).append(")");
        if (!columns.isEmpty()) {
            sql.append(" FROM (VALUES (");
            StringBuilder names = new StringBuilder();
            for (int column = 0; column < columns.size(); column++) {
                if (column > 0) {
                    sql.append(", ");
                    names.append(", ");
                }
                sql.append("CAST(NULL AS ").append(columns.get(column).type().sqlName()).append(")");
                names.append(quoted(columns.get(column).name()));
            }
            sql.append(")) AS ").append(quoted(tableName)).append(" (").append(names).append(")");
        }
        QueryPlanner.Analysis analysis;
        try {
            analysis = planner.analyze(sql.toString());
        } catch (ParallaxException failure) {
            // Positions count from the condition's first character (1), as the caller reports them in its statement.
            int position = failure.position() - PREFIX.length();
            throw failure.position() == 0 ? failure : failure.withPosition(position >= 1 && position <= expressionText.length() ? position : 0);
        }
        if (analysis.setReturning()) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in check constraints");
        }
        if (!analysis.statement().parameterNumbers().isEmpty()) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d",
                    analysis.statement().parameterNumbers().getFirst());
        }
        RelNode root = analysis.root().project();
        if (ColumnDefaults.containsAggregate(root)) {
            throw ParallaxException.of(SqlState.GROUPING_ERROR, "aggregate functions are not allowed in check constraints");
        }
        if (!(root instanceof Project project) || project.getProjects().size() != 1) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "cannot use subquery in check constraint");
        }
        RexNode value = project.getProjects().getFirst();
        if (RexOver.containsOver(value)) {
            throw ParallaxException.of(SqlState.WINDOWING_ERROR, "window functions are not allowed in check constraints");
        }
        RexTranslator translator = new RexTranslator(analysis.rexBuilder(), analysis.statement().parameterNumbers(), settings);
        Expr condition = translator.translateAsWritten(value);
        TypeKind kind = condition.type().kind();
        if (kind != TypeKind.BOOLEAN && kind != TypeKind.NULL) {
            throw ParallaxException.of(SqlState.DATATYPE_MISMATCH, "argument of CHECK must be type boolean, not type %s",
                    ColumnDefaults.baseName(condition.type()));
        }
        return condition;
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
