package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.SqlState;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Litmus;

import java.util.List;

/**
 * A bare name in ORDER BY that names output columns, as PostgreSQL's findTargetlistEntrySQL92
 * resolves it against the select list with {@code *} spelled out: several output columns of that
 * name are fine when they are the same expression ({@code select x, * from t order by x}, or
 * {@code select x, x}), and 42702 {@code ORDER BY "x" is ambiguous} when they differ
 * ({@code select x, y as x}, {@code select x as y, * from t order by y}). Calcite counted only the
 * names written in the select list, so it refused {@code x, x} and let {@code x as y, *} order by
 * the written one; a name several equal columns share becomes the first one's position here, a
 * name of one output column stays Calcite's to resolve.
 */
final class OrderByOutputNames {
    private OrderByOutputNames() {
    }

    /** {@code orderList} with names of several equal output columns replaced by a position; the same list when none is. */
    static SqlNodeList resolve(SqlNodeList orderList, SqlSelect select, SqlValidatorImpl validator) {
        if (orderList == null || orderList.isEmpty()) {
            return orderList;
        }
        SelectScope scope = validator.getRawSelectScope(select);
        List<SqlNode> outputs = scope == null ? null : scope.getExpandedSelectList();
        if (outputs == null) {
            return orderList;
        }
        SqlNodeList resolved = null;
        for (int index = 0; index < orderList.size(); index++) {
            SqlNode item = orderList.get(index);
            SqlNode replaced = replaceName(item, outputs, validator, scope);
            if (replaced != item) {
                if (resolved == null) {
                    resolved = new SqlNodeList(orderList.getList(), orderList.getParserPosition());
                }
                resolved.set(index, replaced);
            }
        }
        return resolved == null ? orderList : resolved;
    }

    /** The item with its bare name replaced (under DESC / NULLS FIRST / NULLS LAST), or the item itself. */
    private static SqlNode replaceName(SqlNode item, List<SqlNode> outputs, SqlValidatorImpl validator, SelectScope scope) {
        if (item instanceof SqlBasicCall call && (call.getKind() == SqlKind.DESCENDING || call.getKind() == SqlKind.NULLS_FIRST
                || call.getKind() == SqlKind.NULLS_LAST)) {
            SqlNode operand = replaceName(call.operand(0), outputs, validator, scope);
            if (operand != call.operand(0)) {
                call.setOperand(0, operand);
            }
            return item;
        }
        if (!(item instanceof SqlIdentifier identifier) || !identifier.isSimple() || identifier.isStar()) {
            return inputColumns(item, outputs, scope);
        }
        String name = identifier.getSimple();
        int first = -1;
        int count = 0;
        SqlNode firstExpression = null;
        for (int position = 0; position < outputs.size(); position++) {
            SqlNode output = outputs.get(position);
            if (!name.equals(outputName(output))) {
                continue;
            }
            SqlNode expression = validator.expand(withoutAlias(output), scope);
            count++;
            if (first < 0) {
                first = position;
                firstExpression = expression;
            } else if (!firstExpression.equalsDeep(expression, Litmus.IGNORE)) {
                throw PostgresValidationError.at(identifier.getParserPosition(), SqlState.AMBIGUOUS_COLUMN,
                        "ORDER BY \"" + name + "\" is ambiguous", null);
            }
        }
        if (count < 2) {
            return item; // Calcite resolves one output column of the name (or an input column) as PostgreSQL does
        }
        return SqlLiteral.createExactNumeric(String.valueOf(first + 1), identifier.getParserPosition());
    }

    /**
     * An ORDER BY expression other than a bare name reads input columns only (PostgreSQL's SQL99
     * rule): a name in it that is an output column's and an input column's is qualified as the
     * input's, where Calcite took the output column ({@code select y as x, * from t order by -x}
     * orders by -t.x). Names in subqueries are theirs to resolve.
     */
    private static SqlNode inputColumns(SqlNode item, List<SqlNode> outputs, SelectScope scope) {
        if (item instanceof SqlIdentifier identifier) {
            if (!identifier.isSimple() || identifier.isStar() || !isOutputName(identifier.getSimple(), outputs)) {
                return item;
            }
            try {
                return scope.fullyQualify(identifier).identifier;
            } catch (CalciteContextException notAnInputColumn) {
                return item;
            }
        }
        if (item instanceof SqlCall call && !(item instanceof SqlSelect) && !call.getKind().belongsTo(SqlKind.QUERY)) {
            List<SqlNode> operands = call.getOperandList();
            for (int index = 0; index < operands.size(); index++) {
                SqlNode operand = operands.get(index);
                if (operand != null) {
                    SqlNode replaced = inputColumns(operand, outputs, scope);
                    if (replaced != operand) {
                        call.setOperand(index, replaced);
                    }
                }
            }
        }
        return item;
    }

    private static boolean isOutputName(String name, List<SqlNode> outputs) {
        for (SqlNode output : outputs) {
            if (name.equals(outputName(output))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The output column's name as PostgreSQL labels it: the validator renames a second column of one
     * name (y of {@code select x as y, *}) to y0 with an alias of no position or of the column's own,
     * which is the column's name still.
     */
    private static String outputName(SqlNode output) {
        if (output instanceof SqlCall alias && alias.getKind() == SqlKind.AS && alias.operand(0) instanceof SqlIdentifier column) {
            SqlParserPos aliasPosition = alias.operand(1).getParserPosition();
            if (aliasPosition.equals(SqlParserPos.ZERO) || aliasPosition.equals(column.getParserPosition())) {
                return column.names.getLast();
            }
        }
        return SqlValidatorUtil.alias(output);
    }

    private static SqlNode withoutAlias(SqlNode item) {
        return item instanceof SqlCall alias && alias.getKind() == SqlKind.AS ? alias.operand(0) : item;
    }
}
