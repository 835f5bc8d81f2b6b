package dev.parallax.planner.query;

import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.PartitionedConstraint;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.catalog.UniqueConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.expr.Call;
import dev.parallax.engine.expr.ColumnRef;
import dev.parallax.engine.expr.Expr;
import dev.parallax.engine.expr.Function;
import dev.parallax.engine.expr.Literal;
import dev.parallax.engine.expr.Parameter;
import dev.parallax.engine.partition.PartitionRouter;
import dev.parallax.engine.plan.ConflictAction;
import dev.parallax.engine.plan.FilterNode;
import dev.parallax.engine.plan.InsertNode;
import dev.parallax.engine.plan.KeyLookup;
import dev.parallax.engine.plan.ModifyOperation;
import dev.parallax.engine.plan.ModifyTableNode;
import dev.parallax.engine.plan.OnConflict;
import dev.parallax.engine.plan.PlanEstimate;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.plan.SeqScanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.parse.ModifyStatementText;
import dev.parallax.planner.query.translate.PartitionScans;
import dev.parallax.planner.query.translate.RexTranslator;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import dev.parallax.planner.query.schema.ModifyTargetTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans UPDATE, DELETE, and INSERT with ON CONFLICT or RETURNING into a {@link ModifyTableNode}.
 * Calcite parses none of ON CONFLICT, RETURNING or an INSERT's alias, so the statement is cut into
 * its clauses ({@link ModifyStatementText}) and each expression list is planned by Calcite as the
 * select list of a query over the target table: the SET values and WHERE of an UPDATE as
 * {@code SELECT <values> FROM t [AS a] WHERE <condition>}, RETURNING as {@code SELECT <list> FROM t [AS a]},
 * and ON CONFLICT DO UPDATE's SET and WHERE as {@code SELECT ... FROM t [AS a] CROSS JOIN t AS excluded
 * WHERE ...}, whose row is exactly the (existing row ++ proposed row) layout the engine evaluates
 * them over — with PostgreSQL's rule that an unqualified column present in both is ambiguous.
 * The INSERT itself (its source rows) goes through the ordinary planner.
 */
final class ModifyPlanner {
    private final QueryPlanner planner;
    private final Catalog catalog;
    private final Settings settings;
    /** Parameter types by number ({@code $n} at n - 1), merged over every planned part. */
    private final List<DataType> parameterTypes = new ArrayList<>();

    ModifyPlanner(QueryPlanner planner, Catalog catalog, Settings settings) {
        this.planner = planner;
        this.catalog = catalog;
        this.settings = settings;
    }

    PlannedQuery plan(ModifyStatementText text) {
        Table table = text.tableName().table(catalog);
        if (table.isSystemView()) {
            throw ParallaxException.of(SqlState.WRONG_OBJECT_TYPE, "cannot change relation \"%s\"", table.name());
        }
        String target = text.qualifiedTable() + (text.alias() == null ? "" : " AS " + text.alias());
        ModifyTableNode node = switch (text.operation()) {
            case "update" -> update(text, table, target);
            case "delete" -> delete(text, table, target);
            default -> insert(text, table, target);
        };
        List<ResultColumn> columns = List.of();
        if (node == null) {
            // The target rows come out of a query: a join with FROM / USING, or subqueries.
            TargetRowsPlan joined = targetRowsPlan(text, table);
            node = joined.node();
            columns = joined.returningColumns();
        } else if (text.returningText() != null) {
            RowExpressions returning = planRow("SELECT " + text.returningText() + " FROM " + target, table.columns().size(), "RETURNING");
            node = new ModifyTableNode(node.operation(), table, node.input(), node.lookup(), node.assignments(), node.onConflict(),
                    returning.expressions(), node.estimate());
            columns = returning.columns();
        }
        List<DataType> types = finishedParameterTypes();
        String command = switch (node.operation()) {
            case INSERT -> "INSERT";
            case UPDATE -> "UPDATE";
            case DELETE -> "DELETE";
        };
        if (columns.isEmpty()) {
            return new PlannedQuery(node, List.of(), types, false, command);
        }
        // A RETURNING result's tag is the command's: INSERT 0 n, UPDATE n, DELETE n.
        return new PlannedQuery(node, columns, types, true, node.operation() == ModifyOperation.INSERT ? "INSERT 0" : command);
    }

