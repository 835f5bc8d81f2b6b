package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.SqlState;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's checks of a WITH RECURSIVE query's shape (parse_cte.c), on the parsed statement:
 * a query that reads itself must be {@code non-recursive term UNION [ALL] recursive term}, read
 * itself once, in the recursive term, outside subqueries in expressions, outer joins' nullable
 * sides, INTERSECT and EXCEPT, with no aggregate in the recursive term (42P19), and carry no
 * ORDER BY, LIMIT or OFFSET of its own (0A000). Calcite would plan some of these and fail on
 * others with internal errors; Parallax's Recursive Union runs exactly the well-formed shape.
 */
public final class RecursionChecks {
    /** Where a recursive reference stands, as PostgreSQL's RecursionContext names it. */
    private enum Context {
        OK(null),
        NON_RECURSIVE_TERM("recursive reference to query \"%s\" must not appear within its non-recursive term"),
        SUBQUERY("recursive reference to query \"%s\" must not appear within a subquery"),
        OUTER_JOIN("recursive reference to query \"%s\" must not appear within an outer join"),
        INTERSECT("recursive reference to query \"%s\" must not appear within INTERSECT"),
        EXCEPT("recursive reference to query \"%s\" must not appear within EXCEPT");

        private final String message;

        Context(String message) {
            this.message = message;
        }
    }

    /** A violation: its SQLSTATE, message and where in the statement. */
    public record Violation(SqlState state, String message, SqlParserPos position) {
    }

    private final String name;
    private final SqlOperatorTable operators;
    private Violation violation;
    private SqlIdentifier firstReference;

    private RecursionChecks(String name, SqlOperatorTable operators) {
        this.name = name;
        this.operators = operators;
    }

