package dev.parallax.planner.query.validate;

import dev.parallax.engine.error.SqlState;
import dev.parallax.planner.query.parse.JoinAliasRewrite;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The aliases of joins in one statement, as PostgreSQL scopes them. The dialect rewrite turned
 * {@code (a join b using (k)) as j (c1, ...)} into the derived table {@code (select all * from a
 * join b using (k)) as j (c1, ...)} and {@code using (k) as u} into a marked USING list
 * ({@link JoinAliasRewrite}); here the validator learns them back:
 * <ul>
 *   <li>a join alias's column list may name fewer columns than the join has (the rest keep their
 *       names), more is 42P10 "join expression "j" has 5 columns available but 7 columns specified";
 *       so it is taken off the AS before Calcite, which wants every column named, and applied to the
 *       spelled-out select list;</li>
 *   <li>the join's columns keep PostgreSQL's names, duplicates included ({@code (a join b on a.k =
 *       b.k) j} has two k): {@code j.k} or {@code k} is then 42702 "column reference "k" is
 *       ambiguous", and the name Calcite made unique ({@code k0}) is no column (42703);</li>
 *   <li>a table inside the join is hidden: {@code a.x} outside it is 42P01 "invalid reference to
 *       FROM-clause entry for table "a"" with PostgreSQL's hint;</li>
 *   <li>a USING alias names the join's merged columns only ({@link MergedJoinColumns} resolves
 *       {@code u.k} and {@code u.*}).</li>
 * </ul>
 */
final class JoinAliases {
    /** PostgreSQL's hint for a reference to a table a join alias hides. */
    private static final String HIDDEN_TABLE_HINT = "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.";

    /** A join alias: its name and the column names its list gives (maybe fewer than the join's columns). */
    private record Alias(String name, List<String> columnNames) {
    }

    private final Map<SqlSelect, Alias> aliases = new IdentityHashMap<>();
    /** The names of each join alias's columns, in order, as PostgreSQL names them: known once its select list is spelled out. */
    private final Map<SqlSelect, List<String>> columnNames = new IdentityHashMap<>();
    private final Map<SqlJoin, String> usingAliases = new IdentityHashMap<>();
    /**
     * Where the statement's {@code *} and {@code t.*} items stand: Calcite spells a star out as
     * column references at the star's position, and those name each column once, duplicates or not.
     */
    private final java.util.Set<SqlParserPos> starPositions = new java.util.HashSet<>();
    private SqlNode statement;