    // ---- UPDATE and DELETE ----

    /** An UPDATE reading only its target table, or null when it reads more (FROM, subqueries): {@link #targetRowsPlan}. */
    private ModifyTableNode update(ModifyStatementText text, Table table, String target) {
        List<String> values = new ArrayList<>();
        int[] assignedColumns = assignedColumns(text.assignments(), table, values);
        if (text.fromText() != null) {
            return null;
        }
        RowExpressions row = planRow("SELECT " + String.join(", ", values) + " FROM " + target
                + (text.whereText() == null ? "" : " WHERE " + text.whereText()), table.columns().size(), "UPDATE", true);
        if (row == null) {
            return null;
        }
        List<Expr> assignments = new ArrayList<>();
        for (int column = 0; column < table.columns().size(); column++) {
            assignments.add(null);
        }
        for (int index = 0; index < assignedColumns.length; index++) {
            assignments.set(assignedColumns[index], typedNull(row.expressions().get(index), table, assignedColumns[index]));
        }
        return new ModifyTableNode(ModifyOperation.UPDATE, table, scanInput(table, row.condition()), lookup(table, row.condition()),
                assignments, null, List.of(), PlanEstimate.UNKNOWN);
    }

    /** A DELETE reading only its target table, or null when it reads more (USING, subqueries): {@link #targetRowsPlan}. */
    private ModifyTableNode delete(ModifyStatementText text, Table table, String target) {
        if (text.fromText() != null) {
            return null;
        }
        RowExpressions row = planRow("SELECT * FROM " + target + (text.whereText() == null ? "" : " WHERE " + text.whereText()),
                table.columns().size(), "DELETE", true);
        if (row == null) {
            return null;
        }
        return new ModifyTableNode(ModifyOperation.DELETE, table, scanInput(table, row.condition()), lookup(table, row.condition()),
                List.of(), null, List.of(), PlanEstimate.UNKNOWN);
    }

    /**
     * The Seq Scan (all columns) under a Filter with the WHERE condition: what the operator reads, as
     * EXPLAIN shows it; on a partitioned table an Append of one per partition the condition can match.
     */
    private PlanNode scanInput(Table table, Expr condition) {
        CostModel cost = new CostModel(settings);
        if (table.isPartitioned()) {
            return PartitionScans.modifyInput(table, condition, cost);
        }
        int[] columns = new int[table.columns().size()];
        Arrays.setAll(columns, index -> index);
        double rows = Math.max(1, table.storage().rowCount());
        PlanEstimate scanEstimate = cost.scan(table.storage().sizeBytes(), rows, table.columnTypes(), 1);
        PlanNode scan = new SeqScanNode(table, columns, false, scanEstimate);
        return condition == null ? scan : new FilterNode(scan, condition, cost.filter(scanEstimate, condition, table.columnTypes()));
    }

    /**
     * A point lookup when the condition pins every column of a unique constraint to a constant or
     * parameter of the column's own type ({@code id = 42}, {@code id = $1}, ANDed with anything);
     * null otherwise.
     */
    private static KeyLookup lookup(Table table, Expr condition) {
        if (condition == null) {
            return null;
        }
        List<Expr> conjuncts = new ArrayList<>();
        conjuncts(condition, conjuncts);
        for (UniqueConstraint constraint : constraintsOf(table)) {
            List<Expr> values = new ArrayList<>();
            for (int column : constraint.keyColumns()) {
                Expr value = pinnedValue(conjuncts, column, table.columnTypes().get(column));
                if (value == null) {
                    break;
                }
                values.add(value);
            }
            if (values.size() == constraint.keyColumns().length) {
                return new KeyLookup(constraint, values);
            }
        }
        return null;
    }

