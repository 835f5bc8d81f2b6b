package dev.parallax.planner.query.convert;

import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.PostgresType;
import dev.parallax.planner.progress.CatalogRelations;
import dev.parallax.planner.progress.PgCatalogViews;
import dev.parallax.planner.query.function.CatalogFunctions;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Replaces PostgreSQL's catalog functions ({@link CatalogFunctions}) by expressions the engine
 * evaluates: a lookup over the catalog becomes a CASE over the OIDs the catalog holds when the
 * statement is planned ({@code pg_get_indexdef(i.indexrelid)} is {@code CASE WHEN x = 16390 THEN
 * 'CREATE UNIQUE INDEX ...' ... END}); a plan is cached per catalog version, so the snapshot is
 * replanned with every DDL. Catalog queries read a handful of rows: the CASE costs nothing there,
 * and the engine needs no per-row call back into the catalog.
 */
public final class CatalogFunctionExpander extends RexShuttle {
    /** PostgreSQL's VARHDRSZ, part of character and numeric type modifiers. */
    private static final int VARHDRSZ = 4;

    private final RexBuilder rexBuilder;
    private final Catalog catalog;
    private final RelDataType text;
    private CatalogRelations relations;

    private CatalogFunctionExpander(RexBuilder rexBuilder, Catalog catalog) {
        this.rexBuilder = rexBuilder;
        this.catalog = catalog;
        this.text = rexBuilder.getTypeFactory().createTypeWithNullability(
                rexBuilder.getTypeFactory().createSqlType(SqlTypeName.VARCHAR), true);
    }

