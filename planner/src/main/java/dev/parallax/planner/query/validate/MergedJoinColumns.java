package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.DelegatingScope;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * The merged columns of JOIN ... USING and NATURAL JOIN. The columns an unqualified {@code *}
 * stands for over a FROM clause with JOIN ... USING or
 * NATURAL JOIN, in PostgreSQL's order: at each such join the merged (common) columns first, once
 * each, in USING-list order (NATURAL: the left input's order), then the left input's other
 * columns, then the right input's; nested joins apply the rule from the innermost out. A merged
 * column is the left input's column for INNER and LEFT joins, the right input's for RIGHT, and
 * {@code COALESCE(left, right)} for FULL (a row only on the right shows the right's value).
 * <p>
 * Calcite moves the common columns to the front itself, but from the wrong place once other
 * select items precede the {@code *} ({@code select b.*, * from a join b using (k)} permuted the
 * {@code b.*} items too, and the rows no longer matched the row type); so the star is spelled out
 * here before Calcite expands the select list, as qualified column references its validator then
 * resolves as written. An unqualified reference to a merged column elsewhere in the SELECT (its
 * select list, WHERE, GROUP BY, HAVING, ORDER BY) is replaced by the same merged expression, where
 * Calcite found the name on both inputs ("column reference is ambiguous") or grouped it as COALESCE.
 */
final class MergedJoinColumns {
    private MergedJoinColumns() {
    }

    /**
     * One column of a FROM item as {@code *} shows it: its name, the expression that reads it, and
     * whether it is a join's merged column.
     */
    private record Column(String name, SqlNode expression, boolean merged) {
    }

    /**
     * {@code selectItems} with each unqualified {@code *} spelled out when {@code select}'s FROM
     * clause holds a USING or NATURAL join; the same list otherwise, and when an input of the join
     * has no name to qualify its columns with (Calcite's own expansion then applies).
     */
    static SqlNodeList expand(SqlNodeList selectItems, SqlSelect select, SqlValidator validator) {
        SqlNode from = select.getFrom();
        if (from != null && validator instanceof ParallaxValidator parallax && parallax.joinAliases.isJoinAlias(select)) {
            // A join alias's columns are the join's *, renamed by the alias's column list.
            List<Column> columns = columns(from, validator, selectItems.getParserPosition());
            SqlNodeList aliased = columns == null ? null : parallax.joinAliases.selectList(select,
                    columns.stream().map(Column::expression).toList(), columns.stream().map(Column::name).toList());
            if (aliased != null) {
                return aliased;
            }
        }
        if (from == null || !hasMergingJoin(from, validator)
                || selectItems.stream().noneMatch(item -> isBareStar(item) || usingAliasStar(item, from, validator) != null)) {
            return selectItems;
        }
        List<SqlNode> expanded = new ArrayList<>(selectItems.size());
        for (SqlNode item : selectItems) {
            SqlJoin aliasedJoin = usingAliasStar(item, from, validator);
            if (aliasedJoin != null) {
                // u.* of a USING alias: the merged columns.
                List<Column> columns = columns(aliasedJoin, validator, item.getParserPosition());
                if (columns == null) {
                    return selectItems;
                }
                columns.stream().filter(Column::merged).forEach(column -> expanded.add(column.expression()));
                continue;
            }
            if (!isBareStar(item)) {
                expanded.add(item);
                continue;
            }
            List<Column> columns = columns(from, validator, item.getParserPosition());
            if (columns == null) {
                return selectItems;
            }
            expanded.addAll(uniquelyNamed(columns.stream().map(Column::expression).toList(), columns.stream().map(Column::name).toList()));
        }
        return new SqlNodeList(expanded, selectItems.getParserPosition());
    }

    /**
     * {@code items} named {@code names}, a name met before renamed as Calcite renames a column of its
     * own star expansion (y, y0), by an alias of no position: a derived table's row type then has
     * unique names, which Calcite's expansion of a {@code *} over it needs (its t.y would be
     * ambiguous), and the label is still the column's name (QueryPlanner's labels read through such an alias).
     */
    static List<SqlNode> uniquelyNamed(List<SqlNode> items, List<String> names) {
        List<String> unique = SqlValidatorUtil.uniquify(names, true);
        if (unique.equals(names)) {
            return items;
        }
        List<SqlNode> renamed = new ArrayList<>(items.size());
        for (int index = 0; index < items.size(); index++) {
            SqlNode item = items.get(index);
            if (!unique.get(index).equals(names.get(index))) {
                SqlNode expression = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
                item = SqlStdOperatorTable.AS.createCall(item.getParserPosition(), expression,
                        new SqlIdentifier(unique.get(index), SqlParserPos.ZERO));
            }
            renamed.add(item);
        }
        return renamed;
    }

    /**
     * {@code condition} (a WHERE or HAVING condition, a GROUP BY list or a select item of
     * {@code select}) with each unqualified reference to a merged column replaced by that column's
     * expression, as PostgreSQL resolves it (Calcite finds the name on both inputs: "column
     * reference is ambiguous"); the same node when nothing is replaced. The name is looked up as
     * PostgreSQL looks it up: in {@code select}'s FROM clause first, then in the FROM clause of each
     * enclosing query, nearest first (a correlated subquery's reference to the outer query's merged
     * column). Nested subqueries keep their references: their own clauses are resolved when
     * Calcite validates them.
     */
    static SqlNode resolveMergedColumns(SqlNode condition, SqlSelect select, SqlValidator validator) {
        if (condition == null) {
            return condition;
        }
        List<SqlNode> fromClauses = new ArrayList<>();
        fromClauses.add(select.getFrom());
        fromClauses.addAll(enclosingFromClauses(validator.getWhereScope(select), validator));
        return resolveMergedColumns(condition, fromClauses, validator);
    }

    /**
     * The ON condition of {@code join} (before Calcite validates it) with unqualified references to
     * a merged column of the join's inputs resolved as in {@link #resolveMergedColumns}: {@code a
     * join b using (k) join c on c.x = k} compares with the merged k. An enclosing query's merged
     * columns are found too.
     */
    static void resolveMergedOnColumns(SqlJoin join, SqlValidator validator) {
        if (join.getConditionType() != JoinConditionType.ON || join.getCondition() == null) {
            return;
        }
        List<SqlNode> fromClauses = new ArrayList<>();
        fromClauses.add(join);
        fromClauses.addAll(enclosingFromClauses(validator.getJoinScope(join), validator));
        SqlNode condition = join.getCondition();
        SqlNode resolved = resolveMergedColumns(condition, fromClauses, validator);
        if (resolved != condition) {
            join.setOperand(5, resolved);
        }
    }

    /**
     * The FROM clauses of the queries enclosing {@code scope}'s own query, nearest first: the
     * parents of a select's (or a join's) scope are the scopes of the query a subquery is nested in.
     */
    private static List<SqlNode> enclosingFromClauses(SqlValidatorScope scope, SqlValidator validator) {
        List<SqlNode> fromClauses = new ArrayList<>();
        SqlValidatorScope parent = scope instanceof DelegatingScope delegating ? delegating.getParent() : null;
        SqlSelect last = null;
        // The catalog scope at the top (over the empty scope) names no query: its getNode throws.
        while (parent instanceof DelegatingScope delegating && delegating.getParent() instanceof DelegatingScope) {
            if (delegating.getNode() instanceof SqlSelect enclosing && enclosing != last) {
                fromClauses.add(enclosing.getFrom());
                last = enclosing;
            }
            parent = delegating.getParent();
        }
        return fromClauses;
    }

    /**
     * {@code expression} with unqualified merged columns resolved against {@code fromClauses}
     * (nearest first): a name is the column of the first FROM clause that has it; when that is a
     * merged column, its expression replaces the name. A name found twice in one FROM clause, an
     * input without a name to qualify its columns with, or a merged column whose table name a nearer
     * FROM clause hides are left to Calcite.
     */
    private static SqlNode resolveMergedColumns(SqlNode expression, List<SqlNode> fromClauses, SqlValidator validator) {
        if (fromClauses.stream().noneMatch(from -> from != null && hasMergingJoin(from, validator))) {
            return expression;
        }
        return expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                if (identifier.names.size() == 2 && !identifier.isStar()) {
                    SqlNode merged = usingAliasColumn(identifier, fromClauses, validator);
                    return merged == null ? identifier : merged;
                }
                if (identifier.names.size() != 1 || identifier.isStar()) {
                    return identifier;
                }
                List<String> nearerTables = new ArrayList<>();
                for (int level = 0; level < fromClauses.size(); level++) {
                    SqlNode from = fromClauses.get(level);
                    if (from == null) {
                        continue;
                    }
                    List<Column> columns = columns(from, validator, identifier.getParserPosition());
                    if (columns == null) {
                        return identifier;
                    }
                    Column found = null;
                    for (Column column : columns) {
                        if (column.name().equals(identifier.getSimple())) {
                            if (found != null) {
                                // Named twice: PostgreSQL's ambiguity error stays Calcite's.
                                return identifier;
                            }
                            found = column;
                        }
                    }
                    if (found != null) {
                        SqlNode merged = found.merged() ? find(List.of(found), found.name()) : null;
                        return merged == null || readsTable(merged, nearerTables) ? identifier : merged;
                    }
                    nearerTables.addAll(tableNames(from));
                }
                return identifier;
            }

            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.WITH) {
                    return call;
                }
                if (call.getKind() == SqlKind.AS) {
                    // An alias names the item; only the aliased expression reads columns.
                    SqlNode aliased = call.operand(0).accept(this);
                    if (aliased == call.operand(0)) {
                        return call;
                    }
                    List<SqlNode> operands = new ArrayList<>(call.getOperandList());
                    operands.set(0, aliased);
                    return call.getOperator().createCall(call.getParserPosition(), operands);
                }
                return super.visit(call);
            }
        });
    }

    /**
     * {@code u.k} where u is the alias of a USING clause (PostgreSQL 14's {@code a join b using (k)
     * as u}): the merged column k, as the join merges it; 42703 for a column u does not merge. The
     * alias is looked for in {@code fromClauses}, nearest first; a table of that name in a nearer
     * FROM clause hides it. Null when no USING alias has the name.
     */
    private static SqlNode usingAliasColumn(SqlIdentifier identifier, List<SqlNode> fromClauses, SqlValidator validator) {
        String alias = identifier.names.getFirst();
        for (SqlNode from : fromClauses) {
            if (from == null) {
                continue;
            }
            SqlJoin join = usingAliasJoin(from, alias, validator);
            if (join != null) {
                List<Column> columns = columns(join, validator, identifier.getParserPosition());
                String name = identifier.names.getLast();
                if (columns == null) {
                    return null;
                }
                for (Column column : columns) {
                    if (column.merged() && column.name().equals(name)) {
                        return find(List.of(column), name);
                    }
                }
                throw PostgresValidationError.at(identifier.getParserPosition(), SqlState.UNDEFINED_COLUMN,
                        "column " + alias + "." + name + " does not exist", null);
            }
            if (tableNames(from).contains(alias)) {
                return null;
            }
        }
        return null;
    }

    /** The join among FROM item {@code from}'s whose USING clause is aliased {@code alias}, or null. */
    private static SqlJoin usingAliasJoin(SqlNode from, String alias, SqlValidator validator) {
        if (!(from instanceof SqlJoin join) || !(validator instanceof ParallaxValidator parallax)) {
            return null;
        }
        if (alias.equals(parallax.joinAliases.usingAlias(join))) {
            return join;
        }
        SqlJoin left = usingAliasJoin(join.getLeft(), alias, validator);
        return left != null ? left : usingAliasJoin(join.getRight(), alias, validator);
    }

    /** The names of the tables (FROM items) of {@code from}. */
    private static List<String> tableNames(SqlNode from) {
        if (from instanceof SqlJoin join) {
            List<String> names = new ArrayList<>(tableNames(join.getLeft()));
            names.addAll(tableNames(join.getRight()));
            return names;
        }
        String alias = SqlValidatorUtil.alias(from);
        return alias == null ? List.of() : List.of(alias);
    }

    /** Whether {@code expression} reads a column qualified by one of {@code tables}. */
    private static boolean readsTable(SqlNode expression, List<String> tables) {
        if (expression instanceof SqlIdentifier identifier) {
            return identifier.names.size() > 1 && tables.contains(identifier.names.getFirst());
        }
        return expression instanceof SqlCall call
                && call.getOperandList().stream().anyMatch(operand -> operand != null && readsTable(operand, tables));
    }

    /**
     * {@code selectItems} with unqualified references to merged columns resolved as in
     * {@link #resolveMergedColumns}; an item that is only such a reference keeps the column's name
     * as its alias. Calcite resolves them itself in a select list, but as COALESCE for every kind
     * of join, which a GROUP BY of the resolved column would not match.
     */
    static SqlNodeList resolveMergedSelectItems(SqlNodeList selectItems, SqlSelect select, SqlValidator validator) {
        List<SqlNode> resolved = new ArrayList<>(selectItems.size());
        boolean changed = false;
        for (SqlNode item : selectItems) {
            SqlNode resolvedItem = resolveMergedColumns(item, select, validator);
            if (resolvedItem != item && item instanceof SqlIdentifier column) {
                resolvedItem = SqlStdOperatorTable.AS.createCall(column.getParserPosition(), resolvedItem,
                        new SqlIdentifier(column.names.getLast(), column.getParserPosition()));
            }
            changed |= resolvedItem != item;
            resolved.add(resolvedItem);
        }
        return changed ? new SqlNodeList(resolved, selectItems.getParserPosition()) : selectItems;
    }

    /**
     * {@code select}'s ORDER BY list with unqualified references to merged columns resolved as in
     * {@link #resolveMergedColumns}, except names of the select list's items, which ORDER BY reads first.
     */
    static SqlNodeList resolveMergedOrderItems(SqlNodeList orderItems, SqlSelect select, SqlValidator validator) {
        if (orderItems == null) {
            return orderItems;
        }
        List<String> itemNames = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            String name = SqlValidatorUtil.alias(item);
            if (name != null) {
                itemNames.add(name);
            }
        }
        List<SqlNode> resolved = new ArrayList<>(orderItems.size());
        boolean changed = false;
        for (SqlNode item : orderItems) {
            SqlNode resolvedItem = item;
            SqlNode key = item;
            while (key instanceof SqlCall call && (key.getKind() == SqlKind.DESCENDING
                    || key.getKind() == SqlKind.NULLS_FIRST || key.getKind() == SqlKind.NULLS_LAST)) {
                key = call.operand(0);
            }
            if (!(key instanceof SqlIdentifier column && column.names.size() == 1 && itemNames.contains(column.getSimple()))) {
                resolvedItem = resolveMergedColumns(item, select, validator);
            }
            changed |= resolvedItem != item;
            resolved.add(resolvedItem);
        }
        return changed ? new SqlNodeList(resolved, orderItems.getParserPosition()) : orderItems;
    }

    /** The join whose USING alias {@code item} spells the star of ({@code u.*}), or null. */
    private static SqlJoin usingAliasStar(SqlNode item, SqlNode from, SqlValidator validator) {
        return item instanceof SqlIdentifier identifier && identifier.isStar() && identifier.names.size() == 2
                ? usingAliasJoin(from, identifier.names.getFirst(), validator) : null;
    }

    private static boolean isBareStar(SqlNode item) {
        return item instanceof SqlIdentifier identifier && identifier.isStar() && identifier.names.size() == 1;
    }

    private static boolean hasMergingJoin(SqlNode from, SqlValidator validator) {
        return from instanceof SqlJoin join
                && (join.isNatural() || join.getConditionType() == JoinConditionType.USING
                || validator instanceof ParallaxValidator parallax && parallax.joinsMergedOn.containsKey(join)
                || hasMergingJoin(join.getLeft(), validator) || hasMergingJoin(join.getRight(), validator));
    }

    /**
     * Before Calcite validates {@code join}: when a USING / NATURAL join's common column is, on an
     * input, a merged column that is not that input's first column of the name (an inner RIGHT
     * join's right column, a FULL join's COALESCE), the join becomes an ON join over the merged
     * expressions, as PostgreSQL joins it; Calcite's USING condition compares the input's first
     * column of the name ({@code a full join b using (k) full join c using (k)} joined c on a.k,
     * so a row only in b never met c's). The common names are kept for {@code *} and unqualified
     * references. A USING list is first checked as PostgreSQL checks it ({@link #checkUsingNames}).
     */
    static void mergeThroughMergedColumns(SqlJoin join, SqlValidator validator) {
        if (!join.isNatural() && join.getConditionType() != JoinConditionType.USING) {
            return;
        }
        SqlParserPos position = join.getParserPosition();
        List<Column> left = columns(join.getLeft(), validator, position);
        List<Column> right = columns(join.getRight(), validator, position);
        if (left == null || right == null) {
            return;
        }
        List<String> common = commonNames(join, left, right, validator);
        checkUsingNames(join, common, left, right);
        boolean moved = false;
        List<SqlNode> equalities = new ArrayList<>(common.size());
        for (String name : common) {
            SqlNode leftColumn = find(left, name);
            SqlNode rightColumn = find(right, name);
            if (leftColumn == null || rightColumn == null) {
                return;
            }
            moved |= !isFirstLeafColumn(leftColumn, join.getLeft(), name, validator)
                    || !isFirstLeafColumn(rightColumn, join.getRight(), name, validator);
            equalities.add(SqlStdOperatorTable.EQUALS.createCall(position, leftColumn, rightColumn));
        }
        if (!moved) {
            return;
        }
        SqlNode condition = equalities.size() == 1 ? equalities.getFirst()
                : SqlStdOperatorTable.AND.createCall(position, equalities);
        ((ParallaxValidator) validator).joinsMergedOn.put(join, common);
        join.setOperand(1, org.apache.calcite.sql.SqlLiteral.createBoolean(false, position));
        join.setOperand(4, JoinConditionType.ON.symbol(position));
        join.setOperand(5, condition);
    }

    /**
     * PostgreSQL's errors for a USING list naming a column twice or a column one input lacks
     * (Calcite's "column does not exist" named neither the clause nor the input).
     */
    private static void checkUsingNames(SqlJoin join, List<String> names, List<Column> left, List<Column> right) {
        if (join.isNatural() || join.getConditionType() != JoinConditionType.USING) {
            return;
        }
        for (int index = 0; index < names.size(); index++) {
            String name = names.get(index);
            if (names.subList(0, index).contains(name)) {
                throw new ParallaxException(SqlState.DUPLICATE_COLUMN, "column name \"" + name + "\" appears more than once in USING clause");
            }
            if (left.stream().noneMatch(column -> column.name().equals(name))) {
                throw new ParallaxException(SqlState.UNDEFINED_COLUMN, "column \"" + name + "\" specified in USING clause does not exist in left table");
            }
            if (right.stream().noneMatch(column -> column.name().equals(name))) {
                throw new ParallaxException(SqlState.UNDEFINED_COLUMN, "column \"" + name + "\" specified in USING clause does not exist in right table");
            }
        }
    }

    /** Whether {@code column} is the first column named {@code name} of the leaves of FROM item {@code node}: the one Calcite's USING reads. */
    private static boolean isFirstLeafColumn(SqlNode column, SqlNode node, String name, SqlValidator validator) {
        if (node instanceof SqlJoin join) {
            List<Column> leftColumns = columns(join.getLeft(), validator, SqlParserPos.ZERO);
            return leftColumns != null && leftColumns.stream().anyMatch(leftColumn -> leftColumn.name().equals(name))
                    ? isFirstLeafColumn(column, join.getLeft(), name, validator)
                    : isFirstLeafColumn(column, join.getRight(), name, validator);
        }
        return column instanceof SqlIdentifier identifier && identifier.names.size() == 2
                && identifier.names.get(0).equals(SqlValidatorUtil.alias(node)) && identifier.names.get(1).equals(name);
    }

    /** The columns of FROM item {@code node} in {@code *}'s order, or null when an input has no name. */
    private static List<Column> columns(SqlNode node, SqlValidator validator, SqlParserPos position) {
        if (!(node instanceof SqlJoin join)) {
            String alias = SqlValidatorUtil.alias(node);
            SqlValidatorNamespace namespace = validator.getNamespace(node);
            if (alias == null || namespace == null) {
                return null;
            }
            // A join alias's columns keep PostgreSQL's names, which Calcite's row type made unique.
            List<String> names = validator instanceof ParallaxValidator parallax ? parallax.joinAliases.columnNames(node) : null;
            List<RelDataTypeField> fields = namespace.getRowType().getFieldList();
            List<Column> columns = new ArrayList<>();
            for (int index = 0; index < fields.size(); index++) {
                String field = fields.get(index).getName();
                String name = names != null && names.size() == fields.size() ? names.get(index) : field;
                columns.add(new Column(name, new SqlIdentifier(List.of(alias, field), position), false));
            }
            return columns;
        }
        List<Column> left = columns(join.getLeft(), validator, position);
        List<Column> right = columns(join.getRight(), validator, position);
        if (left == null || right == null) {
            return null;
        }
        List<String> common = commonNames(join, left, right, validator);
        List<Column> columns = new ArrayList<>(left.size() + right.size());
        for (String name : common) {
            SqlNode leftColumn = find(left, name);
            SqlNode rightColumn = find(right, name);
            if (leftColumn == null || rightColumn == null) {
                // Calcite reports the USING column missing on one side with its own error.
                return null;
            }
            SqlNode merged = join.getJoinType() == JoinType.RIGHT ? rightColumn
                    : join.getJoinType() == JoinType.FULL
                    ? SqlStdOperatorTable.COALESCE.createCall(position, leftColumn, rightColumn) : leftColumn;
            // The alias keeps the merged column's name (a COALESCE would be named coalesce).
            columns.add(new Column(name, SqlStdOperatorTable.AS.createCall(position, merged,
                    new SqlIdentifier(name, position)), true));
        }
        for (Column column : left) {
            if (!common.contains(column.name())) {
                columns.add(column);
            }
        }
        for (Column column : right) {
            if (!common.contains(column.name())) {
                columns.add(column);
            }
        }
        return columns;
    }

    /** The USING list's names; NATURAL's: the left input's column names the right input also has, in the left's order. */
    private static List<String> commonNames(SqlJoin join, List<Column> left, List<Column> right, SqlValidator validator) {
        List<String> names = new ArrayList<>();
        if (join.isNatural()) {
            for (Column column : left) {
                if (find(right, column.name()) != null && !names.contains(column.name())) {
                    names.add(column.name());
                }
            }
        } else if (validator instanceof ParallaxValidator parallax && parallax.joinsMergedOn.containsKey(join)) {
            names.addAll(parallax.joinsMergedOn.get(join));
        } else if (join.getConditionType() == JoinConditionType.USING && join.getCondition() instanceof SqlNodeList list) {
            for (SqlNode name : list) {
                names.add(((SqlIdentifier) name).getSimple());
            }
        }
        return names;
    }

    /**
     * A copy of the expression of the column named {@code name} without its alias, or null when
     * there is none: a copy, since the validator keys what it learns about a node by its identity.
     */
    private static SqlNode find(List<Column> columns, String name) {
        for (Column column : columns) {
            if (column.name().equals(name)) {
                SqlNode expression = column.expression();
                return copy(expression.getKind() == SqlKind.AS ? ((SqlCall) expression).operand(0) : expression);
            }
        }
        return null;
    }

    private static SqlNode copy(SqlNode expression) {
        if (expression instanceof SqlCall call) {
            List<SqlNode> operands = new ArrayList<>(call.operandCount());
            for (SqlNode operand : call.getOperandList()) {
                operands.add(copy(operand));
            }
            return call.getOperator().createCall(call.getParserPosition(), operands);
        }
        return expression.clone(expression.getParserPosition());
    }
}
