package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.PostgresDialectRewriter;
import dev.parallax.planner.query.parse.RewrittenStatement;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's {@code SELECT DISTINCT ON (expressions)}, before validation: the first row of each
 * group of rows equal on the expressions, in ORDER BY order (any row of the group without ORDER BY).
 * The dialect rewrite left the expressions in a first select item {@code pg_distinct_on(...)}; it
 * goes, and the SELECT gets {@code QUALIFY row_number() OVER (PARTITION BY expressions ORDER BY
 * order items) = 1}, which the planner runs as a window over a sort and a filter, before the
 * query's own ORDER BY and LIMIT. As in PostgreSQL, an expression or ORDER BY item that is a
 * select-list position or an output column name stands for that select item, and the ORDER BY
 * items equal to DISTINCT ON expressions must come first (42P10 otherwise).
 */
public final class DistinctOnClauses {
    private final RewrittenStatement statement;

    private DistinctOnClauses(RewrittenStatement statement) {
        this.statement = statement;
    }

    /** Rewrites every SELECT DISTINCT ON of {@code parsed} in place; throws 42P10 where its ORDER BY does not start with the expressions. */
    public static void rewrite(SqlNode parsed, RewrittenStatement statement) {
        if (statement.sql().contains(PostgresDialectRewriter.DISTINCT_ON_MARKER)) {
            new DistinctOnClauses(statement).visit(parsed);
        }
    }

