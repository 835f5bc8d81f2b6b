package dev.parallax.planner.query.validate;

import dev.parallax.planner.query.function.CatalogFunctions;
import dev.parallax.planner.query.function.DateArithmetic;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;

import java.util.ArrayList;
import java.util.List;

/**
 * Calcite's validator with PostgreSQL's typing of INSERT ... VALUES: PostgreSQL assigns each value
 * of a multi-row VALUES list to its target column on its own, while Calcite first looks for one
 * type per VALUES column and rejects rows it cannot unify ("Values passed to VALUES operator must
 * have compatible types"). That happens for {@code ('1998-01-01'), (null)} into a date column (the
 * NULL is typed date, the string char(10)) and for {@code ('a'), (1)} into a text column. For such
 * a column, each value of another type family than the target column's is cast to the column's
 * type before Calcite unifies the rows; values of the column's family keep their type, so the
 * insert's assignment conversion (22001 for a too-long string) still applies to them.
 */
public final class ParallaxValidator extends SqlValidatorImpl {
    /**
     * USING / NATURAL joins {@link MergedJoinColumns#mergeThroughMergedColumns} turned into ON joins,
     * with their common column names: they still merge those columns for {@code *} and unqualified references.
     */
    final java.util.IdentityHashMap<org.apache.calcite.sql.SqlJoin, List<String>> joinsMergedOn = new java.util.IdentityHashMap<>();

    /** The join aliases and USING aliases of the statement being validated ({@link JoinAliases}). */
    final JoinAliases joinAliases = new JoinAliases();

    public ParallaxValidator(SqlOperatorTable operatorTable, SqlValidatorCatalogReader catalogReader,
                             RelDataTypeFactory typeFactory, Config config) {
        super(operatorTable, catalogReader, typeFactory, config);
    }

    /** The statement's join aliases are learnt back from the dialect rewrite's derived tables first ({@link JoinAliases}). */
    @Override
    public SqlNode validate(SqlNode topNode) {
        joinAliases.prepare(topNode);
        return super.validate(topNode);
    }

    /** A reference to a join alias's column is checked against PostgreSQL's names of its columns ({@link JoinAliases}). */
    @Override
    public void validateIdentifier(SqlIdentifier identifier, SqlValidatorScope scope) {
        super.validateIdentifier(identifier, scope);
        joinAliases.checkReference(identifier, scope);
    }

    /**
     * A column's qualifier that names no FROM item is PostgreSQL's 42P01 "missing FROM-clause entry
     * for table" (Calcite's "Table not found" read as "relation does not exist"), and one a join
     * alias hides its "invalid reference to FROM-clause entry" ({@link JoinAliases}).
     */
    @Override
    public org.apache.calcite.runtime.CalciteContextException newValidationError(SqlNode node,
            org.apache.calcite.runtime.Resources.ExInst<org.apache.calcite.sql.validate.SqlValidatorException> error) {
        if (node instanceof SqlIdentifier table && error.str().equals(org.apache.calcite.util.Static.RESOURCE.tableNameNotFound(table.toString()).str())) {
            String name = String.join(".", table.names);
            org.apache.calcite.runtime.CalciteContextException hidden = joinAliases.hiddenTable(name, table.getParserPosition());
            return hidden != null ? hidden : PostgresValidationError.at(table.getParserPosition(), dev.parallax.engine.error.SqlState.UNDEFINED_TABLE,
                    "missing FROM-clause entry for table \"" + name + "\"", null);
        }
        return super.newValidationError(node, error);
    }

    /** A window's frame bounds are checked as PostgreSQL checks them ({@link WindowFrameBounds}) before Calcite's checks. */
    @Override
    public void validateWindow(SqlNode windowOrId, SqlValidatorScope scope, SqlCall call) {
        SqlWindow window = windowOrId instanceof SqlIdentifier name ? getWindowByName(name, scope) : (SqlWindow) windowOrId;
        WindowFrameBounds.check(window);
        WindowFrameBounds.checkRange(resolveWindow(windowOrId, scope), this, scope);
        super.validateWindow(windowOrId, scope, call);
    }