    private static void conjuncts(Expr condition, List<Expr> out) {
        if (condition instanceof Call call && call.function() == Function.AND) {
            for (Expr argument : call.arguments()) {
                conjuncts(argument, out);
            }
        } else {
            out.add(condition);
        }
    }

    private static Expr pinnedValue(List<Expr> conjuncts, int column, DataType type) {
        for (Expr conjunct : conjuncts) {
            if (conjunct instanceof Call call && call.function() == Function.EQUAL && call.arguments().size() == 2) {
                Expr left = call.arguments().get(0);
                Expr right = call.arguments().get(1);
                if (isColumn(left, column, type) && isValue(right, type)) {
                    return right;
                }
                if (isColumn(right, column, type) && isValue(left, type)) {
                    return left;
                }
            }
        }
        return null;
    }

    private static boolean isColumn(Expr expression, int column, DataType type) {
        return expression instanceof ColumnRef ref && ref.index() == column && ref.type().equals(type);
    }

    private static boolean isValue(Expr expression, DataType type) {
        return (expression instanceof Literal || expression instanceof Parameter) && expression.type().equals(type);
    }

    // ---- INSERT ... ON CONFLICT ----

    private ModifyTableNode insert(ModifyStatementText text, Table table, String target) {
        PlannedQuery inserted = planner.planInsertSource(text.insertText(), settings, parameterTypes);
        if (!(inserted.root() instanceof InsertNode insertNode)) {
            throw new IllegalStateException("an INSERT planned as " + inserted.root().getClass().getSimpleName());
        }
        OnConflict onConflict = null;
        ModifyStatementText.Conflict conflict = text.conflict();
        if (conflict != null) {
            List<UniqueConstraint> arbiters = arbiters(conflict, table);
            if (!conflict.update()) {
                onConflict = new OnConflict(ConflictAction.NOTHING, arbiters, List.of(), null);
            } else {
                List<String> values = new ArrayList<>();
                int[] assignedColumns = assignedColumns(conflict.assignments(), table, values);
                String targetAlias = text.alias() == null ? text.table() : text.alias();
                if (targetAlias.equalsIgnoreCase("excluded")) {
                    throw ParallaxException.of(SqlState.DUPLICATE_ALIAS, "table name \"excluded\" specified more than once");
                }
                RowExpressions row = planRow("SELECT " + String.join(", ", values) + " FROM " + target
                        + " CROSS JOIN " + text.qualifiedTable() + " AS excluded"
                        + (conflict.whereText() == null ? "" : " WHERE " + conflict.whereText()), table.columns().size() * 2, "UPDATE");
                List<Expr> assignments = new ArrayList<>();
                for (int column = 0; column < table.columns().size(); column++) {
                    assignments.add(null);
                }
                for (int index = 0; index < assignedColumns.length; index++) {
                    assignments.set(assignedColumns[index], typedNull(row.expressions().get(index), table, assignedColumns[index]));
                }
                onConflict = new OnConflict(ConflictAction.UPDATE, arbiters, assignments, row.condition());
            }
        }
        return new ModifyTableNode(ModifyOperation.INSERT, table, insertNode.input(), null, List.of(), onConflict, List.of(),
                insertNode.estimate());
    }

