package dev.parallax.planner.query.validate;

import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.function.SetReturningOperator;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlNameMatchers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Set-returning functions outside FROM, before validation: calls of generate_series and unnest in a
 * select list (also in GROUP BY, ORDER BY and the VALUES of a one-row INSERT, which PostgreSQL treats as select
 * lists) get {@link SetReturningOperator}, so Calcite types them as the values they yield and the
 * planner runs them as a ProjectSet; anywhere else they fail as in PostgreSQL 15 (0A000: in WHERE,
 * HAVING, JOIN conditions, LIMIT, OFFSET, a VALUES list, FILTER, window definitions, CASE and
 * COALESCE, inside aggregate and window function calls, and nested in a FROM function's arguments).
 */
public final class SetReturningCalls {
    private static final String LATERAL_HINT = "You might be able to move the set-returning function into a LATERAL FROM item.";

    /** Where a set-returning call is not allowed: PostgreSQL's message and hint for it; null where it is allowed. */
    private record Place(String message, String hint) {
        static Place clause(String clause) {
            return new Place("set-returning functions are not allowed in " + clause, null);
        }
    }

    private static final Place TOP_OF_FROM = new Place("set-returning functions must appear at top level of FROM", null);
    private static final Place AGGREGATE = new Place("aggregate function calls cannot contain set-returning function calls", LATERAL_HINT);
    private static final Place WINDOW_CALL = new Place("window function calls cannot contain set-returning function calls", LATERAL_HINT);
    private static final Place WINDOW_DEFINITION = new Place("set-returning functions are not allowed in window definitions", null);

    /** A set-returning call where PostgreSQL rejects it (0A000), at its position in the parsed text. */
    public static final class Misplaced extends RuntimeException {
        private final String hint;
        private final SqlParserPos position;

        Misplaced(Place place, SqlParserPos position) {
            super(place.message(), null, false, false);
            this.hint = place.hint();
            this.position = position;
        }

        public String hint() {
            return hint;
        }

        public SqlParserPos position() {
            return position;
        }
    }

    private boolean found;

    private SetReturningCalls() {
    }

    /**
     * Gives every select-list set-returning call of {@code statement} its operator and returns
     * whether there was one; throws {@link Misplaced} for one elsewhere.
     */
    public static boolean resolve(SqlNode statement) {
        SetReturningCalls calls = new SetReturningCalls();
        calls.query(statement);
        return calls.found;
    }

    private void query(SqlNode node) {
        switch (node) {
            case null -> {
            }
            case SqlSelect select -> {
                SqlNodeList items = select.getSelectList();
                for (int index = 0; index < items.size(); index++) {
                    SqlNode item = items.get(index);
                    expression(item, null);
                    String name = functionName(item);
                    if (name != null) {
                        // PostgreSQL names the column after the function, in a subquery too (s.generate_series).
                        items.set(index, SqlStdOperatorTable.AS.createCall(item.getParserPosition(), item,
                                new SqlIdentifier(name, item.getParserPosition())));
                    }
                }
                from(select.getFrom());
                expression(select.getWhere(), Place.clause("WHERE"));
                expressions(select.getGroup(), null);
                expression(select.getHaving(), Place.clause("HAVING"));
                expressions(select.getWindowList(), WINDOW_DEFINITION);
                expressions(select.getOrderList(), null);
                expression(select.getOffset(), Place.clause("OFFSET"));
                expression(select.getFetch(), Place.clause("LIMIT"));
            }
            case SqlOrderBy orderBy -> {
                query(orderBy.query);
                expressions(orderBy.orderList, null);
                expression(orderBy.offset, Place.clause("OFFSET"));
                expression(orderBy.fetch, Place.clause("LIMIT"));
            }
            case SqlWith with -> {
                for (SqlNode item : with.withList) {
                    query(((SqlWithItem) item).query);
                }
                query(with.body);
            }
            case SqlInsert insert when insert.getSource().getKind() == SqlKind.VALUES
                    && ((SqlCall) insert.getSource()).operandCount() == 1 ->
                    // INSERT ... VALUES of one row: a select list to PostgreSQL (any other VALUES is a VALUES list).
                    operands((SqlCall) insert.getSource(), null);
            case SqlInsert insert -> query(insert.getSource());
            case SqlCall call when call.getKind() == SqlKind.VALUES -> operands(call, Place.clause("VALUES"));
            case SqlCall call when call.getKind().belongsTo(SqlKind.SET_QUERY) -> {
                for (SqlNode operand : call.getOperandList()) {
                    query(operand);
                }
            }
            case SqlCall call -> {
                for (SqlNode operand : call.getOperandList()) {
                    expression(operand, null);
                }
            }
            default -> {
            }
        }
    }

    private void from(SqlNode node) {
        switch (node) {
            case null -> {
            }
            case SqlJoin join -> {
                from(join.getLeft());
                from(join.getRight());
                expression(join.getCondition(), Place.clause("JOIN conditions"));
            }
            case SqlCall call when call.getKind() == SqlKind.AS || call.getKind() == SqlKind.LATERAL
                    || call.getKind() == SqlKind.TABLESAMPLE -> from(call.operand(0));
            case SqlCall call when call.getKind() == SqlKind.COLLECTION_TABLE && call.operand(0) instanceof SqlCall function -> {
                for (SqlNode argument : function.getOperandList()) {
                    expression(argument, TOP_OF_FROM);
                }
            }
            case SqlCall call when call.getKind() == SqlKind.UNNEST -> {
                for (SqlNode argument : call.getOperandList()) {
                    expression(argument, TOP_OF_FROM);
                }
            }
            default -> query(node);
        }
    }

    private void expressions(SqlNodeList list, Place place) {
        if (list != null) {
            for (SqlNode node : list) {
                expression(node, place);
            }
        }
    }

    private void expression(SqlNode node, Place place) {
        if (node instanceof SqlNodeList list) {
            expressions(list, place);
            return;
        }
        if (!(node instanceof SqlCall call)) {
            return;
        }
        if (node instanceof SqlSelect || node instanceof SqlOrderBy || node instanceof SqlWith
                || call.getKind().belongsTo(SqlKind.SET_QUERY) || call.getKind() == SqlKind.VALUES) {
            query(node);
            return;
        }
        SetReturningOperator function = setReturning(call.getOperator());
        if (function != null && call instanceof SqlBasicCall basic) {
            if (place != null) {
                throw new Misplaced(place, call.getParserPosition());
            }
            basic.setOperator(function);
            found = true;
            operands(call, null);
            return;
        }
        // PostgreSQL checks the clause first (an SRF in WHERE fails as such even inside CASE), then the construct.
        SqlKind kind = isCoalesce(call.getOperator()) ? SqlKind.COALESCE : call.getKind();
        switch (kind) {
            case OVER -> {
                expression(call.operand(0), place != null ? place : WINDOW_CALL);
                for (int index = 1; index < call.operandCount(); index++) {
                    expression(call.operand(index), place != null ? place : WINDOW_DEFINITION);
                }
            }
            case FILTER -> {
                expression(call.operand(0), place);
                expression(call.operand(1), place != null ? place : Place.clause("FILTER"));
            }
            case CASE -> operands(call, place != null ? place : new Place("set-returning functions are not allowed in CASE", LATERAL_HINT));
            case COALESCE -> operands(call, place != null ? place : new Place("set-returning functions are not allowed in COALESCE", LATERAL_HINT));
            default -> operands(call, place == null && isAggregate(call.getOperator()) ? AGGREGATE : place);
        }
    }

    private void operands(SqlCall call, Place place) {
        for (SqlNode operand : call.getOperandList()) {
            expression(operand, place);
        }
    }

    /** The column name PostgreSQL gives an unaliased select item that is a set-returning call (cast or not), else null. */
    private static String functionName(SqlNode item) {
        SqlNode node = item;
        while (node.getKind() == SqlKind.CAST) {
            node = ((SqlCall) node).operand(0);
        }
        return node instanceof SqlCall call && call.getOperator() instanceof SetReturningOperator function ? function.getName() : null;
    }

    /** The select-list operator of a call to generate_series or unnest (unqualified or in pg_catalog), else null. */
    private static SetReturningOperator setReturning(SqlOperator operator) {
        if (operator instanceof SetReturningOperator resolved) {
            return resolved;
        }
        if (!(operator instanceof SqlUnresolvedFunction function)) {
            return null;
        }
        List<String> names = function.getNameAsId().names;
        if (names.size() > 2 || names.size() == 2 && !names.getFirst().equalsIgnoreCase("pg_catalog")) {
            return null;
        }
        return SetReturningOperator.named(names.getLast().toLowerCase(Locale.ROOT));
    }

    private static boolean isCoalesce(SqlOperator operator) {
        return operator instanceof SqlUnresolvedFunction function && function.getNameAsId().names.size() == 1
                && function.getName().equalsIgnoreCase("coalesce");
    }

    /** Whether the call is an aggregate: a resolved aggregate operator, or a name the operator table has only aggregates for. */
    private static boolean isAggregate(SqlOperator operator) {
        if (operator.isAggregator()) {
            return true;
        }
        if (!(operator instanceof SqlUnresolvedFunction function)) {
            return false;
        }
        List<SqlOperator> overloads = new ArrayList<>();
        ParallaxFunctions.OPERATOR_TABLE.lookupOperatorOverloads(function.getNameAsId(), null,
                SqlSyntax.FUNCTION, overloads, SqlNameMatchers.withCaseSensitive(false));
        return !overloads.isEmpty() && overloads.stream().allMatch(SqlOperator::isAggregator);
    }
}