    @Override
    protected void validateWindowClause(SqlSelect select) {
        for (SqlNode window : select.getWindowList()) {
            WindowFrameBounds.check((SqlWindow) window);
            if (((SqlWindow) window).getRefName() == null) {
                WindowFrameBounds.checkRange((SqlWindow) window, this, getFromScope(select));
            }
        }
        super.validateWindowClause(select);
    }

    /**
     * Calcite names an unknown function's argument types by family ({@code <NUMERIC>} for an
     * integer literal, so {@code split_part('a', ',', 2)} read as "split_part(text, text, numeric)");
     * the message names the types themselves, as PostgreSQL's does ("split_part(unknown, unknown, integer)").
     */
    @Override
    public org.apache.calcite.runtime.CalciteException handleUnresolvedFunction(SqlCall call, SqlOperator unresolvedFunction,
                                                                               List<RelDataType> argTypes, List<String> argNames) {
        try {
            return super.handleUnresolvedFunction(call, unresolvedFunction, argTypes, argNames);
        } catch (org.apache.calcite.runtime.CalciteContextException unresolved) {
            if (unresolved.getCause() == null || unresolved.getCause().getMessage() == null
                    || !unresolved.getCause().getMessage().startsWith("No match found for function signature")) {
                throw unresolved;
            }
            StringBuilder signature = new StringBuilder(unresolvedFunction.getName()).append('(');
            for (int index = 0; index < argTypes.size(); index++) {
                // A quoted string is of type unknown until a function takes it, as PostgreSQL names it.
                boolean unknown = index < call.operandCount() && call.operand(index) instanceof org.apache.calcite.sql.SqlCharStringLiteral;
                signature.append(index == 0 ? "" : ", ").append('<').append(unknown ? "UNKNOWN" : argTypes.get(index)).append('>');
            }
            throw newValidationError(call, org.apache.calcite.util.Static.RESOURCE.validatorUnknownFunction(signature.append(')').toString()));
        }
    }