    /** Finds the join aliases of {@code top} before Calcite registers its namespaces; takes their column lists off the AS. */
    void prepare(SqlNode top) {
        statement = top;
        top.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(prepared(select.getFrom()));
                }
                return super.visit(call);
            }
        });
    }

    private SqlNode prepared(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(prepared(join.getLeft()));
            join.setRight(prepared(join.getRight()));
            takeUsingAlias(join);
            return join;
        }
        if (from.getKind() == SqlKind.AS && from instanceof SqlCall as && as.operand(0) instanceof SqlSelect select && isMarked(select)) {
            List<String> names = new ArrayList<>();
            for (SqlNode column : as.getOperandList().subList(2, as.operandCount())) {
                names.add(((SqlIdentifier) column).getSimple());
            }
            SqlIdentifier alias = as.operand(1);
            aliases.put(select, new Alias(alias.getSimple(), names));
            return names.isEmpty() ? from : new SqlBasicCall(SqlStdOperatorTable.AS, List.of(select, alias), as.getParserPosition());
        }
        return from;
    }

    /** Whether {@code select} is a join alias's derived table of this statement. */
    boolean isJoinAlias(SqlSelect select) {
        return aliases.containsKey(select);
    }

    /** Whether {@code select} is the derived table the dialect rewrite made of a join alias. */
    private static boolean isMarked(SqlSelect select) {
        return select.getModifierNode(SqlSelectKeyword.ALL) != null && select.getFrom() instanceof SqlJoin
                && select.getSelectList().size() == 1 && select.getSelectList().get(0) instanceof SqlIdentifier star
                && star.isStar() && star.names.size() == 1 && select.getWhere() == null && select.getGroup() == null;
    }

    /**
     * The select list of a join alias's derived table: the join's columns spelled out in
     * {@code *}'s order ({@code columns}, each an expression with its PostgreSQL name), the first
     * ones renamed by the alias's column list; null for any other select.
     */
    SqlNodeList selectList(SqlSelect select, List<SqlNode> columns, List<String> names) {
        Alias alias = aliases.get(select);
        if (alias == null || columns == null) {
            return null;
        }
        if (alias.columnNames().size() > columns.size()) {
            throw PostgresValidationError.at(select.getParserPosition(), SqlState.INVALID_COLUMN_REFERENCE,
                    "join expression \"" + alias.name() + "\" has " + columns.size() + " columns available but "
                            + alias.columnNames().size() + " columns specified", null);
        }
        List<SqlNode> items = new ArrayList<>(columns.size());
        List<String> finalNames = new ArrayList<>(columns.size());
        for (int index = 0; index < columns.size(); index++) {
            SqlNode column = columns.get(index);
            String name = names.get(index);
            if (index < alias.columnNames().size()) {
                name = alias.columnNames().get(index);
                SqlNode expression = column.getKind() == SqlKind.AS ? ((SqlCall) column).operand(0) : column;
                // The alias has a position: a renaming of no position is one of Calcite's, labelled by the column's name.
                column = SqlStdOperatorTable.AS.createCall(column.getParserPosition(), expression,
                        new SqlIdentifier(name, select.getParserPosition()));
            }
            items.add(column);
            finalNames.add(name);
        }
        columnNames.put(select, Collections.unmodifiableList(finalNames));
        return new SqlNodeList(MergedJoinColumns.uniquelyNamed(items, finalNames), select.getSelectList().getParserPosition());
    }

    /** Remembers where the stars of a select list stand, before Calcite spells them out. */
    void noteStars(SqlNodeList selectItems) {
        if (aliases.isEmpty()) {
            return;
        }
        for (SqlNode item : selectItems) {
            if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
                starPositions.add(identifier.getParserPosition());
            }
        }
    }

    /** PostgreSQL's names of the columns of FROM item {@code node} when it is a join alias (duplicates kept), else null. */
    List<String> columnNames(SqlNode node) {
        SqlNode query = node.getKind() == SqlKind.AS ? ((SqlCall) node).operand(0) : node;
        return query instanceof SqlSelect select ? columnNames.get(select) : null;
    }

    /**
     * Checks a column reference resolved to a join alias's column against PostgreSQL's names: a
     * name the join has twice is ambiguous (42702), a name Calcite made unique is none (42703).
     */
    void checkReference(SqlIdentifier identifier, SqlValidatorScope scope) {
        if (columnNames.isEmpty() || identifier.names.size() < 2 || identifier.isStar()
                || starPositions.contains(identifier.getParserPosition())) {
            return;
        }
        SqlQualified qualified = scope.fullyQualify(identifier);
        SqlValidatorNamespace namespace = qualified.namespace;
        if (namespace == null || qualified.prefixLength != identifier.names.size() - 1) {
            return;
        }
        SqlNode node = namespace.getEnclosingNode() != null ? namespace.getEnclosingNode() : namespace.getNode();
        List<String> names = node == null ? null : columnNames(node);
        if (names == null) {
            return;
        }
        String column = identifier.names.getLast();
        int count = Collections.frequency(names, column);
        if (count == 0) {
            throw PostgresValidationError.at(identifier.getParserPosition(), SqlState.UNDEFINED_COLUMN,
                    "column " + identifier.names.get(identifier.names.size() - 2) + "." + column + " does not exist", null);
        }
        if (count > 1) {
            throw PostgresValidationError.at(identifier.getParserPosition(), SqlState.AMBIGUOUS_COLUMN,
                    "column reference \"" + column + "\" is ambiguous", null);
        }
    }

    /**
     * PostgreSQL's error for {@code table} not found at {@code position} when a join alias of a
     * query enclosing the reference hides a table of that name: 42P01 "invalid reference to
     * FROM-clause entry" with its hint; null otherwise (Calcite's error stands).
     */
    CalciteContextException hiddenTable(String table, SqlParserPos position) {
        if (aliases.isEmpty() || statement == null) {
            return null;
        }
        List<SqlSelect> enclosing = enclosingSelects(statement, position, new ArrayList<>());
        if (enclosing == null) {
            return null;
        }
        for (SqlSelect select : enclosing) {
            if (select.getFrom() != null && hides(select.getFrom(), table)) {
                return PostgresValidationError.at(position, SqlState.UNDEFINED_TABLE,
                        "invalid reference to FROM-clause entry for table \"" + table + "\"", HIDDEN_TABLE_HINT.formatted(table));
            }
        }
        return null;
    }

    /** Whether FROM item {@code from} holds a join alias with a table named {@code table} inside. */
    private boolean hides(SqlNode from, String table) {
        if (from instanceof SqlJoin join) {
            return hides(join.getLeft(), table) || hides(join.getRight(), table);
        }
        SqlNode query = from.getKind() == SqlKind.AS ? ((SqlCall) from).operand(0) : from;
        return query instanceof SqlSelect select && aliases.containsKey(select) && containsTable(select.getFrom(), table);
    }

    private boolean containsTable(SqlNode from, String table) {
        if (from instanceof SqlJoin join) {
            return containsTable(join.getLeft(), table) || containsTable(join.getRight(), table);
        }
        return table.equals(SqlValidatorUtil.alias(from)) || hides(from, table);
    }

    /** The SELECTs enclosing the identifier that starts at {@code position}, innermost first, or null when none does. */
    private static List<SqlSelect> enclosingSelects(SqlNode node, SqlParserPos position, List<SqlSelect> path) {
        if (node instanceof SqlIdentifier identifier) {
            SqlParserPos start = identifier.getParserPosition();
            if (start.getLineNum() == position.getLineNum() && start.getColumnNum() == position.getColumnNum()) {
                List<SqlSelect> innermostFirst = new ArrayList<>(path);
                Collections.reverse(innermostFirst);
                return innermostFirst;
            }
            return null;
        }
        if (!(node instanceof SqlCall) && !(node instanceof SqlNodeList)) {
            return null;
        }
        boolean select = node instanceof SqlSelect;
        if (select) {
            path.add((SqlSelect) node);
        }
        Iterable<SqlNode> children = node instanceof SqlNodeList list ? list : ((SqlCall) node).getOperandList();
        List<SqlSelect> found = null;
        for (SqlNode child : children) {
            if (child != null && (found = enclosingSelects(child, position, path)) != null) {
                break;
            }
        }
        if (select) {
            path.removeLast();
        }
        return found;
    }

    /** Takes a USING alias out of {@code join}'s USING list (where the dialect rewrite put it) and records it. */
    private void takeUsingAlias(SqlJoin join) {
        if (!(join.getCondition() instanceof SqlNodeList list) || list.isEmpty()
                || !(list.get(list.size() - 1) instanceof SqlIdentifier last) || !last.isSimple()
                || !last.getSimple().startsWith(JoinAliasRewrite.USING_ALIAS_MARKER)) {
            return;
        }
        String alias = last.getSimple().substring(JoinAliasRewrite.USING_ALIAS_MARKER.length());
        if (namesTables(join.getLeft(), alias) || namesTables(join.getRight(), alias)) {
            // The alias is one more table name of the FROM clause.
            throw PostgresValidationError.at(join.getParserPosition(), SqlState.DUPLICATE_ALIAS,
                    "table name \"" + alias + "\" specified more than once", null);
        }
        usingAliases.put(join, alias);
        SqlNodeList names = new SqlNodeList(list.getList().subList(0, list.size() - 1), list.getParserPosition());
        join.setOperand(5, names);
    }

    /** Whether a table or USING alias of FROM item {@code from} (not inside a derived table) is named {@code name}. */
    private boolean namesTables(SqlNode from, String name) {
        if (from instanceof SqlJoin join) {
            return name.equals(usingAliases.get(join)) || namesTables(join.getLeft(), name) || namesTables(join.getRight(), name);
        }
        return name.equals(SqlValidatorUtil.alias(from));
    }

    /** The alias of {@code join}'s USING clause, or null. */
    String usingAlias(SqlJoin join) {
        return usingAliases.get(join);
    }
}