    /** The first violation in {@code parsed}, or null when every recursive query in it is well formed. */
    public static Violation firstViolation(SqlNode parsed, SqlOperatorTable operators) {
        Violation[] found = new Violation[1];
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (found[0] == null && call instanceof SqlWith with) {
                    found[0] = mutualRecursion(with);
                }
                if (found[0] == null && call instanceof SqlWithItem item && isRecursive(item)) {
                    found[0] = new RecursionChecks(item.name.getSimple(), operators).check(item.query);
                }
                return super.visit(call);
            }
        });
        return found[0];
    }

    private static boolean isRecursive(SqlWithItem item) {
        return item.recursive != null && item.recursive.booleanValue();
    }

    /** Two recursive WITH items that read each other: PostgreSQL's 0A000. */
    private static Violation mutualRecursion(SqlWith with) {
        List<SqlWithItem> items = new ArrayList<>();
        for (SqlNode node : with.withList) {
            if (node instanceof SqlWithItem item && isRecursive(item)) {
                items.add(item);
            }
        }
        for (int first = 0; first < items.size(); first++) {
            for (int second = first + 1; second < items.size(); second++) {
                SqlWithItem one = items.get(first);
                SqlWithItem other = items.get(second);
                if (reads(one.query, other.name.getSimple()) && reads(other.query, one.name.getSimple())) {
                    return new Violation(SqlState.FEATURE_NOT_SUPPORTED, "mutual recursion between WITH items is not implemented",
                            one.query.getParserPosition());
                }
            }
        }
        return null;
    }

    private Violation check(SqlNode query) {
        if (!reads(query, name)) {
            return null;
        }
        SqlNode union = query;
        if (union instanceof SqlOrderBy orderBy) {
            if (orderBy.orderList != null && !orderBy.orderList.isEmpty()) {
                return notImplemented("ORDER BY", orderBy.orderList);
            }
            if (orderBy.offset != null) {
                return notImplemented("OFFSET", orderBy.offset);
            }
            if (orderBy.fetch != null) {
                return notImplemented("LIMIT", orderBy.fetch);
            }
            union = orderBy.query;
        }
        if (!(union instanceof SqlBasicCall call) || union.getKind() != SqlKind.UNION) {
            return new Violation(SqlState.INVALID_RECURSION, String.format(
                    "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", name),
                    query.getParserPosition());
        }
        query(call.operand(0), Context.NON_RECURSIVE_TERM);
        if (violation == null) {
            query(call.operand(1), Context.OK);
        }
        if (violation == null && call.operand(1) instanceof SqlSelect select) {
            aggregates(select);
        }
        return violation;
    }

    private Violation notImplemented(String clause, SqlNode node) {
        return new Violation(SqlState.FEATURE_NOT_SUPPORTED, clause + " in a recursive query is not implemented",
                node.getParserPosition());
    }

    /**
     * Whether {@code node} names {@code name}: reads it as a table, or names a column so (the
     * parsed statement does not tell them apart; a false hit only keeps a check on).
     */
    static boolean reads(SqlNode node, String name) {
        boolean[] found = new boolean[1];
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                found[0] |= identifier.isSimple() && identifier.getSimple().equals(name);
                return null;
            }
        });
        return found[0];
    }

    private boolean isReference(SqlNode node) {
        return node instanceof SqlIdentifier identifier && identifier.isSimple() && identifier.getSimple().equals(name);
    }

    private void query(SqlNode node, Context context) {
        if (node == null || violation != null) {
            return;
        }
        switch (node) {
            case SqlSelect select -> {
                from(select.getFrom(), context);
                Context inner = context == Context.OK ? Context.SUBQUERY : context;
                for (SqlNode part : new SqlNode[] {select.getSelectList(), select.getWhere(), select.getGroup(), select.getHaving()}) {
                    expression(part, inner);
                }
            }
            case SqlOrderBy orderBy -> query(orderBy.query, context);
            case SqlWith with -> {
                for (SqlNode item : with.withList) {
                    query(((SqlWithItem) item).query, context);
                }
                query(with.body, context);
            }
            case SqlCall call when call.getKind() == SqlKind.UNION -> {
                query(call.operand(0), context);
                query(call.operand(1), context);
            }
            case SqlCall call when call.getKind() == SqlKind.INTERSECT -> {
                Context inner = context == Context.OK ? Context.INTERSECT : context;
                query(call.operand(0), inner);
                query(call.operand(1), inner);
            }
            case SqlCall call when call.getKind() == SqlKind.EXCEPT -> {
                Context inner = context == Context.OK ? Context.EXCEPT : context;
                query(call.operand(0), inner);
                query(call.operand(1), inner);
            }
            default -> expression(node, context == Context.OK ? Context.SUBQUERY : context);
        }
    }

    private void from(SqlNode node, Context context) {
        if (node == null || violation != null) {
            return;
        }
        if (isReference(node)) {
            reference((SqlIdentifier) node, context);
            return;
        }
        switch (node) {
            case SqlJoin join -> {
                Context outer = context == Context.OK ? Context.OUTER_JOIN : context;
                switch (join.getJoinType()) {
                    case LEFT -> {
                        from(join.getLeft(), context);
                        from(join.getRight(), outer);
                    }
                    case RIGHT -> {
                        from(join.getLeft(), outer);
                        from(join.getRight(), context);
                    }
                    case FULL -> {
                        from(join.getLeft(), outer);
                        from(join.getRight(), outer);
                    }
                    default -> {
                        from(join.getLeft(), context);
                        from(join.getRight(), context);
                    }
                }
                expression(join.getCondition(), context == Context.OK ? Context.SUBQUERY : context);
            }
            case SqlCall call when call.getKind() == SqlKind.AS -> from(call.operand(0), context);
            case SqlCall call when call.getKind() == SqlKind.LATERAL -> from(call.operand(0), context);
            case SqlSelect select -> query(select, context);
            case SqlCall call when call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.INTERSECT
                    || call.getKind() == SqlKind.EXCEPT || call.getKind() == SqlKind.ORDER_BY || call.getKind() == SqlKind.WITH ->
                    query(call, context);
            default -> expression(node, context == Context.OK ? Context.SUBQUERY : context);
        }
    }

    /** An expression: a query in it is a subquery, any reference in one is misplaced. */
    private void expression(SqlNode node, Context context) {
        if (node == null || violation != null) {
            return;
        }
        switch (node) {
            case SqlNodeList list -> {
                for (SqlNode element : list) {
                    expression(element, context);
                }
            }
            case SqlSelect select -> query(select, context == Context.OK ? Context.SUBQUERY : context);
            case SqlCall call when call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.INTERSECT
                    || call.getKind() == SqlKind.EXCEPT || call.getKind() == SqlKind.ORDER_BY || call.getKind() == SqlKind.WITH ->
                    query(call, context == Context.OK ? Context.SUBQUERY : context);
            case SqlCall call -> {
                for (SqlNode operand : call.getOperandList()) {
                    expression(operand, context);
                }
            }
            default -> {
            }
        }
    }

    private void reference(SqlIdentifier identifier, Context context) {
        if (context != Context.OK) {
            violation = new Violation(SqlState.INVALID_RECURSION, String.format(context.message, name), identifier.getParserPosition());
        } else if (firstReference != null) {
            violation = new Violation(SqlState.INVALID_RECURSION,
                    String.format("recursive reference to query \"%s\" must not appear more than once", name),
                    identifier.getParserPosition());
        } else {
            firstReference = identifier;
        }
    }

    /** An aggregate call in the recursive term's own select list or HAVING (not in its subqueries). */
    private void aggregates(SqlSelect select) {
        for (SqlNode part : new SqlNode[] {select.getSelectList(), select.getHaving()}) {
            SqlCall aggregate = part == null ? null : firstAggregate(part);
            if (aggregate != null) {
                violation = new Violation(SqlState.INVALID_RECURSION,
                        "aggregate functions are not allowed in a recursive query's recursive term", aggregate.getParserPosition());
                return;
            }
        }
    }

    private SqlCall firstAggregate(SqlNode node) {
        switch (node) {
            case SqlNodeList list -> {
                for (SqlNode element : list) {
                    SqlCall found = element == null ? null : firstAggregate(element);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            }
            case SqlSelect select -> {
                return null;
            }
            case SqlCall call -> {
                if (call.getKind() == SqlKind.OVER) {
                    return null;
                }
                if (isAggregate(call.getOperator())) {
                    return call;
                }
                for (SqlNode operand : call.getOperandList()) {
                    SqlCall found = operand == null ? null : firstAggregate(operand);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private boolean isAggregate(SqlOperator operator) {
        if (operator.isAggregator()) {
            return true;
        }
        List<SqlOperator> overloads = new ArrayList<>();
        operators.lookupOperatorOverloads(new SqlIdentifier(operator.getName().toLowerCase(java.util.Locale.ROOT), SqlParserPos.ZERO),
                SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, overloads, SqlNameMatchers.withCaseSensitive(false));
        return overloads.stream().anyMatch(SqlOperator::isAggregator);
    }
}