    /**
     * The constraints ON CONFLICT resolves: by inference from the columns, by name, or all (DO
     * NOTHING without a target). On a partitioned table they are the parent's constraints (by their
     * names), each stood for by the same-position constraint of a partition; without partitions no
     * row can be stored, so none conflicts and the list is empty once the clause is checked.
     */
    private static List<UniqueConstraint> arbiters(ModifyStatementText.Conflict conflict, Table table) {
        List<Candidate> candidates = candidates(table);
        if (conflict.constraint() != null) {
            for (Candidate candidate : candidates) {
                if (candidate.name().equals(conflict.constraint())) {
                    return candidate.representative() == null ? List.of() : List.of(candidate.representative());
                }
            }
            throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "constraint \"%s\" for table \"%s\" does not exist",
                    conflict.constraint(), table.name());
        }
        if (conflict.targetColumns() == null) {
            if (conflict.update()) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "ON CONFLICT DO UPDATE requires inference specification or constraint name",
                        null, "For example, ON CONFLICT (column_name).", conflict.position(), null);
            }
            return constraintsOf(table);
        }
        Set<Integer> wanted = new HashSet<>();
        for (String column : conflict.targetColumns()) {
            int index = table.columnIndex(column);
            if (index < 0) {
                throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" does not exist", column);
            }
            wanted.add(index);
        }
        // PostgreSQL infers every unique index whose key columns are exactly the listed set.
        List<UniqueConstraint> inferred = new ArrayList<>();
        boolean found = false;
        for (Candidate candidate : candidates) {
            if (candidate.columns().equals(wanted)) {
                found = true;
                if (candidate.representative() != null) {
                    inferred.add(candidate.representative());
                }
            }
        }
        if (!found) {
            throw ParallaxException.of(SqlState.INVALID_COLUMN_REFERENCE,
                    "there is no unique or exclusion constraint matching the ON CONFLICT specification");
        }
        return inferred;
    }

    /** A constraint ON CONFLICT may name or infer: its name, its key columns, and the constraint that stands for it (null: none). */
    private record Candidate(String name, Set<Integer> columns, UniqueConstraint representative) {
    }

    private static List<Candidate> candidates(Table table) {
        List<Candidate> candidates = new ArrayList<>();
        if (!table.isPartitioned()) {
            for (UniqueConstraint constraint : table.uniqueConstraints()) {
                Set<Integer> columns = new HashSet<>();
                for (int column : constraint.keyColumns()) {
                    columns.add(column);
                }
                candidates.add(new Candidate(constraint.name(), columns, constraint));
            }
            return candidates;
        }
        List<UniqueConstraint> representatives = constraintsOf(table);
        List<PartitionedConstraint> declared = table.partitionedConstraints();
        for (int position = 0; position < declared.size(); position++) {
            Set<Integer> columns = new HashSet<>();
            for (String column : declared.get(position).columnNames()) {
                columns.add(table.columnIndex(column));
            }
            candidates.add(new Candidate(declared.get(position).name(), columns,
                    position < representatives.size() ? representatives.get(position) : null));
        }
        return candidates;
    }

    /**
     * The unique constraints of {@code table}; for a partitioned table those of its first partition,
     * which stand for the parent's (every partition has the parent's constraints, in its order), or
     * none without partitions.
     */
    private static List<UniqueConstraint> constraintsOf(Table table) {
        if (!table.isPartitioned()) {
            return table.uniqueConstraints();
        }
        PartitionRouter router = table.partitionRouter();
        return router.partitionCount() == 0 ? List.of() : router.partition(0).uniqueConstraints();
    }

    // ---- shared ----

    /** {@code SET c = NULL}: Calcite types the bare NULL on its own; it takes the column's type, as in PostgreSQL. */
    private static Expr typedNull(Expr expression, Table table, int column) {
        if (expression instanceof Literal literal && literal.value() == null) {
            return new Literal(null, table.columnTypes().get(column));
        }
        return expression;
    }

    /** The table columns a SET list assigns, in order; their expression texts go to {@code values}. */
    private static int[] assignedColumns(List<ModifyStatementText.Assignment> assignments, Table table, List<String> values) {
        int[] columns = new int[assignments.size()];
        Set<Integer> seen = new HashSet<>();
        for (int index = 0; index < columns.length; index++) {
            ModifyStatementText.Assignment assignment = assignments.get(index);
            int column = table.columnIndex(assignment.column());
            if (column < 0) {
                throw ParallaxException.of(SqlState.UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist",
                        assignment.column(), table.name());
            }
            if (!seen.add(column)) {
                throw ParallaxException.of(SqlState.SYNTAX_ERROR, "multiple assignments to same column \"%s\"", assignment.column());
            }
            columns[index] = column;
            dev.parallax.engine.catalog.ColumnDefault columnDefault = table.columns().get(column).defaultValue();
            if (!assignment.toDefault() && columnDefault != null
                    && columnDefault.identity() == dev.parallax.engine.catalog.ColumnDefault.Identity.ALWAYS) {
                throw new ParallaxException(SqlState.GENERATED_ALWAYS, "column \"" + assignment.column() + "\" can only be updated to DEFAULT",
                        "Column \"" + assignment.column() + "\" is an identity column defined as GENERATED ALWAYS.", null, 0, null);
            }
            if (assignment.toDefault()) {
                // SET c = DEFAULT: the column's default, or NULL (typed to the column by typedNull).
                String defaultSql = ColumnDefaults.assignmentSql(table.columns().get(column));
                values.add(defaultSql == null ? "NULL" : defaultSql);
                continue;
            }
            values.add(typedIfBareParameter(assignment.expressionText(), table.columnTypes().get(column)));
        }
        return columns;
    }

    /**
     * {@code SET col = $1}: PostgreSQL gives a bare parameter the column's type, but the SET value is
     * planned in a select list where nothing determines it ("could not determine data type of
     * parameter"). A cast to the column's base type does; lengths are left to the assignment, which
     * checks them (22001) as it does for any value.
     */
    private static String typedIfBareParameter(String expression, DataType columnType) {
        String trimmed = expression.strip();
        if (!trimmed.equals("?") && !trimmed.matches("\\$[0-9]+")) {
            return expression;
        }
        String typeName = switch (columnType.kind()) {
            case BOOLEAN -> "boolean";
            case SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case DECIMAL -> "numeric(" + columnType.precision() + ", " + columnType.scale() + ")";
            case REAL -> "real";
            case DOUBLE -> "double";
            case DATE -> "date";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamp with local time zone";
            case CHAR, VARCHAR, TEXT -> "varchar";
            case UUID -> "uuid";
            case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, BIT, VARBIT, ARRAY, NULL -> null;
        };
        return typeName == null ? expression : "CAST(" + trimmed + " AS " + typeName + ")";
    }

    /**
     * The select list (and WHERE) of {@code selectSql} as engine expressions over its FROM row of
     * {@code inputColumns} columns; the list is the statement's {@code clause} (SET values, RETURNING),
     * where PostgreSQL allows no set-returning function.
     */
    private RowExpressions planRow(String selectSql, int inputColumns, String clause) {
        return planRow(selectSql, inputColumns, clause, false, false);
    }

    private RowExpressions planRow(String selectSql, int inputColumns, String clause, boolean orNull) {
        return planRow(selectSql, inputColumns, clause, orNull, false);
    }

    /**
     * As above; with {@code orNull}, null instead of 0A000 when the query reads more than the FROM
     * row (a subquery, a join): an UPDATE's or DELETE's WHERE and SET are then planned whole
     * ({@link #targetRowsPlan}). With {@code anyFrom}, the FROM row may come of any FROM list (joins,
     * subqueries in FROM): only the select list is planned, over that row, and no WHERE.
     */
    private RowExpressions planRow(String selectSql, int inputColumns, String clause, boolean orNull, boolean anyFrom) {
        QueryPlanner.Analysis analysis = planner.analyze(selectSql);
        if (analysis.setReturning()) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in %s", clause);
        }
        QueryPlanner.collectParameterTypes(analysis, parameterTypes);
        RelNode top = analysis.root().project();
        List<RexNode> projects;
        RelNode below;
        if (top instanceof Project project) {
            projects = project.getProjects();
            below = project.getInput();
        } else {
            projects = null;
            below = top;
        }
        Filter filter = below instanceof Filter found ? found : null;
        RelNode source = filter == null ? below : filter.getInput();
        boolean plainSource = anyFrom || source instanceof TableScan
                || source instanceof Join join && join.getLeft() instanceof TableScan && join.getRight() instanceof TableScan
                && join.getCondition().isAlwaysTrue();
        boolean subqueries = filter != null && RexUtil.SubQueryFinder.containsSubQuery(filter)
                || top instanceof Project project && RexUtil.SubQueryFinder.containsSubQuery(project);
        if (!plainSource || subqueries || !anyFrom && source.getRowType().getFieldCount() != inputColumns) {
            if (orNull) {
                return null;
            }
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "subqueries in UPDATE, DELETE, ON CONFLICT and RETURNING are not supported yet");
        }
        RexTranslator rex = new RexTranslator(analysis.rexBuilder(), analysis.statement().parameterNumbers(), settings);
        List<Expr> expressions = new ArrayList<>();
        if (projects == null) {
            List<DataType> types = new ArrayList<>();
            source.getRowType().getFieldList().forEach(field -> types.add(dev.parallax.planner.query.schema.TypeMapping.toEngine(field.getType())));
            for (int column = 0; column < types.size(); column++) {
                expressions.add(new ColumnRef(column, types.get(column)));
            }
        } else {
            for (RexNode node : projects) {
                expressions.add(rex.translate(node));
            }
        }
        Expr condition = filter == null || anyFrom ? null : rex.translate(filter.getCondition());
        List<ResultColumn> columns = QueryPlanner.resultColumns(analysis.root().validatedRowType, analysis.validated(),
                expressions.stream().map(Expr::type).toList(), analysis.statement().sql());
        List<String> fromNames = List.of();
        if (anyFrom && analysis.validated() instanceof org.apache.calcite.sql.SqlSelect select) {
            fromNames = new ArrayList<>();
            fromNames(select.getFrom(), fromNames);
        }
        return new RowExpressions(expressions, condition, columns, fromNames, source.getRowType().getFieldCount());
    }

    // ---- UPDATE ... FROM, DELETE ... USING, subqueries ----

    /**
     * An UPDATE or DELETE whose target rows come out of a query, planned whole as
     * {@code SELECT target.* [, FROM items' columns], SET values FROM target [, FROM / USING items] WHERE ...}
     * over the target seen as a {@link ModifyTargetTable}, whose hidden columns (row id, partition)
     * follow its own; the engine runs that plan and changes the rows it names
     * ({@link ModifyTableNode#rowIdColumn}). With RETURNING the plan keeps every FROM column (the
     * whole FROM row, as PostgreSQL's RETURNING may read any of them), and RETURNING is planned over
     * that row.
     */
    private TargetRowsPlan targetRowsPlan(ModifyStatementText text, Table table) {
        boolean updating = text.operation().equals("update");
        String alias = text.alias() == null ? text.table() : text.alias();
        String from = " FROM \"" + ModifyTargetTable.schema(text.tableName().schemaName()) + "\"." + text.table() + " AS " + alias
                + (text.fromText() == null ? "" : ", " + text.fromText());
        List<String> values = new ArrayList<>();
        int[] assignedColumns = updating ? assignedColumns(text.assignments(), table, values) : new int[0];
        RowExpressions returningRow = null;
        StringBuilder select = new StringBuilder("SELECT ");
        if (text.returningText() == null) {
            select.append(alias).append(".*");
        } else {
            // The plan keeps the whole FROM row RETURNING reads: each FROM item's columns in order
            // (x.*, not *, which would merge the columns of a JOIN ... USING).
            returningRow = planRow("SELECT " + text.returningText() + from, -1, "RETURNING", false, true);
            for (int index = 0; index < returningRow.fromNames().size(); index++) {
                select.append(index == 0 ? "" : ", ").append('"').append(returningRow.fromNames().get(index).replace("\"", "\"\"")).append("\".*");
            }
        }
        for (String value : values) {
            select.append(", ").append(value);
        }
        String sql = select + from + (text.whereText() == null ? "" : " WHERE " + text.whereText());
        QueryPlanner.Analysis[] analysis = new QueryPlanner.Analysis[1];
        PlanNode source = planner.planStatementPart(sql, settings, parameterTypes, analysis);
        if (analysis[0].setReturning()) {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "set-returning functions are not allowed in UPDATE");
        }
        int columnCount = table.columns().size();
        List<DataType> sourceTypes = source.outputTypes();
        int valuesFrom = sourceTypes.size() - values.size();
        List<Expr> assignments = new ArrayList<>();
        for (int column = 0; column < columnCount; column++) {
            assignments.add(null);
        }
        for (int index = 0; index < assignedColumns.length; index++) {
            DataType type = sourceTypes.get(valuesFrom + index);
            int column = assignedColumns[index];
            assignments.set(column, type.kind() == dev.parallax.engine.type.TypeKind.NULL
                    ? new Literal(null, table.columnTypes().get(column)) : new ColumnRef(valuesFrom + index, type));
        }
        List<Expr> returning = List.of();
        List<ResultColumn> returningColumns = List.of();
        if (returningRow != null) {
            RowExpressions row = returningRow;
            if (row.fromWidth() != valuesFrom) {
                throw new IllegalStateException("RETURNING reads a FROM row of " + row.fromWidth() + " columns, the plan has " + valuesFrom);
            }
            returning = new ArrayList<>();
            returningColumns = new ArrayList<>();
            for (int index = 0; index < row.expressions().size(); index++) {
                // RETURNING * lists the FROM row's columns: the target's hidden ones are no column of its.
                if (!ModifyTargetTable.isHidden(row.columns().get(index).name())) {
                    returning.add(row.expressions().get(index));
                    returningColumns.add(row.columns().get(index));
                }
            }
        }
        ModifyTableNode node = new ModifyTableNode(updating ? ModifyOperation.UPDATE : ModifyOperation.DELETE, table, source, null,
                updating ? assignments : List.of(), null, returning, PlanEstimate.UNKNOWN, columnCount);
        return new TargetRowsPlan(node, returningColumns);
    }

    private record TargetRowsPlan(ModifyTableNode node, List<ResultColumn> returningColumns) {
    }

    private List<DataType> finishedParameterTypes() {
        for (int index = 0; index < parameterTypes.size(); index++) {
            if (parameterTypes.get(index) == null) {
                throw ParallaxException.of(SqlState.INDETERMINATE_DATATYPE, "could not determine data type of parameter $%d", index + 1);
            }
        }
        return List.copyOf(parameterTypes);
    }

    /** The names of the FROM items of {@code from}, in FROM row order. */
    private static void fromNames(org.apache.calcite.sql.SqlNode from, List<String> names) {
        if (from instanceof org.apache.calcite.sql.SqlJoin join) {
            fromNames(join.getLeft(), names);
            fromNames(join.getRight(), names);
        } else if (from instanceof org.apache.calcite.sql.SqlCall call && call.getKind() == org.apache.calcite.sql.SqlKind.AS) {
            names.add(((org.apache.calcite.sql.SqlIdentifier) call.operand(1)).getSimple());
        } else if (from instanceof org.apache.calcite.sql.SqlIdentifier identifier) {
            names.add(identifier.names.getLast());
        } else {
            throw ParallaxException.of(SqlState.FEATURE_NOT_SUPPORTED, "RETURNING with a FROM item without an alias is not supported");
        }
    }

    /**
     * A planned select list: its expressions over the FROM row ({@code fromWidth} columns), the
     * WHERE condition or null, the result columns, and the FROM items' names in order (when planned
     * over any FROM list).
     */
    private record RowExpressions(List<Expr> expressions, Expr condition, List<ResultColumn> columns, List<String> fromNames,
                                  int fromWidth) {
    }
}
