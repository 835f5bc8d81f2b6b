package dev.parallax.engine.operator.project;

import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.type.DataType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a projection so that arithmetic shared by several of its expressions is computed once:
 * TPC-H Q1 projects {@code price * (1 - discount)} and {@code price * (1 - discount) * (1 + tax)}.
 * The shared parts become extra columns of a first projection (which passes the input columns
 * through without copying), and the original expressions read them as column references.
 * <p>Only +, - and * are shared, and only through chains of them from an expression's root: such a
 * subexpression is evaluated on every live row either way, so computing it once raises the same
 * errors on the same rows (a subexpression under CASE or a function may be evaluated lazily and is
 * left alone).
 */
final class CommonSubexpressions {
    private final List<Expr> shared;
    private final List<Expr> rewritten;

    private CommonSubexpressions(List<Expr> shared, List<Expr> rewritten) {
        this.shared = shared;
        this.rewritten = rewritten;
    }

    /** The split of {@code expressions} over an input of {@code inputTypes}, or null when nothing is shared. */
    static CommonSubexpressions find(List<Expr> expressions, List<DataType> inputTypes) {
        Map<Expr, Integer> occurrences = new HashMap<>();
        for (Expr expression : expressions) {
            count(expression, occurrences);
        }
        Map<Expr, Integer> columns = new LinkedHashMap<>();
        List<Expr> rewritten = new ArrayList<>(expressions.size());
        for (Expr expression : expressions) {
            rewritten.add(rewrite(expression, occurrences, columns, inputTypes.size()));
        }
        if (columns.isEmpty()) {
            return null;
        }
        return new CommonSubexpressions(List.copyOf(columns.keySet()), rewritten);
    }

    /** The first projection: every input column, then each shared subexpression. */
    List<Expr> firstProjection(List<DataType> inputTypes) {
        List<Expr> first = new ArrayList<>(inputTypes.size() + shared.size());
        for (int column = 0; column < inputTypes.size(); column++) {
            first.add(new ColumnRef(column, inputTypes.get(column)));
        }
        first.addAll(shared);
        return first;
    }

    /** The original expressions over the first projection's output. */
    List<Expr> secondProjection() {
        return rewritten;
    }

    private static boolean shareable(Expr expression) {
        return expression instanceof Call call && switch (call.function()) {
            case ADD, SUBTRACT, MULTIPLY -> true;
            default -> false;
        };
    }

    private static void count(Expr expression, Map<Expr, Integer> occurrences) {
        if (!shareable(expression)) {
            return;
        }
        occurrences.merge(expression, 1, Integer::sum);
        for (Expr argument : ((Call) expression).arguments()) {
            count(argument, occurrences);
        }
    }

    private static Expr rewrite(Expr expression, Map<Expr, Integer> occurrences, Map<Expr, Integer> columns, int inputColumns) {
        if (!shareable(expression)) {
            return expression;
        }
        if (occurrences.getOrDefault(expression, 0) > 1) {
            int column = columns.computeIfAbsent(expression, ignored -> inputColumns + columns.size());
            return new ColumnRef(column, expression.type());
        }
        Call call = (Call) expression;
        List<Expr> arguments = new ArrayList<>(call.arguments().size());
        for (Expr argument : call.arguments()) {
            arguments.add(rewrite(argument, occurrences, columns, inputColumns));
        }
        return new Call(call.function(), arguments, call.type());
    }
}