    private void visit(SqlNode node) {
        switch (node) {
            case SqlOrderBy orderBy when orderBy.query instanceof SqlSelect select && marker(select) != null ->
                    rewrite(select, orderBy.orderList);
            case SqlSelect select when marker(select) != null -> rewrite(select, select.getOrderList());
            default -> {
            }
        }
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                visit(item);
            }
        } else if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    visit(operand);
                }
            }
        }
    }

    /** The pg_distinct_on(...) first select item of {@code select}, or null. */
    private static SqlBasicCall marker(SqlSelect select) {
        SqlNodeList items = select.getSelectList();
        return !items.isEmpty() && items.get(0) instanceof SqlBasicCall call
                && call.getOperator().getName().equalsIgnoreCase(PostgresDialectRewriter.DISTINCT_ON_MARKER) ? call : null;
    }

    private void rewrite(SqlSelect select, SqlNodeList orderList) {
        SqlBasicCall marker = marker(select);
        SqlNodeList items = select.getSelectList();
        items.remove(0);
        List<SqlNode> distinct = new ArrayList<>();
        for (SqlNode expression : marker.getOperandList()) {
            distinct.add(resolve(expression, items, "DISTINCT ON"));
        }
        SqlNodeList windowOrder = new SqlNodeList(SqlParserPos.ZERO);
        boolean[] matched = new boolean[distinct.size()];
        boolean skipped = false;
        if (orderList != null) {
            for (SqlNode item : orderList) {
                SqlNode key = resolveOrderItem(item, items);
                int match = indexOf(distinct, orderExpression(key));
                if (match < 0) {
                    // A DISTINCT ON expression is constant within its partition: the window orders by the others.
                    windowOrder.add(key);
                    skipped = true;
                } else if (skipped) {
                    throw mismatch(marker.getOperandList().get(match));
                } else {
                    matched[match] = true;
                }
            }
        }
        for (int index = 0; index < distinct.size(); index++) {
            if (!matched[index] && skipped) {
                throw mismatch(marker.getOperandList().get(index));
            }
        }
        SqlParserPos position = marker.getParserPosition();
        SqlNodeList partition = new SqlNodeList(position);
        for (SqlNode expression : distinct) {
            partition.add(expression);
        }
        SqlWindow window = SqlWindow.create(null, null, partition, windowOrder, SqlLiteral.createBoolean(false, position), null, null,
                null, position);
        SqlNode first = SqlStdOperatorTable.EQUALS.createCall(position,
                SqlStdOperatorTable.OVER.createCall(position, SqlStdOperatorTable.ROW_NUMBER.createCall(position), window),
                SqlLiteral.createExactNumeric("1", position));
        select.setQualify(select.getQualify() == null ? first : SqlStdOperatorTable.AND.createCall(position, select.getQualify(), first));
    }

    /** An ORDER BY item with its expression resolved, keeping DESC and NULLS FIRST/LAST around it. */
    private SqlNode resolveOrderItem(SqlNode item, SqlNodeList items) {
        if (item instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING || call.getKind() == SqlKind.NULLS_FIRST
                || call.getKind() == SqlKind.NULLS_LAST)) {
            return call.getOperator().createCall(call.getParserPosition(), resolveOrderItem(call.operand(0), items));
        }
        return resolve(item, items, "ORDER BY");
    }

    private static SqlNode orderExpression(SqlNode key) {
        SqlNode expression = key;
        while (expression instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING || call.getKind() == SqlKind.NULLS_FIRST
                || call.getKind() == SqlKind.NULLS_LAST)) {
            expression = call.operand(0);
        }
        return expression;
    }

    private static int indexOf(List<SqlNode> expressions, SqlNode expression) {
        for (int index = 0; index < expressions.size(); index++) {
            if (expressions.get(index).equalsDeep(expression, Litmus.IGNORE)) {
                return index;
            }
        }
        return -1;
    }

    /**
     * A copy of the expression an item of DISTINCT ON or ORDER BY stands for, PostgreSQL's
     * findTargetlistEntrySQL92: an integer constant is a select-list position, a bare name equal to
     * one select item's output name that item's expression, anything else itself.
     */
    private SqlNode resolve(SqlNode expression, SqlNodeList items, String clause) {
        if (expression instanceof SqlNumericLiteral number && number.isInteger()) {
            int position = number.intValue(true);
            boolean star = false;
            for (SqlNode item : items) {
                star |= item instanceof SqlIdentifier identifier && identifier.isStar();
            }
            if (star) {
                throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED, clause + " position " + position
                        + " of a select list with * is not supported yet", null, null, position(expression), null);
            }
            if (position < 1 || position > items.size()) {
                throw new ParallaxException(SqlState.INVALID_COLUMN_REFERENCE, clause + " position " + position + " is not in select list",
                        null, null, position(expression), null);
            }
            return copy(withoutAlias(items.get(position - 1)));
        }
        if (expression instanceof SqlIdentifier identifier && identifier.isSimple()) {
            SqlNode found = null;
            for (SqlNode item : items) {
                if (item instanceof SqlBasicCall alias && alias.getKind() == SqlKind.AS
                        && ((SqlIdentifier) alias.operand(1)).getSimple().equals(identifier.getSimple())) {
                    if (found != null && !found.equalsDeep(alias.operand(0), Litmus.IGNORE)) {
                        throw new ParallaxException(SqlState.AMBIGUOUS_COLUMN, clause + " \"" + identifier.getSimple() + "\" is ambiguous",
                                null, null, position(expression), null);
                    }
                    found = alias.operand(0);
                }
            }
            if (found != null) {
                return copy(found);
            }
        }
        return copy(expression);
    }

    private static SqlNode withoutAlias(SqlNode item) {
        return item instanceof SqlBasicCall alias && alias.getKind() == SqlKind.AS ? alias.operand(0) : item;
    }

    /**
     * A deep copy: the validator keys its scopes and types by node, so an expression written once
     * and used again in the window gets nodes of its own.
     */
    private static SqlNode copy(SqlNode expression) {
        return expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                return identifier.clone(identifier.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlLiteral literal) {
                return literal.clone(literal.getParserPosition());
            }

            @Override
            public SqlNode visit(SqlDataTypeSpec type) {
                return type.clone(type.getParserPosition());
            }
        });
    }

    private ParallaxException mismatch(SqlNode expression) {
        return new ParallaxException(SqlState.INVALID_COLUMN_REFERENCE, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
                null, null, position(expression), null);
    }

    private int position(SqlNode node) {
        SqlParserPos position = node.getParserPosition();
        return position.getLineNum() > 0 ? statement.originalPosition(position.getLineNum(), position.getColumnNum()) : 0;
    }
}
