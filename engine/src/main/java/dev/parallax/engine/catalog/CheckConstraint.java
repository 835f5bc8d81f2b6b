package dev.parallax.engine.catalog;

import dev.parallax.engine.explain.ExpressionText;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.Case;
import dev.parallax.engine.expr.Cast;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.InList;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.type.TypeKind;

import java.util.List;
import java.util.Objects;

/**
 * A CHECK constraint of a table: its name and its condition, a boolean expression over the table's
 * columns ({@link dev.parallax.engine.expr.ColumnRef} indexes are column positions). A row violates
 * it only when the condition is FALSE: NULL passes, as in PostgreSQL. The condition is kept as the
 * engine's expression, planned once when the constraint is declared; every statement that writes
 * rows compiles it into a vectorized predicate. Its text is deparsed from the expression over the
 * columns' current names, so RENAME COLUMN shows through. {@code objectId} is its pg_constraint.oid
 * ({@link Catalog#allocateObjectId}), kept when the table is rewritten.
 */
public record CheckConstraint(String name, Expr condition, long objectId) {
    public CheckConstraint {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(condition, "condition");
        if (condition.type().kind() != TypeKind.BOOLEAN) {
            throw new IllegalArgumentException("check constraint " + name + " is of type " + condition.type());
        }
    }

    /** PostgreSQL's {@code pg_get_constraintdef(oid)}: {@code CHECK ((a > 0))}, over {@code columnNames}. */
    public String definition(List<String> columnNames) {
        return "CHECK (" + conditionText(columnNames) + ")";
    }

    /** The condition as PostgreSQL's {@code pg_get_expr(conbin, conrelid)} prints it: {@code (a > 0)}. */
    public String conditionText(List<String> columnNames) {
        return ExpressionText.format(condition, columnNames);
    }

    /** PostgreSQL's pretty form ({@code pg_get_constraintdef(oid, true)}, psql's {@code \d}): {@code CHECK (a > 0)}. */
    public String prettyDefinition(List<String> columnNames) {
        return "CHECK (" + ExpressionText.formatPretty(condition, columnNames) + ")";
    }

    /** The constraint over columns renumbered by {@code newPositions} (old position → new, or -1: dropped); null when it reads a dropped column. */
    public CheckConstraint renumbered(int[] newPositions) {
        if (!readsOnly(condition, newPositions)) {
            return null;
        }
        return new CheckConstraint(name, renumbered(condition, newPositions), objectId);
    }

    /** Adds the positions of the columns {@code expression} reads to {@code columns}. */
    public static void collectColumns(Expr expression, java.util.Collection<Integer> columns) {
        switch (expression) {
            case ColumnRef column -> columns.add(column.index());
            case Literal literal -> {
            }
            case Parameter parameter -> {
            }
            case Cast cast -> collectColumns(cast.input(), columns);
            case InList in -> {
                collectColumns(in.value(), columns);
                in.values().forEach(value -> collectColumns(value, columns));
            }
            case Case caseExpression -> {
                caseExpression.conditions().forEach(value -> collectColumns(value, columns));
                caseExpression.results().forEach(value -> collectColumns(value, columns));
                if (caseExpression.otherwise() != null) {
                    collectColumns(caseExpression.otherwise(), columns);
                }
            }
            case Call call -> call.arguments().forEach(value -> collectColumns(value, columns));
        }
    }

    private static boolean readsOnly(Expr expression, int[] newPositions) {
        return switch (expression) {
            case ColumnRef column -> newPositions[column.index()] >= 0;
            case Literal literal -> true;
            case Parameter parameter -> true;
            case Cast cast -> readsOnly(cast.input(), newPositions);
            case InList in -> readsOnly(in.value(), newPositions) && in.values().stream().allMatch(value -> readsOnly(value, newPositions));
            case Case caseExpression -> caseExpression.conditions().stream().allMatch(value -> readsOnly(value, newPositions))
                    && caseExpression.results().stream().allMatch(value -> readsOnly(value, newPositions))
                    && (caseExpression.otherwise() == null || readsOnly(caseExpression.otherwise(), newPositions));
            case Call call -> call.arguments().stream().allMatch(value -> readsOnly(value, newPositions));
        };
    }

    private static Expr renumbered(Expr expression, int[] newPositions) {
        return switch (expression) {
            case ColumnRef column -> new ColumnRef(newPositions[column.index()], column.type());
            case Literal literal -> literal;
            case Parameter parameter -> parameter;
            case Cast cast -> new Cast(renumbered(cast.input(), newPositions), cast.type());
            case InList in -> new InList(renumbered(in.value(), newPositions), renumbered(in.values(), newPositions), in.negated());
            case Case caseExpression -> new Case(renumbered(caseExpression.conditions(), newPositions),
                    renumbered(caseExpression.results(), newPositions),
                    caseExpression.otherwise() == null ? null : renumbered(caseExpression.otherwise(), newPositions), caseExpression.type());
            case Call call -> new Call(call.function(), renumbered(call.arguments(), newPositions), call.type());
        };
    }

    private static List<Expr> renumbered(List<Expr> expressions, int[] newPositions) {
        return expressions.stream().map(expression -> renumbered(expression, newPositions)).toList();
    }
}