    /** {@code root} with every catalog function call in its expressions expanded. */
    public static RelNode apply(RelNode root, Catalog catalog) {
        CatalogFunctionExpander expander = new CatalogFunctionExpander(root.getCluster().getRexBuilder(), catalog);
        return root.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(expander);
            }
        });
    }

    @Override
    public RexNode visitCall(RexCall original) {
        // current_schemas(...)[n] before its operands: the array itself has no engine form.
        if (original.getKind() == SqlKind.ITEM && original.getOperands().get(0) instanceof RexCall array
                && array.getOperator() == CatalogFunctions.CURRENT_SCHEMAS) {
            return searchPathElement(array.getOperands().get(0), original.getOperands().get(1), original.getType());
        }
        RexNode visited = super.visitCall(original);
        if (!(visited instanceof RexCall call)) {
            return visited;
        }
        SqlOperator operator = call.getOperator();
        List<RexNode> operands = call.getOperands();
        if (operator == CatalogFunctions.CURRENT_SCHEMAS) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "current_schemas() can only be subscripted: Parallax has no array values");
        }
        if (operator == CatalogFunctions.FORMAT_TYPE) {
            return strict(operands.get(0), formatType(operands.get(0), operands.get(1)));
        }
        if (operator == CatalogFunctions.REGTYPE) {
            return strict(operands.get(0), formatType(operands.get(0), rexBuilder.makeNullLiteral(operands.get(0).getType())));
        }
        if (operator == CatalogFunctions.GET_USER_BY_ID) {
            RexNode role = operands.get(0);
            return strict(role, caseOf(List.of(equal(role, PgCatalogViews.SUPERUSER_OID)), List.of(literal(PgCatalogViews.OWNER)),
                    concat(literal("unknown (OID="), toText(role), literal(")"))));
        }
        if (operator == CatalogFunctions.TABLE_IS_VISIBLE) {
            // Every relation lives in public, pg_catalog or the session's temporary schema, all on the
            // search path, and one relation namespace keeps the first two from hiding each other; a
            // temporary relation hides the permanent one of its name (pg_temp is searched first).
            RexNode relation = operands.get(0);
            List<RexNode> operandsOfCase = new ArrayList<>(List.of(
                    rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, relation), rexBuilder.makeNullLiteral(call.getType())));
            for (long hidden : hiddenByTemporaryRelations()) {
                operandsOfCase.add(equal(relation, hidden));
                operandsOfCase.add(rexBuilder.makeLiteral(false));
            }
            operandsOfCase.add(rexBuilder.makeLiteral(true));
            return rexBuilder.makeCall(call.getType(), SqlStdOperatorTable.CASE, operandsOfCase);
        }
        if (operator == CatalogFunctions.TYPE_IS_VISIBLE) {
            // Every type lives in pg_catalog, which is on the search path.
            return rexBuilder.makeCall(call.getType(), SqlStdOperatorTable.CASE, List.of(
                    rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, operands.get(0)), rexBuilder.makeNullLiteral(call.getType()),
                    rexBuilder.makeLiteral(true)));
        }
        if (operator == CatalogFunctions.FUNCTION_IS_VISIBLE || operator == CatalogFunctions.GET_FUNCTION_RESULT
                || operator == CatalogFunctions.GET_FUNCTION_ARGUMENTS) {
            // pg_proc lists no function: every OID is unknown.
            return rexBuilder.makeNullLiteral(call.getType());
        }
        if (operator == CatalogFunctions.RELATION_IS_PUBLISHABLE) {
            return relationIsPublishable(operands.get(0), call.getType());
        }
        if (operator == CatalogFunctions.STATISTICS_OBJECT_COLUMNS) {
            return rexBuilder.makeNullLiteral(call.getType());
        }
        if (operator == CatalogFunctions.GET_INDEX_DEFINITION) {
            return indexDefinition(operands);
        }
        if (operator == CatalogFunctions.GET_PARTITION_KEY_DEFINITION) {
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            for (CatalogRelations.Relation relation : relations().relations()) {
                if (relation.kind() == 'p') {
                    conditions.add(equal(operands.get(0), relation.oid()));
                    values.add(literal(partitionKeyDefinition(relation.table())));
                }
            }
            return caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        }
        if (operator == CatalogFunctions.GET_VIEW_DEFINITION) {
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            for (CatalogRelations.Relation relation : relations().relations()) {
                if (relation.view() != null) {
                    conditions.add(equal(operands.get(0), relation.oid()));
                    values.add(literal(" " + relation.view().query() + ";"));
                }
            }
            return caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        }
        if (operator == CatalogFunctions.GET_PARTITION_CONSTRAINT_DEFINITION) {
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            for (CatalogRelations.Relation relation : relations().relations()) {
                String definition = partitionConstraintDefinition(relation);
                if (definition != null) {
                    conditions.add(equal(operands.get(0), relation.oid()));
                    values.add(literal(definition));
                }
            }
            return caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        }
        if (operator == CatalogFunctions.GET_CONSTRAINT_DEFINITION) {
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            for (CatalogRelations.Index index : relations().indexes()) {
                if (index.constraintOid() != 0) {
                    conditions.add(equal(operands.get(0), index.constraintOid()));
                    values.add(literal(index.constraintDefinition()));
                }
            }
            for (CatalogRelations.Check check : relations().checks()) {
                conditions.add(equal(operands.get(0), check.constraint().objectId()));
                RexNode plain = literal(check.definition(false));
                values.add(operands.size() < 2 ? plain : rexBuilder.makeCall(SqlStdOperatorTable.CASE,
                        rexBuilder.makeCall(SqlStdOperatorTable.IS_TRUE, operands.get(1)), literal(check.definition(true)), plain));
            }
            for (CatalogRelations.ForeignKeyEntry entry : relations().foreignKeys()) {
                conditions.add(equal(operands.get(0), entry.key().objectId()));
                values.add(literal(entry.key().definition()));
            }
            return caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        }
        if (operator == CatalogFunctions.GET_EXPRESSION) {
            // The catalog's expression columns (relpartbound, adbin, indexprs) hold the expression's text.
            RexNode expression = rexBuilder.makeCast(text, operands.get(0), true, false);
            if (operands.size() < 3 || operands.get(2).isAlwaysFalse()) {
                return expression;
            }
            // Pretty: the column defaults whose pretty text differs (1 + 2 for (1 + 2)).
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (dev.parallax.engine.catalog.Table table : catalog.tables()) {
                for (dev.parallax.engine.catalog.ColumnDefinition column : table.columns()) {
                    dev.parallax.engine.catalog.ColumnDefault value = column.defaultValue();
                    if (value != null && !value.prettyText().equals(value.displayText()) && seen.add(value.displayText())) {
                        conditions.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, expression, literal(value.displayText())));
                        values.add(literal(value.prettyText()));
                    }
                }
            }
            if (conditions.isEmpty()) {
                return expression;
            }
            RexNode pretty = caseOf(conditions, values, expression);
            return rexBuilder.makeCall(SqlStdOperatorTable.CASE, operands.get(2), pretty, expression);
        }
        if (operator == CatalogFunctions.OBJECT_DESCRIPTION || operator == CatalogFunctions.COLUMN_DESCRIPTION) {
            return description(operator == CatalogFunctions.COLUMN_DESCRIPTION, operands, text);
        }
        if (operator == CatalogFunctions.SHARED_OBJECT_DESCRIPTION) {
            // Comments are on relations only: no shared object (database, role, tablespace) has one.
            return rexBuilder.makeNullLiteral(text);
        }
        if (operator == CatalogFunctions.HAS_TABLE_PRIVILEGE || operator == CatalogFunctions.HAS_SCHEMA_PRIVILEGE
                || operator == CatalogFunctions.HAS_DATABASE_PRIVILEGE) {
            // One user owns everything: every privilege is held (NULL for a NULL object, as PostgreSQL).
            RexNode object = operands.get(operands.size() - 2);
            return rexBuilder.makeCall(call.getType(), SqlStdOperatorTable.CASE, List.of(
                    rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, object), rexBuilder.makeNullLiteral(call.getType()),
                    rexBuilder.makeLiteral(true)));
        }
        if (operator == CatalogFunctions.ENCODING_TO_CHAR) {
            return strict(operands.get(0), caseOf(List.of(equal(operands.get(0), PgCatalogViews.UTF8_ENCODING)),
                    List.of(literal("UTF8")), literal("")));
        }
        if (operator == dev.parallax.planner.query.function.ParallaxFunctions.ARRAY_TO_STRING
                && org.apache.calcite.sql.type.SqlTypeUtil.inCharFamily(operands.get(0).getType())) {
            // A catalog array column still held in its text form ({a,b}); real arrays reach the engine.
            return arrayToString(operands.get(0), operands.get(1));
        }
        if (operator == CatalogFunctions.REGCLASS) {
            return regclass(operands.get(0), call.getType());
        }
        if (CatalogFunctions.RELATION_SIZE_FUNCTIONS.contains(operator)
                && SqlTypeFamily.CHARACTER.contains(operands.getFirst().getType())) {
            // pg_table_size('t'): the name is a regclass; the size itself is read when the statement runs.
            List<RexNode> resolved = new ArrayList<>(operands);
            RelDataType oid = rexBuilder.getTypeFactory().createTypeWithNullability(
                    rexBuilder.getTypeFactory().createSqlType(SqlTypeName.BIGINT), true);
            resolved.set(0, regclass(operands.getFirst(), oid));
            return rexBuilder.makeCall(call.getType(), operator, resolved);
        }
        if (operator == CatalogFunctions.REGPROC) {
            return regproc(operands.get(0), call.getType());
        }
        if (operator == CatalogFunctions.TABLESPACE_LOCATION) {
            RexNode tablespace = operands.get(0);
            return caseOf(List.of(equal(tablespace, PgCatalogViews.DEFAULT_TABLESPACE_OID),
                    equal(tablespace, PgCatalogViews.GLOBAL_TABLESPACE_OID)), List.of(literal(""), literal("")),
                    rexBuilder.makeNullLiteral(text));
        }
        if (operator == CatalogFunctions.TABLESPACE_SIZE) {
            return tablespaceSize(operands.get(0), call.getType());
        }
        if (operator == CatalogFunctions.REGNAMESPACE) {
            RexNode namespace = operands.get(0);
            List<RexNode> conditions = new ArrayList<>(List.of(equal(namespace, CatalogRelations.PG_CATALOG_NAMESPACE),
                    equal(namespace, CatalogRelations.PUBLIC_NAMESPACE), equal(namespace, CatalogRelations.INFORMATION_SCHEMA_NAMESPACE)));
            List<RexNode> names = new ArrayList<>(List.of(literal("pg_catalog"), literal("public"), literal("information_schema")));
            if (relations().temporaryNamespace() != 0) {
                conditions.add(equal(namespace, relations().temporaryNamespace()));
                names.add(literal(relations().temporarySchemaName()));
            }
            return strict(namespace, caseOf(conditions, names, toText(namespace)));
        }
        return call;
    }

    /**
     * PostgreSQL's pg_get_partition_constraintdef of a hash partition:
     * {@code satisfies_hash_partition('parent_oid'::oid, modulus, remainder, key columns)}; null for
     * a relation that is no partition.
     */
    private String partitionConstraintDefinition(CatalogRelations.Relation relation) {
        dev.parallax.engine.catalog.Table table = relation.table();
        if (table == null || table.parent() == null) {
            return null;
        }
        long parentOid = 0;
        for (CatalogRelations.Relation candidate : relations().relations()) {
            if (candidate.table() == table.parent()) {
                parentOid = candidate.oid();
            }
        }
        StringBuilder definition = new StringBuilder("satisfies_hash_partition('").append(parentOid).append("'::oid, ")
                .append(table.partitionBound().modulus()).append(", ").append(table.partitionBound().remainder());
        for (int column : table.parent().partitionKey().columns()) {
            definition.append(", ").append(table.parent().columns().get(column).name());
        }
        return definition.append(')').toString();
    }

    /** PostgreSQL's pg_get_partkeydef: {@code HASH (a, b)}. */
    private static String partitionKeyDefinition(dev.parallax.engine.catalog.Table table) {
        StringBuilder definition = new StringBuilder("HASH (");
        int[] columns = table.partitionKey().columns();
        for (int index = 0; index < columns.length; index++) {
            definition.append(index == 0 ? "" : ", ").append(table.columns().get(columns[index]).name());
        }
        return definition.append(')').toString();
    }

    /** True for the user tables and partitioned tables, false for the other relations, NULL for other OIDs. */
    private RexNode relationIsPublishable(RexNode relation, RelDataType type) {
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> values = new ArrayList<>();
        for (CatalogRelations.Relation candidate : relations().relations()) {
            conditions.add(equal(relation, candidate.oid()));
            values.add(rexBuilder.makeLiteral(candidate.kind() == 'r' || candidate.kind() == 'p'));
        }
        for (CatalogRelations.Index index : relations().indexes()) {
            conditions.add(equal(relation, index.oid()));
            values.add(rexBuilder.makeLiteral(false));
        }
        if (conditions.isEmpty()) {
            return rexBuilder.makeNullLiteral(type);
        }
        List<RexNode> operands = new ArrayList<>();
        for (int index = 0; index < conditions.size(); index++) {
            operands.add(conditions.get(index));
            operands.add(values.get(index));
        }
        operands.add(rexBuilder.makeNullLiteral(type));
        return rexBuilder.makeCall(type, SqlStdOperatorTable.CASE, operands);
    }

    /** The OIDs of the permanent relations whose names the session's temporary relations take. */
    private List<Long> hiddenByTemporaryRelations() {
        List<Long> hidden = new ArrayList<>();
        if (catalog instanceof SessionCatalog session && session.hasTemporaryTables()) {
            CatalogRelations temporary = CatalogRelations.of(session.temporary());
            List<String> names = new ArrayList<>();
            temporary.relations().forEach(relation -> names.add(relation.name()));
            temporary.indexes().forEach(index -> names.add(index.name()));
            temporary.sequences().forEach(sequence -> names.add(sequence.sequence().name()));
            for (String name : names) {
                long oid = session.shared().relationOid(name);
                if (oid != 0) {
                    hidden.add(oid);
                }
            }
        }
        return hidden;
    }

    private CatalogRelations relations() {
        if (relations == null) {
            relations = CatalogRelations.of(catalog);
        }
        return relations;
    }

    /** {@code current_schemas(implicit)[n]}: pg_catalog (when implicit schemas are included), then public. */
    private RexNode searchPathElement(RexNode includeImplicit, RexNode position, RelDataType type) {
        if (!(includeImplicit instanceof RexLiteral implicitLiteral) || !(position instanceof RexLiteral positionLiteral)) {
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "current_schemas() takes a constant argument and a constant subscript in Parallax");
        }
        Boolean implicit = implicitLiteral.getValueAs(Boolean.class);
        BigDecimal number = positionLiteral.getValueAs(BigDecimal.class);
        List<String> path = Boolean.TRUE.equals(implicit) ? List.of("pg_catalog", "public") : List.of("public");
        if (number == null || number.intValue() < 1 || number.intValue() > path.size()) {
            return rexBuilder.makeNullLiteral(type);
        }
        return rexBuilder.makeCast(type, literal(path.get(number.intValue() - 1)), true, false);
    }

    /** format_type: the type's name, with its modifier for character, bit, numeric and timestamp types. */
    private RexNode formatType(RexNode typeOid, RexNode modifier) {
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> values = new ArrayList<>();
        RexNode noModifier = rexBuilder.makeCall(SqlStdOperatorTable.OR,
                rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, modifier),
                rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN, modifier, number(0)));
        for (PostgresType type : PostgresType.values()) {
            conditions.add(equal(typeOid, type.oid()));
            String plain = type.format(-1);
            RexNode withModifier = switch (type) {
                case BPCHAR, VARCHAR -> concat(literal(type.format(VARHDRSZ).replace("(0)", "(")),
                        toText(minus(modifier, VARHDRSZ)), literal(")"));
                case BIT, VARBIT -> concat(literal(type.format(0).replace("(0)", "(")), toText(modifier), literal(")"));
                case NUMERIC -> concat(literal("numeric("),
                        toText(rexBuilder.makeCall(SqlStdOperatorTable.DIVIDE, minus(modifier, VARHDRSZ), number(65536))),
                        literal(","), toText(rexBuilder.makeCall(SqlStdOperatorTable.MOD, minus(modifier, VARHDRSZ), number(65536))),
                        literal(")"));
                // timestamp(3) without time zone: the precision between the type word and the zone words.
                case TIMESTAMP, TIMESTAMPTZ -> concat(literal("timestamp("), toText(modifier),
                        literal(type == PostgresType.TIMESTAMP ? ") without time zone" : ") with time zone"));
                default -> null;
            };
            values.add(withModifier == null ? literal(plain)
                    : caseOf(List.of(noModifier), List.of(literal(plain)), withModifier));
        }
        return caseOf(conditions, values, literal("???"));
    }

    /** pg_get_indexdef(index[, column, pretty]): the definition for column 0 (or none), else that key column's name. */
    private RexNode indexDefinition(List<RexNode> operands) {
        RexNode index = operands.get(0);
        boolean pretty = operands.size() == 3 && operands.get(2) instanceof RexLiteral flag
                && Boolean.TRUE.equals(flag.getValueAs(Boolean.class));
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> values = new ArrayList<>();
        for (CatalogRelations.Index entry : relations().indexes()) {
            conditions.add(equal(index, entry.oid()));
            values.add(literal(entry.definition(pretty)));
        }
        RexNode definitions = caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        if (operands.size() == 1) {
            return definitions;
        }
        RexNode column = operands.get(1);
        List<RexNode> columnConditions = new ArrayList<>();
        List<RexNode> columnValues = new ArrayList<>();
        columnConditions.add(rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, column),
                rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, column, number(0))));
        columnValues.add(definitions);
        for (CatalogRelations.Index entry : relations().indexes()) {
            int[] keyColumns = entry.keyColumns();
            for (int key = 0; key < keyColumns.length; key++) {
                columnConditions.add(rexBuilder.makeCall(SqlStdOperatorTable.AND, equal(index, entry.oid()),
                        rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, column, number(key + 1))));
                columnValues.add(literal(entry.table().columns().get(keyColumns[key]).name()));
            }
        }
        return caseOf(columnConditions, columnValues, rexBuilder.makeNullLiteral(text));
    }

    /**
     * {@code obj_description(oid[, catalog])} and {@code col_description(oid, column number)}: a CASE
     * over the comments (COMMENT ON) as they are now, as pg_description holds them; comments are on
     * relations only, so a catalog other than {@code pg_class} gives NULL. A comment changed later
     * moves the catalog's version, and cached plans are made again.
     */
    private RexNode description(boolean column, List<RexNode> operands, RelDataType text) {
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> values = new ArrayList<>();
        for (CatalogRelations.Description description : relations().descriptions()) {
            if (column != (description.columnNumber() != 0)) {
                continue;
            }
            RexNode condition = equal(operands.get(0), description.objectOid());
            if (column) {
                condition = rexBuilder.makeCall(SqlStdOperatorTable.AND, condition, equal(operands.get(1), description.columnNumber()));
            }
            conditions.add(condition);
            values.add(literal(description.text()));
        }
        if (conditions.isEmpty()) {
            return rexBuilder.makeNullLiteral(text);
        }
        RexNode found = caseOf(conditions, values, rexBuilder.makeNullLiteral(text));
        if (!column && operands.size() == 2) {
            return caseOf(List.of(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, operands.get(1), literal("pg_class"))), List.of(found),
                    rexBuilder.makeNullLiteral(text));
        }
        return found;
    }

    /**
     * {@code x::regclass}: a constant name is looked up now (42P01 when there is no such relation,
     * as PostgreSQL); a name column becomes a CASE over the relation names; an OID shows as its
     * relation's name, or as the number when no relation has it.
     */
    private RexNode regclass(RexNode operand, RelDataType type) {
        List<Relation> all = allRelations();
        if (SqlTypeFamily.CHARACTER.contains(operand.getType())) {
            if (operand instanceof RexLiteral literal) {
                String name = literal.getValueAs(String.class);
                if (name == null) {
                    return rexBuilder.makeNullLiteral(type);
                }
                if (!name.isEmpty() && name.chars().allMatch(character -> character >= '0' && character <= '9')) {
                    // PostgreSQL's regclassin takes a number as the OID itself.
                    return rexBuilder.makeBigintLiteral(new BigDecimal(name));
                }
                String unqualified = WrittenRelationName.unqualified(name);
                for (Relation relation : all) {
                    if (relation.name().equals(unqualified)) {
                        return rexBuilder.makeBigintLiteral(BigDecimal.valueOf(relation.oid()));
                    }
                }
                throw ParallaxException.of(SqlState.UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
            }
            List<RexNode> conditions = new ArrayList<>();
            List<RexNode> values = new ArrayList<>();
            for (Relation relation : all) {
                conditions.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, operand, literal(relation.name())));
                values.add(rexBuilder.makeBigintLiteral(BigDecimal.valueOf(relation.oid())));
            }
            return caseOf(conditions, values, rexBuilder.makeNullLiteral(type));
        }
        List<RexNode> conditions = new ArrayList<>();
        List<RexNode> values = new ArrayList<>();
        for (Relation relation : all) {
            conditions.add(equal(operand, relation.oid()));
            values.add(literal(relation.name()));
        }
        return strict(operand, caseOf(conditions, values, toText(operand)));
    }

    /**
     * {@code x::regproc} while pg_proc lists no function: a constant name fails as PostgreSQL's
     * regprocin does for a name no function has (42883), a name column gives NULL; an OID shows as
     * its number, 0 as {@code -}.
     */
    private RexNode regproc(RexNode operand, RelDataType type) {
        if (SqlTypeFamily.CHARACTER.contains(operand.getType())) {
            if (operand instanceof RexLiteral literal) {
                String name = literal.getValueAs(String.class);
                if (name == null) {
                    return rexBuilder.makeNullLiteral(type);
                }
                if (!name.isEmpty() && name.chars().allMatch(character -> character >= '0' && character <= '9')) {
                    return rexBuilder.makeBigintLiteral(new BigDecimal(name));
                }
                throw ParallaxException.of(SqlState.UNDEFINED_FUNCTION, "function \"%s\" does not exist", name);
            }
            return rexBuilder.makeNullLiteral(type);
        }
        return strict(operand, caseOf(List.of(equal(operand, 0)), List.of(literal("-")), toText(operand)));
    }

    /**
     * pg_tablespace_size: pg_default holds the whole database (the size is read when the statement
     * runs, as pg_database_size), pg_global nothing. A constant unknown name is PostgreSQL's 42704.
     */
    private RexNode tablespaceSize(RexNode tablespace, RelDataType type) {
        RexNode database = rexBuilder.makeCall(type, CatalogFunctions.DATABASE_SIZE,
                List.of(rexBuilder.makeBigintLiteral(BigDecimal.valueOf(PgCatalogViews.DATABASE_OID))));
        RexNode none = rexBuilder.makeBigintLiteral(BigDecimal.ZERO);
        RexNode isDefault;
        RexNode isGlobal;
        if (SqlTypeFamily.CHARACTER.contains(tablespace.getType())) {
            if (tablespace instanceof RexLiteral literal && literal.getValueAs(String.class) != null
                    && !List.of("pg_default", "pg_global").contains(literal.getValueAs(String.class))) {
                throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "tablespace \"%s\" does not exist", literal.getValueAs(String.class));
            }
            isDefault = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, tablespace, literal("pg_default"));
            isGlobal = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, tablespace, literal("pg_global"));
        } else {
            isDefault = equal(tablespace, PgCatalogViews.DEFAULT_TABLESPACE_OID);
            isGlobal = equal(tablespace, PgCatalogViews.GLOBAL_TABLESPACE_OID);
        }
        return rexBuilder.makeCall(type, SqlStdOperatorTable.CASE, List.of(isDefault, database, isGlobal, none,
                rexBuilder.makeNullLiteral(type)));
    }

    private record Relation(String name, long oid) {
    }

    private List<Relation> allRelations() {
        List<Relation> all = new ArrayList<>();
        for (CatalogRelations.Relation relation : relations().relations()) {
            all.add(new Relation(relation.name(), relation.oid()));
        }
        for (CatalogRelations.Index index : relations().indexes()) {
            all.add(new Relation(index.name(), index.oid()));
        }
        for (CatalogRelations.SequenceRelation sequence : relations().sequences()) {
            all.add(new Relation(sequence.sequence().name(), sequence.oid()));
        }
        return all;
    }

    /**
     * array_to_string over a catalog array in text form ({@code {a,b}}): the elements joined by the
     * separator. The catalog's text-form arrays (ACLs) hold no quoted elements.
     */
    private RexNode arrayToString(RexNode array, RexNode separator) {
        RexNode inner = rexBuilder.makeCall(SqlStdOperatorTable.SUBSTRING, array, number(2),
                minus(rexBuilder.makeCall(SqlStdOperatorTable.CHAR_LENGTH, array), 2));
        RexNode joined = rexBuilder.makeCall(SqlStdOperatorTable.REPLACE, inner, literal(","), separator);
        return rexBuilder.makeCall(text, SqlStdOperatorTable.CASE, List.of(
                rexBuilder.makeCall(SqlStdOperatorTable.OR, rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, array),
                        rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, separator)),
                rexBuilder.makeNullLiteral(text), rexBuilder.makeCast(text, joined, true, false)));
    }

    /** NULL when {@code argument} is NULL, else {@code value}. */
    private RexNode strict(RexNode argument, RexNode value) {
        return rexBuilder.makeCall(value.getType(), SqlStdOperatorTable.CASE, List.of(
                rexBuilder.makeCall(SqlStdOperatorTable.IS_NULL, argument), rexBuilder.makeNullLiteral(value.getType()), value));
    }

    private RexNode caseOf(List<RexNode> conditions, List<RexNode> values, RexNode otherwise) {
        if (conditions.isEmpty()) {
            return rexBuilder.makeCast(text, otherwise, true, false);
        }
        List<RexNode> operands = new ArrayList<>();
        for (int index = 0; index < conditions.size(); index++) {
            operands.add(conditions.get(index));
            operands.add(rexBuilder.makeCast(text, values.get(index), true, false));
        }
        operands.add(rexBuilder.makeCast(text, otherwise, true, false));
        return rexBuilder.makeCall(text, SqlStdOperatorTable.CASE, operands);
    }

    private RexNode equal(RexNode value, long constant) {
        return rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, value, rexBuilder.makeBigintLiteral(BigDecimal.valueOf(constant)));
    }

    private RexNode number(int value) {
        return rexBuilder.makeExactLiteral(BigDecimal.valueOf(value));
    }

    private RexNode minus(RexNode value, int constant) {
        return rexBuilder.makeCall(SqlStdOperatorTable.MINUS, value, number(constant));
    }

    private RexNode literal(String value) {
        return rexBuilder.makeLiteral(value, text, false);
    }

    private RexNode toText(RexNode value) {
        return rexBuilder.makeCast(text, value, true, false);
    }

    private RexNode concat(RexNode... parts) {
        RexNode result = parts[0];
        for (int index = 1; index < parts.length; index++) {
            result = rexBuilder.makeCall(SqlStdOperatorTable.CONCAT, result, parts[index]);
        }
        return result;
    }
}
