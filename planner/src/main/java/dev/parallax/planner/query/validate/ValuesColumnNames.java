package dev.parallax.planner.query.validate;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's names for the columns of a VALUES list, column1, column2, ..., given on the parsed
 * statement where the query names none: a VALUES in FROM with an alias but no column list
 * ({@code (values (1, 'a')) as v} reads {@code v.column1}), a WITH item over a VALUES without a
 * column list, and a VALUES with ORDER BY, LIMIT or OFFSET at the top (Calcite's validator would
 * select from it and label its columns EXPR$0, ...). Calcite named them EXPR$0, EXPR$1, ..., which
 * reached the result's labels and could not be referenced by PostgreSQL's names.
 */
public final class ValuesColumnNames {
    /** PostgreSQL's name for the range-table entry of a VALUES list. */
    private static final String VALUES_ALIAS = "*VALUES*";

    private ValuesColumnNames() {
    }

    /** {@code parsed} with its VALUES lists' columns named: changed in place, or a new root for a top-level VALUES with ORDER BY. */
    public static SqlNode name(SqlNode parsed) {
        parsed.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(named(select.getFrom()));
                } else if (call instanceof SqlWithItem item && item.columnList == null && isValues(item.query)) {
                    item.columnList = columnNames(item.query);
                }
                return super.visit(call);
            }
        });
        if (parsed instanceof SqlOrderBy orderBy && isValues(orderBy.query)) {
            SqlParserPos position = orderBy.query.getParserPosition();
            SqlNode from = aliased(orderBy.query, new SqlIdentifier(VALUES_ALIAS, position));
            SqlSelect select = new SqlSelect(position, null, SqlNodeList.SINGLETON_STAR, from, null, null, null, null, null,
                    null, null, null);
            return new SqlOrderBy(orderBy.getParserPosition(), select, orderBy.orderList, orderBy.offset, orderBy.fetch);
        }
        return parsed;
    }

    /** A FROM item with its VALUES lists' columns named (joins descended into). */
    private static SqlNode named(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(named(join.getLeft()));
            join.setRight(named(join.getRight()));
            return join;
        }
        if (from.getKind() == SqlKind.AS && from instanceof SqlCall as && as.operandCount() == 2 && isValues(as.operand(0))) {
            return aliased(as.operand(0), as.operand(1));
        }
        return from;
    }

    private static SqlNode aliased(SqlNode values, SqlNode alias) {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(values);
        operands.add(alias);
        operands.addAll(columnNames(values).getList());
        return new SqlBasicCall(SqlStdOperatorTable.AS, operands, alias.getParserPosition());
    }

    private static boolean isValues(SqlNode node) {
        return node != null && node.getKind() == SqlKind.VALUES;
    }

    /** column1 ... columnN for a VALUES list of N columns (its first row's length). */
    private static SqlNodeList columnNames(SqlNode values) {
        int count = ValuesRowLengths.length(((SqlCall) values).operand(0));
        SqlNodeList names = new SqlNodeList(values.getParserPosition());
        for (int column = 1; column <= count; column++) {
            names.add(new SqlIdentifier("column" + column, values.getParserPosition()));
        }
        return names;
    }
}