    /**
     * PostgreSQL's date arithmetic ({@code date - date}, {@code date ± integer}, {@code timestamp -
     * timestamp}): before Calcite checks a {@code +} or {@code -} call, its operator is replaced by
     * the date operator its operand types ask for ({@link DateArithmetic}); a date subtracted from or
     * by a timestamp is cast to one, as PostgreSQL converts it.
     */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expression) {
        if (expression instanceof SqlBasicCall call && call.operandCount() == 2
                && (call.getOperator() == SqlStdOperatorTable.MINUS || call.getOperator() == SqlStdOperatorTable.PLUS)
                && !(call.operand(0) instanceof SqlDynamicParam) && !(call.operand(1) instanceof SqlDynamicParam)) {
            RelDataType left = deriveType(scope, call.operand(0));
            RelDataType right = deriveType(scope, call.operand(1));
            SqlOperator dateOperator = DateArithmetic.operatorFor(call.getKind(), left, right);
            if (dateOperator != null) {
                call.setOperator(dateOperator);
                if (DateArithmetic.mixesDateAndTimestamp(left, right)) {
                    org.apache.calcite.sql.type.SqlTypeName common = DateArithmetic.commonTimestampType(left, right);
                    int date = left.getSqlTypeName() != common ? 0 : 1;
                    SqlParserPos position = call.operand(date).getParserPosition();
                    call.setOperand(date, SqlStdOperatorTable.CAST.createCall(position, call.operand(date), new SqlDataTypeSpec(
                            new org.apache.calcite.sql.SqlBasicTypeNameSpec(common, position),
                            position)));
                }
            }
        }
        if (expression instanceof SqlBasicCall cast && cast.getKind() == SqlKind.CAST && cast.operandCount() == 2
                && cast.operand(1) instanceof SqlDataTypeSpec target && target.getTypeNameSpec().getTypeName().isSimple()
                && isCharacterTypeName(target.getTypeNameSpec().getTypeName().getSimple())
                && deriveType(scope, cast.operand(0)).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY) {
            // array::text is PostgreSQL's array output; Calcite casts no array to a string.
            SqlNode array = cast.operand(0);
            cast.setOperand(0, dev.parallax.planner.query.function.ParallaxFunctions.ARRAY_TEXT.createCall(
                    array.getParserPosition(), array));
        }
        if (expression instanceof SqlBasicCall typeOf && typeOf.getOperator() == CatalogFunctions.TYPE_OF
                && typeOf.operandCount() == 1 && (isStringLiteral(typeOf.operand(0))
                        || org.apache.calcite.sql.SqlUtil.isNullLiteral(typeOf.operand(0), false))) {
            // An untyped literal is of type unknown in PostgreSQL; Calcite's CHAR(n) would say character.
            typeOf.setOperand(0, CatalogFunctions.UNKNOWN_LITERAL.createCall(typeOf.operand(0).getParserPosition()));
        }
        if (expression instanceof SqlBasicCall leadLag && (leadLag.getKind() == SqlKind.LAG || leadLag.getKind() == SqlKind.LEAD)
                && leadLag.operandCount() == 3 && isStringLiteral(leadLag.operand(2)) && !isStringLiteral(leadLag.operand(0))) {
            // lag(x, 1, '7'): PostgreSQL resolves the quoted default as the value's type (anycompatible),
            // where Calcite would make the result a string; 'a' then fails as an integer would. A string
            // value keeps Calcite's common type (PostgreSQL's varchar, without the value's length).
            RelDataType valueType = deriveType(scope, leadLag.operand(0));
            if (!org.apache.calcite.sql.type.SqlTypeUtil.isCharacter(valueType)) {
                leadLag.setOperand(2, castTo(leadLag.operand(2), valueType));
            }
        }
        if (expression instanceof SqlBasicCall windowCall && integerOperand(windowCall) >= 0) {
            // lag(x, '1'), nth_value(x, NULL): PostgreSQL reads a quoted literal or a NULL as the
            // integer the function takes, where Calcite would read a numeric.
            int operand = integerOperand(windowCall);
            SqlNode argument = windowCall.operand(operand);
            if (isStringLiteral(argument) || org.apache.calcite.sql.SqlUtil.isNullLiteral(argument, false)) {
                windowCall.setOperand(operand, castTo(argument, getTypeFactory().createSqlType(org.apache.calcite.sql.type.SqlTypeName.INTEGER)));
            }
        }
        if (expression instanceof SqlBasicCall concat && concat.getOperator() == SqlStdOperatorTable.CONCAT && concat.operandCount() == 2) {
            arrayConcatenation(scope, concat);
        }
        if (expression instanceof SqlBasicCall call && call.operandCount() == 2 && (call.getKind().belongsTo(SqlKind.COMPARISON)
                || dev.parallax.planner.query.function.ParallaxFunctions.QUANTIFIED_COMPARISONS.contains(call.getOperator())
                || dev.parallax.planner.query.function.ArrayFunctions.takesTwoArrays(call.getOperator()))) {
            // ... and tags @> '{a}', array_cat(a, '{1}'): the literal is the other side's array type.
            typeArrayLiterals(scope, call);
        }
        if (expression instanceof SqlCall call) {
            // Types of different categories side by side: PostgreSQL's 42883 / 42804 where Calcite would coerce.
            TypeCategoryMismatches.check(call, operand -> deriveType(scope, operand));
        }
        return super.deriveType(scope, expression);
    }

    /**
     * The operand of a window function that PostgreSQL types integer (lag's offset, nth_value's n),
     * or -1. Not ntile's: Calcite takes only a number literal there.
     */
    private static int integerOperand(SqlBasicCall call) {
        return switch (call.getKind()) {
            case LAG, LEAD, NTH_VALUE -> call.operandCount() >= 2 ? 1 : -1;
            default -> -1;
        };
    }

    /**
     * PostgreSQL types a quoted literal compared with an array as that array type
     * ({@code polroles = '{0}'}), and the literal array of {@code x = ANY ('{1,2}')} as an array
     * of x's type: the literal gets that cast before Calcite checks the call.
     */
    private void typeArrayLiterals(SqlValidatorScope scope, SqlBasicCall call) {
        if (dev.parallax.planner.query.function.ParallaxFunctions.QUANTIFIED_COMPARISONS.contains(call.getOperator())) {
            if (isStringLiteral(call.operand(1)) && !isStringLiteral(call.operand(0))) {
                RelDataType element = deriveType(scope, call.operand(0));
                call.setOperand(1, castTo(call.operand(1), getTypeFactory().createArrayType(element, -1)));
            }
            return;
        }
        for (int side = 0; side < 2; side++) {
            SqlNode operand = call.operand(side);
            SqlNode other = call.operand(1 - side);
            if (isStringLiteral(operand) && !isStringLiteral(other)) {
                RelDataType otherType = deriveType(scope, other);
                if (otherType.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY) {
                    call.setOperand(side, castTo(operand, otherType));
                }
            }
        }
    }

    /**
     * PostgreSQL's {@code ||} with an array: a quoted literal beside an array is an array of its type
     * ({@code a || '{1}'}), and an element beside an array is array_append ({@code a || 3}) or
     * array_prepend ({@code 0 || a}). Text {@code ||} and {@code array || array} stay as they are.
     */
    private void arrayConcatenation(SqlValidatorScope scope, SqlBasicCall concat) {
        if (org.apache.calcite.sql.SqlUtil.isNullLiteral(concat.operand(0), true)
                || org.apache.calcite.sql.SqlUtil.isNullLiteral(concat.operand(1), true)) {
            return;
        }
        typeArrayLiterals(scope, concat);
        boolean leftArray = deriveType(scope, concat.operand(0)).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY;
        boolean rightArray = deriveType(scope, concat.operand(1)).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY;
        if (leftArray && !rightArray) {
            concat.setOperator(dev.parallax.planner.query.function.ArrayFunctions.ARRAY_APPEND);
        } else if (!leftArray && rightArray) {
            concat.setOperator(dev.parallax.planner.query.function.ArrayFunctions.ARRAY_PREPEND);
        } else if (!leftArray) {
            textConcatenation(scope, concat);
        }
    }

    /**
     * PostgreSQL's text {@code ||} is {@code text || text -> text}: a character(n) operand is
     * converted to text first (its trailing blanks dropped) and the result is never re-padded.
     * Calcite types CHAR(a) || CHAR(b) as CHAR(a+b) and varchar(a) || varchar(b) as varchar(a+b):
     * every bounded character operand gets a cast to unbounded VARCHAR (the engine's text).
     */
    private void textConcatenation(SqlValidatorScope scope, SqlBasicCall concat) {
        for (int side = 0; side < 2; side++) {
            SqlNode operand = concat.operand(side);
            if (operand instanceof SqlDynamicParam) {
                continue;
            }
            RelDataType type = deriveType(scope, operand);
            boolean boundedCharacter = type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR
                    || (type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.VARCHAR
                            && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED);
            if (boundedCharacter) {
                concat.setOperand(side, castTo(operand, getTypeFactory().createSqlType(org.apache.calcite.sql.type.SqlTypeName.VARCHAR)));
            }
        }
    }

    private static boolean isCharacterTypeName(String name) {
        return name.equalsIgnoreCase("VARCHAR") || name.equalsIgnoreCase("CHAR");
    }

    private static boolean isStringLiteral(SqlNode node) {
        return node instanceof org.apache.calcite.sql.SqlCharStringLiteral;
    }

    private static SqlNode castTo(SqlNode value, RelDataType type) {
        SqlDataTypeSpec spec = SqlTypeUtil.convertTypeToSpec(type).withNullable(true);
        return SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, spec);
    }

    /** A USING / NATURAL join over a merged column of a RIGHT / FULL join below it joins on that merged column ({@link MergedJoinColumns}). */
    @Override
    protected void validateJoin(org.apache.calcite.sql.SqlJoin join, SqlValidatorScope scope) {
        MergedJoinColumns.mergeThroughMergedColumns(join, this);
        MergedJoinColumns.resolveMergedOnColumns(join, this);
        super.validateJoin(join, scope);
    }

    /** An unqualified merged column of JOIN ... USING / NATURAL JOIN in WHERE is the merged column ({@link MergedJoinColumns}). */
    @Override
    protected void validateWhereClause(org.apache.calcite.sql.SqlSelect select) {
        select.setWhere(MergedJoinColumns.resolveMergedColumns(select.getWhere(), select, this));
        super.validateWhereClause(select);
    }

    /**
     * A name of several output columns in ORDER BY is one of them when they are equal, 42702 otherwise
     * ({@link OrderByOutputNames}); an unqualified merged column of JOIN ... USING / NATURAL JOIN in
     * ORDER BY is the merged column ({@link MergedJoinColumns}).
     */
    @Override
    protected void validateOrderList(org.apache.calcite.sql.SqlSelect select) {
        org.apache.calcite.sql.SqlNodeList orderList = select.getOrderList();
        org.apache.calcite.sql.SqlNodeList resolved = MergedJoinColumns.resolveMergedOrderItems(
                OrderByOutputNames.resolve(orderList, select, this), select, this);
        if (resolved != orderList) {
            select.setOrderBy(resolved);
        }
        super.validateOrderList(select);
    }

    /** An unqualified merged column in QUALIFY (DISTINCT ON's window) is the merged column ({@link MergedJoinColumns}). */
    @Override
    protected void validateQualifyClause(org.apache.calcite.sql.SqlSelect select) {
        select.setQualify(MergedJoinColumns.resolveMergedColumns(select.getQualify(), select, this));
        super.validateQualifyClause(select);
    }

    /** An unqualified merged column of JOIN ... USING / NATURAL JOIN in HAVING is the merged column ({@link MergedJoinColumns}). */
    @Override
    protected void validateHavingClause(org.apache.calcite.sql.SqlSelect select) {
        select.setHaving(MergedJoinColumns.resolveMergedColumns(select.getHaving(), select, this));
        super.validateHavingClause(select);
    }

    /** An unqualified merged column of JOIN ... USING / NATURAL JOIN in GROUP BY is the merged column ({@link MergedJoinColumns}). */
    @Override
    protected void validateGroupClause(org.apache.calcite.sql.SqlSelect select) {
        select.setGroupBy((org.apache.calcite.sql.SqlNodeList) MergedJoinColumns.resolveMergedColumns(select.getGroup(), select, this));
        super.validateGroupClause(select);
    }

    /** An unqualified {@code *} over JOIN ... USING / NATURAL JOIN is spelled out in PostgreSQL's order first ({@link MergedJoinColumns}). */
    @Override
    protected RelDataType validateSelectList(org.apache.calcite.sql.SqlNodeList selectItems, org.apache.calcite.sql.SqlSelect select,
                                             RelDataType targetRowType) {
        joinAliases.noteStars(selectItems);
        return super.validateSelectList(MergedJoinColumns.resolveMergedSelectItems(MergedJoinColumns.expand(selectItems, select, this), select, this),
                select, targetRowType);
    }

    /**
     * The inputs of UNION / INTERSECT / EXCEPT are validated first, so their columns' types are
     * checked as PostgreSQL matches them before Calcite's coercion ({@link TypeCategoryMismatches}).
     */
    @Override
    protected void validateNamespace(org.apache.calcite.sql.validate.SqlValidatorNamespace namespace, RelDataType targetRowType) {
        SqlNode node = namespace.getNode();
        if (node instanceof SqlCall setOperation
                && (node.getKind() == SqlKind.UNION || node.getKind() == SqlKind.INTERSECT || node.getKind() == SqlKind.EXCEPT)) {
            typeQuotedLiterals(setOperation, targetRowType);
            TypeCategoryMismatches.checkSetOperation(setOperation, input -> {
                org.apache.calcite.sql.validate.SqlValidatorNamespace inputNamespace = getNamespace(input);
                if (inputNamespace == null) {
                    return null;
                }
                validateNamespace(inputNamespace, targetRowType);
                return inputNamespace.getType();
            });
        }
        super.validateNamespace(namespace, targetRowType);
    }

    /**
     * select 1 union select '2': PostgreSQL reads a quoted literal column of one input as the other
     * input's column type (integer here; 22P02 for 'x'), where Calcite made the column varchar. When
     * only one input is a SELECT with such columns, the other is validated first and the literals
     * facing a column of another category than string are cast to its type (a cast of no position,
     * so the column keeps its name).
     */
    private void typeQuotedLiterals(SqlCall setOperation, RelDataType targetRowType) {
        SqlNode left = setOperation.operand(0);
        SqlNode right = setOperation.operand(1);
        boolean leftLiterals = hasQuotedLiteralColumn(left);
        if (leftLiterals == hasQuotedLiteralColumn(right)) {
            return;
        }
        org.apache.calcite.sql.SqlSelect literals = (org.apache.calcite.sql.SqlSelect) (leftLiterals ? left : right);
        org.apache.calcite.sql.validate.SqlValidatorNamespace typed = getNamespace(leftLiterals ? right : left);
        if (typed == null) {
            return;
        }
        validateNamespace(typed, targetRowType);
        RelDataType row = typed.getType();
        org.apache.calcite.sql.SqlNodeList items = literals.getSelectList();
        if (row.getFieldCount() != items.size()) {
            return;
        }
        for (int column = 0; column < items.size(); column++) {
            SqlNode item = items.get(column);
            boolean aliased = item.getKind() == SqlKind.AS;
            SqlNode value = aliased ? ((SqlCall) item).operand(0) : item;
            RelDataType type = row.getFieldList().get(column).getType();
            char category = TypeCategoryMismatches.category(type);
            if (value instanceof org.apache.calcite.sql.SqlCharStringLiteral && category != 0 && category != 'S') {
                SqlNode cast = SqlStdOperatorTable.CAST.createCall(org.apache.calcite.sql.parser.SqlParserPos.ZERO, value,
                        SqlTypeUtil.convertTypeToSpec(type).withNullable(true));
                if (aliased) {
                    ((SqlCall) item).setOperand(0, cast);
                } else {
                    items.set(column, cast);
                }
            }
        }
    }

    /** A SELECT without {@code *} with a quoted literal as a column. */
    private static boolean hasQuotedLiteralColumn(SqlNode input) {
        if (!(input instanceof org.apache.calcite.sql.SqlSelect select)) {
            return false;
        }
        boolean literal = false;
        for (SqlNode item : select.getSelectList()) {
            SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
            if (value instanceof org.apache.calcite.sql.SqlIdentifier identifier && identifier.isStar()) {
                return false;
            }
            literal |= value instanceof org.apache.calcite.sql.SqlCharStringLiteral;
        }
        return literal;
    }

    @Override
    protected void validateValues(SqlCall node, RelDataType targetRowType, SqlValidatorScope scope) {
        TypeCategoryMismatches.checkValues(node, value -> deriveType(scope, value));
        castDatesBesideTimestamps(node, scope);
        if (targetRowType.isStruct() && targetRowType.getFieldCount() > 0) {
            castArrayLiterals(node, targetRowType);
            castIncompatibleValues(node, targetRowType, scope);
        }
        super.validateValues(node, targetRowType, scope);
    }

    /**
     * VALUES (date '2020-01-01'), (timestamp '2020-01-01 12:00'): PostgreSQL's common type is timestamp,
     * as a date converts to it implicitly; Calcite finds none (42000), so the column's dates are cast.
     */
    private void castDatesBesideTimestamps(SqlCall values, SqlValidatorScope scope) {
        List<SqlNode> rows = values.getOperandList();
        if (rows.size() < 2 || rows.getFirst().getKind() != SqlKind.ROW) {
            return;
        }
        int width = ((SqlCall) rows.getFirst()).operandCount();
        for (SqlNode row : rows) {
            if (row.getKind() != SqlKind.ROW || ((SqlCall) row).operandCount() != width) {
                return;
            }
        }
        for (int column = 0; column < width; column++) {
            RelDataType timestamp = null;
            boolean hasDate = false;
            for (SqlNode row : rows) {
                RelDataType type = deriveType(scope, ((SqlCall) row).operand(column));
                hasDate |= type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DATE;
                if (type.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP) {
                    timestamp = type;
                }
            }
            if (timestamp == null || !hasDate) {
                continue;
            }
            for (SqlNode row : rows) {
                SqlCall rowCall = (SqlCall) row;
                if (deriveType(scope, rowCall.operand(column)).getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DATE) {
                    rowCall.setOperand(column, castTo(rowCall.operand(column), timestamp));
                }
            }
        }
    }

    /** A quoted literal inserted into an array column is that array type's text form: cast it so. */
    private static void castArrayLiterals(SqlCall values, RelDataType targetRowType) {
        for (SqlNode operand : values.getOperandList()) {
            if (operand.getKind() != SqlKind.ROW || ((SqlCall) operand).operandCount() != targetRowType.getFieldCount()) {
                return;
            }
            SqlCall row = (SqlCall) operand;
            for (int column = 0; column < row.operandCount(); column++) {
                RelDataType target = targetRowType.getFieldList().get(column).getType();
                if (target.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.ARRAY && isStringLiteral(row.operand(column))) {
                    row.setOperand(column, castTo(row.operand(column), target));
                }
            }
        }
    }

    private void castIncompatibleValues(SqlCall values, RelDataType targetRowType, SqlValidatorScope scope) {
        List<SqlCall> rows = new ArrayList<>();
        for (SqlNode operand : values.getOperandList()) {
            if (operand.getKind() != SqlKind.ROW || ((SqlCall) operand).operandCount() != targetRowType.getFieldCount()) {
                return; // Calcite reports the malformed row
            }
            rows.add((SqlCall) operand);
        }
        for (int column = 0; column < targetRowType.getFieldCount(); column++) {
            RelDataType target = targetRowType.getFieldList().get(column).getType();
            if (target.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.UUID) {
                castStringsToUuid(rows, column, target, scope);
                continue;
            }
            if (rows.size() < 2 || unifies(rows, column, target, scope)) {
                continue;
            }
            for (SqlCall row : rows) {
                SqlNode value = row.operand(column);
                if (!SqlUtil.isNullLiteral(value, false) && deriveType(scope, value).getFamily() != target.getFamily()) {
                    SqlDataTypeSpec spec = SqlTypeUtil.convertTypeToSpec(target).withNullable(true);
                    row.setOperand(column, SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, spec));
                }
            }
        }
    }

    /**
     * Strings into a uuid column become casts to uuid, in rows of one and of many: Calcite would keep
     * them character literals in a VALUES row typed uuid (its LogicalValues asserts the literals are
     * assignable to the row type, and char is not to uuid), and the cast reads them as uuid_in does.
     */
    private void castStringsToUuid(List<SqlCall> rows, int column, RelDataType target, SqlValidatorScope scope) {
        for (SqlCall row : rows) {
            SqlNode value = row.operand(column);
            if (value.getKind() == SqlKind.LITERAL && !SqlUtil.isNullLiteral(value, false)
                    && SqlTypeUtil.isCharacter(deriveType(scope, value))) {
                SqlDataTypeSpec spec = SqlTypeUtil.convertTypeToSpec(target).withNullable(true);
                row.setOperand(column, SqlStdOperatorTable.CAST.createCall(value.getParserPosition(), value, spec));
            }
        }
    }

    /**
     * Whether Calcite finds a common type for the column's values, counting a NULL as the target
     * type (Calcite types NULLs of an INSERT by their column). Columns with parameters or DEFAULT
     * are left to Calcite.
     */
    private boolean unifies(List<SqlCall> rows, int column, RelDataType target, SqlValidatorScope scope) {
        List<RelDataType> types = new ArrayList<>(rows.size());
        for (SqlCall row : rows) {
            SqlNode value = row.operand(column);
            if (value.getKind() == SqlKind.DYNAMIC_PARAM || value.getKind() == SqlKind.DEFAULT) {
                return true;
            }
            types.add(SqlUtil.isNullLiteral(value, false) ? target : deriveType(scope, value));
        }
        return getTypeFactory().leastRestrictive(types) != null;
    }
}
