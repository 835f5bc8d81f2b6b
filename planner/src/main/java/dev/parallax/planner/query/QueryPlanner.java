package dev.parallax.planner.query;

import dev.parallax.ResultColumn;
import dev.parallax.engine.catalog.Catalog;
import dev.parallax.engine.catalog.SessionCatalog;
import dev.parallax.engine.catalog.Table;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.plan.PlanNode;
import dev.parallax.engine.settings.Settings;
import dev.parallax.engine.type.DataType;
import dev.parallax.planner.query.cost.CostModel;
import dev.parallax.planner.query.cost.ParallelPlanner;
import dev.parallax.planner.query.function.CatalogFunctions;
import dev.parallax.planner.query.function.ParallaxFunctions;
import dev.parallax.planner.query.parse.ExpressionTokens;
import dev.parallax.planner.query.parse.InsertDefaults;
import dev.parallax.planner.query.parse.ModifyStatementText;
import dev.parallax.planner.query.parse.PostgresDialectRewriter;
import dev.parallax.planner.query.parse.RewrittenStatement;
import dev.parallax.planner.statement.RelationName;
import dev.parallax.planner.query.schema.CatalogSchema;
import dev.parallax.planner.query.schema.InformationSchemaViews;
import dev.parallax.planner.query.schema.ParallaxTypeSystem;
import dev.parallax.planner.query.schema.TypeMapping;
import dev.parallax.planner.query.translate.InsertTranslator;
import dev.parallax.planner.query.translate.RelTranslator;
import dev.parallax.planner.query.translate.RexTranslator;
import dev.parallax.planner.query.validate.ParallaxValidator;
import dev.parallax.planner.query.validate.DistinctOnClauses;
import dev.parallax.planner.query.validate.SetReturningCalls;
import dev.parallax.planner.query.validate.ValuesColumnNames;
import dev.parallax.planner.query.validate.ValuesRowLengths;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import dev.parallax.planner.query.convert.NoConstantReduction;
import dev.parallax.planner.query.convert.AggregateInputReduction;
import dev.parallax.planner.query.convert.CatalogFunctionExpander;
import dev.parallax.planner.query.convert.CommonFactors;
import dev.parallax.planner.query.convert.EquiSemiJoinJoinTransposeRule;
import dev.parallax.planner.query.convert.JoinEnumerationRule;
import dev.parallax.planner.query.convert.OrRestrictions;
import dev.parallax.planner.query.convert.SubqueryDecorrelation;
import dev.parallax.planner.query.convert.VolatileProjectionFence;
import dev.parallax.planner.query.convert.SetReturningProjections;
import dev.parallax.planner.query.convert.ProjectSetFieldTrimmer;
import dev.parallax.planner.query.convert.ParallaxConvertletTable;
import dev.parallax.planner.query.convert.RecursiveReferences;
import dev.parallax.planner.query.validate.RecursionChecks;
import dev.parallax.planner.query.validate.RecursiveColumnTypes;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;

/**
 * SQL text to an engine plan: PostgreSQL-dialect rewrite, Calcite parse and validation against the
 * engine catalog, logical rewrites in Hep phases, translation to engine nodes, then the parallel
 * choice. Calcite only plans; nothing of Calcite's execution (Enumerable, Bindable, Interpreter,
 * RexExecutor) is used. Thread-safe: each call builds its own validator and cluster.
 */
public final class QueryPlanner {
    private static final SqlParser.Config PARSER_CONFIG = SqlParser.config()
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true)
            .withConformance(SqlConformanceEnum.LENIENT);
    private static final SqlValidator.Config VALIDATOR_CONFIG = SqlValidator.Config.DEFAULT
            .withConformance(SqlConformanceEnum.LENIENT)
            .withDefaultNullCollation(NullCollation.HIGH)
            .withIdentifierExpansion(true)
            .withTypeCoercionFactory(dev.parallax.planner.query.validate.UuidComparisonCoercion::new);
    private static final SqlToRelConverter.Config CONVERTER_CONFIG = SqlToRelConverter.config()
            .withInSubQueryThreshold(Integer.MAX_VALUE)
            .withExpand(false);
    private static final CalciteConnectionConfig CONNECTION_CONFIG;
    /** Statements that may hold WITH RECURSIVE, for the checks only they need. */
    private static final java.util.regex.Pattern RECURSIVE_WORD = java.util.regex.Pattern.compile("recursive",
            java.util.regex.Pattern.CASE_INSENSITIVE);
    /** Phase 1: merge and push filters and projections; fold projections into aggregates' inputs. */
    private static final HepProgram LOGICAL_REWRITES = new HepProgramBuilder()
            .addRuleCollection(List.of(
                    CoreRules.FILTER_MERGE,
                    VolatileProjectionFence.FILTER_PROJECT_TRANSPOSE,
                    VolatileProjectionFence.PROJECT_MERGE,
                    CoreRules.PROJECT_REMOVE,
                    VolatileProjectionFence.AGGREGATE_PROJECT_MERGE,
                    // INTERSECT / EXCEPT (distinct) become UNION ALL + counting aggregate + filter.
                    CoreRules.INTERSECT_TO_DISTINCT,
                    CoreRules.MINUS_TO_DISTINCT,
                    // Window functions (OVER) move from projections into Window nodes.
                    CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW))
            .build();

    /**
     * Phase 2, joins: push filters and join conditions down, merge trees of inner joins into a
     * MultiJoin and order it by cost ({@link JoinEnumerationRule}: dynamic programming over the
     * subsets of up to 10 inputs); MultiJoins with outer joins or more inputs go to Calcite's greedy
     * LoptOptimizeJoinRule (the largest table first, then each next table joined by an equi
     * condition when one exists, smaller intermediate results first); then move
     * expressions in join keys into projections below the join, so hash keys are plain columns.
     */
    private static final HepProgram JOIN_ORDER = new HepProgramBuilder()
            .addRuleCollection(List.of(
                    CoreRules.FILTER_INTO_JOIN,
                    CoreRules.JOIN_CONDITION_PUSH,
                    CoreRules.FILTER_MERGE,
                    VolatileProjectionFence.FILTER_PROJECT_TRANSPOSE))
            // A semi join (IN / EXISTS) moves down to the input of a join tree that holds its keys,
            // so it shrinks that input before the joins (Q18: orders IN (big-quantity orders) joins
            // 57 orders to customer and lineitem instead of filtering 6M joined rows at the end).
            .addRuleCollection(List.of(
                    CoreRules.SEMI_JOIN_FILTER_TRANSPOSE,
                    VolatileProjectionFence.SEMI_JOIN_PROJECT_TRANSPOSE,
                    EquiSemiJoinJoinTransposeRule.INSTANCE))
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(JoinEnumerationRule.INSTANCE)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .addMatchOrder(HepMatchOrder.DEPTH_FIRST)
            .addRuleCollection(List.of(
                    CoreRules.JOIN_PUSH_EXPRESSIONS,
                    CoreRules.FILTER_INTO_JOIN,
                    CoreRules.JOIN_CONDITION_PUSH,
                    VolatileProjectionFence.PROJECT_MERGE,
                    CoreRules.PROJECT_REMOVE))
            .build();

    /** Calcite's metadata with our join and filter row counts (statistics-based), which the join ordering relies on. */
    private static final org.apache.calcite.rel.metadata.RelMetadataProvider METADATA =
            org.apache.calcite.rel.metadata.ChainedRelMetadataProvider.of(List.of(
                    dev.parallax.planner.query.cost.JoinRowCount.SOURCE,
                    dev.parallax.planner.query.cost.FilterRowCount.SOURCE,
                    dev.parallax.planner.query.convert.ProjectSetMetadata.SOURCE,
                    org.apache.calcite.rel.metadata.DefaultRelMetadataProvider.INSTANCE));

    static {
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        CONNECTION_CONFIG = new CalciteConnectionConfigImpl(properties);
    }

    private final Catalog catalog;
    /**
     * For a session's planner, the database's: its schema serves while the session has no
     * temporary tables (one snapshot for all such sessions), and views are always expanded in it,
     * since a view names the relations its creator saw, never a session's temporary ones. Null for
     * the database's planner itself.
     */
    private final QueryPlanner databasePlanner;
    private volatile SchemaSnapshot schema;

    public QueryPlanner(Catalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.databasePlanner = null;
    }

    /** A session's planner: names resolve in {@code catalog} (its temporary tables first), views in {@code databasePlanner}'s. */
    public QueryPlanner(SessionCatalog catalog, QueryPlanner databasePlanner) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.databasePlanner = Objects.requireNonNull(databasePlanner, "databasePlanner");
    }

    /**
     * SELECT / VALUES / INSERT INTO t [(cols)] VALUES ... | SELECT ...; UPDATE, DELETE, and INSERT
     * with ON CONFLICT or RETURNING ({@link ModifyPlanner}); parameters $1.. or ?.
     */
    public PlannedQuery plan(String sql, Settings settings) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(settings, "settings");
        String text = stripTrailingSemicolon(sql);
        ModifyStatementText modify = ModifyStatementText.parse(text);
        if (modify != null) {
            return new ModifyPlanner(this, catalog, settings).plan(modify);
        }
        text = withInsertDefaults(text);
        Analysis analysis = analyze(text);
        RewrittenStatement statement = analysis.statement();
        SqlValidator validator = analysis.validator();
        SqlNode validated = analysis.validated();
        RelRoot root = analysis.root();
        RelNode logical = rewritten(analysis);
        List<DataType> parameterTypes = parameterTypes(validator, validated, statement);
        CostModel costModel = new CostModel(settings);
        PlanNode serial = translated(analysis, logical, costModel, settings);
        PlanNode plan = new ParallelPlanner(settings, costModel).plan(serial);
        if (logical instanceof TableModify) {
            return new PlannedQuery(plan, List.of(), parameterTypes, false, "INSERT");
        }
        return new PlannedQuery(plan, resultColumns(root.validatedRowType, validated, plan.outputTypes(), statement.sql()), parameterTypes, true, "SELECT");
    }

    /**
     * CREATE TABLE ... AS and SELECT ... INTO: plans {@code sql} (a query returning rows), calls
     * {@code target} once with the query's result columns (named and typed as a SELECT's) for the
     * table to fill, and plans the insert of the query's rows into that table as INSERT ... SELECT
     * is planned: under a Gather whose participants write their own pages when the query scans
     * enough for workers. 42P02 when the query has parameters (a utility statement takes none).
     */
    public PlannedQuery planInsertFromQuery(String sql, Settings settings, Function<List<ResultColumn>, Table> target) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(target, "target");
        Analysis analysis = analyze(stripTrailingSemicolon(sql));
        if (!analysis.validated().isA(SqlKind.QUERY)) {
            throw ParallaxException.of(SqlState.SYNTAX_ERROR, "syntax error at or near \"%s\"",
                    analysis.validated().getKind().lowerName);
        }
        if (!analysis.statement().parameterNumbers().isEmpty()) {
            throw ParallaxException.of(SqlState.UNDEFINED_PARAMETER, "there is no parameter $%d",
                    analysis.statement().parameterNumbers().getFirst());
        }
        RelNode logical = rewritten(analysis);
        CostModel costModel = new CostModel(settings);
        PlanNode serial = translated(analysis, logical, costModel, settings);
        Table table = target.apply(resultColumns(analysis.root().validatedRowType, analysis.validated(), serial.outputTypes(),
                analysis.statement().sql()));
        PlanNode plan = new ParallelPlanner(settings, costModel).plan(InsertTranslator.insertNode(table, serial, costModel));
        return new PlannedQuery(plan, List.of(), List.of(), false, "SELECT");
    }

    /**
     * Parses {@code sql} without looking anything up, as PostgreSQL's raw parser does before it
     * decides whether a failed transaction block refuses the statement: throws 42601 (with its
     * position) for a syntax error, nothing otherwise. UPDATE, DELETE and INSERT with ON CONFLICT or
     * RETURNING are checked at the level of their clauses; their expressions are parsed when planned.
     */
    public void checkSyntax(String sql) {
        Objects.requireNonNull(sql, "sql");
        String text = stripTrailingSemicolon(sql);
        if (ModifyStatementText.parse(text) != null) {
            return;
        }
        RewrittenStatement statement = PostgresDialectRewriter.rewrite(text);
        try {
            SqlParser.create(statement.sql(), PARSER_CONFIG).parseStmt();
        } catch (SqlParseException exception) {
            throw CalciteErrors.fromParse(exception, statement);
        }
    }

    /**
     * Checks {@code column}'s DEFAULT expression (as written) as PostgreSQL does when a table is
     * created or altered: 0A000 for a column reference or subquery, 42803 for an aggregate, 42804
     * when its type cannot be assigned to the column, the column type's input errors for a string
     * constant. Returns the default with the text PostgreSQL shows for it, or null for a NULL default.
     */
    public dev.parallax.engine.catalog.ColumnDefault planColumnDefault(String expressionText,
                                                                       dev.parallax.engine.catalog.ColumnDefinition column,
                                                                       Settings settings) {
        return ColumnDefaults.plan(this, expressionText, column, settings);
    }

    /**
     * Plans a CHECK constraint's condition over {@code columns} of table {@code tableName} with
     * PostgreSQL's errors (see {@link CheckConditions}); returns the boolean expression over the columns' positions.
     */
    public dev.parallax.engine.expr.Expr planCheckCondition(String tableName, List<dev.parallax.engine.catalog.ColumnDefinition> columns,
                                                            String expressionText, Settings settings) {
        return CheckConditions.plan(this, tableName, columns, expressionText, settings);
    }

    /**
     * Plans a plain INSERT that is part of a larger statement (INSERT ... ON CONFLICT / RETURNING): its
     * parameter types are merged into {@code parameterTypes} (by number) instead of being required
     * to cover every number, since other parts of the statement may type the rest.
     */
    PlannedQuery planInsertSource(String insertSql, Settings settings, List<DataType> parameterTypes) {
        Analysis analysis = analyze(withInsertDefaults(insertSql));
        collectParameterTypes(analysis, parameterTypes);
        RelNode logical = rewritten(analysis);
        PlanNode serial = translated(analysis, logical, new CostModel(settings), settings);
        return new PlannedQuery(serial, List.of(), List.of(), false, "INSERT");
    }

    /**
     * Plans {@code selectSql}, a query that is part of a larger statement (the rows an UPDATE or
     * DELETE changes, with the FROM / USING tables and subqueries it reads), serially: its parameter
     * types are merged into {@code parameterTypes}, as {@link #planInsertSource} does. Its analysis
     * goes to {@code analysisOut[0]} (for the result column names).
     */
    PlanNode planStatementPart(String selectSql, Settings settings, List<DataType> parameterTypes, Analysis[] analysisOut) {
        Analysis analysis = analyze(selectSql);
        analysisOut[0] = analysis;
        collectParameterTypes(analysis, parameterTypes);
        return translated(analysis, rewritten(analysis), new CostModel(settings), settings);
    }

    /** An INSERT with its target's column defaults put in ({@link InsertDefaults}); any other statement as it is. */
    private String withInsertDefaults(String sql) {
        String start = sql.stripLeading();
        boolean insert = start.regionMatches(true, 0, "insert", 0, 6);
        if (!insert && (start.startsWith("--") || start.startsWith("/*"))) {
            // A script's statement with the comments before it (pg_dump's "-- Data for Name: ..." over an INSERT).
            insert = ExpressionTokens.startsWithWord(start, "insert");
        }
        if (!insert) {
            return sql;
        }
        return InsertDefaults.rewrite(sql, this::insertTarget, source -> analyze(source).root().validatedRowType.getFieldCount());
    }

    private InsertDefaults.Target insertTarget(RelationName tableName) {
        dev.parallax.engine.catalog.Table table = tableName.findTable(catalog);
        if (table == null || table.isSystemView()) {
            return null;
        }
        List<dev.parallax.engine.catalog.ColumnDefinition> columns = table.columns();
        List<String> names = columns.stream().map(dev.parallax.engine.catalog.ColumnDefinition::name).toList();
        return new InsertDefaults.Target() {
            @Override
            public List<String> columnNames() {
                return names;
            }

            @Override
            public String defaultSql(int column) {
                return ColumnDefaults.assignmentSql(columns.get(column));
            }

            @Override
            public boolean isIdentity(int column) {
                dev.parallax.engine.catalog.ColumnDefault value = columns.get(column).defaultValue();
                return value != null && value.identity() != dev.parallax.engine.catalog.ColumnDefault.Identity.NONE;
            }

            @Override
            public boolean isGeneratedAlways(int column) {
                dev.parallax.engine.catalog.ColumnDefault value = columns.get(column).defaultValue();
                return value != null && value.identity() == dev.parallax.engine.catalog.ColumnDefault.Identity.ALWAYS;
            }
        };
    }

    /** The logical rewrites and column trimming over an analysed statement. */
    private static RelNode rewritten(Analysis analysis) {
        RelNode converted = SetReturningProjections.apply(analysis.root().project());
        RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(converted.getCluster(), analysis.catalogReader());
        if (VolatileProjectionFence.hasVolatileCall(analysis.validated())) {
            // Decorrelation and trimming rebuild projections: none may merge into or prune one computing a volatile value.
            relBuilder = relBuilder.transform(config -> config.withBloat(-1).withPruneInputOfAggregate(false));
        }
        RelNode logical = CommonFactors.pullUp(CatalogFunctionExpander.apply(
                RecursiveReferences.apply(SubqueryDecorrelation.apply(converted, relBuilder)),
                analysis.catalog()));
        HepPlanner hep = new HepPlanner(LOGICAL_REWRITES);
        hep.setExecutor(NoConstantReduction.INSTANCE);
        hep.setRoot(logical);
        logical = hep.findBestExp();
        logical = AggregateInputReduction.apply(orderJoins(OrRestrictions.derive(logical)));
        return new ProjectSetFieldTrimmer(analysis.validator(), relBuilder).trim(logical);
    }

    private static PlanNode translated(Analysis analysis, RelNode logical, CostModel costModel, Settings settings) {
        RelTranslator translator = new RelTranslator(new RexTranslator(analysis.rexBuilder(), analysis.statement().parameterNumbers(),
                settings), costModel);
        return translator.translate(logical);
    }

    /**
     * A statement parsed, validated and converted to its first logical tree (no rewrites, no
     * trimming); {@code setReturning} when its select lists call set-returning functions.
     */
    record Analysis(RewrittenStatement statement, SqlValidator validator, SqlNode validated, RelRoot root,
                    RexBuilder rexBuilder, CalciteCatalogReader catalogReader, Catalog catalog, boolean setReturning) {
    }

    /** Rewrites the dialect, parses, validates and converts {@code sql} (no trailing semicolon). */
    Analysis analyze(String sql) {
        RewrittenStatement statement = PostgresDialectRewriter.rewrite(sql);
        SqlNode parsed;
        try {
            parsed = SqlParser.create(statement.sql(), PARSER_CONFIG).parseStmt();
        } catch (SqlParseException exception) {
            throw CalciteErrors.fromParse(exception, statement);
        }
        SqlParserPos unequalRow = ValuesRowLengths.firstMismatch(parsed);
        if (unequalRow != null) {
            throw new ParallaxException(SqlState.SYNTAX_ERROR, "VALUES lists must all be the same length", null, null,
                    statement.originalPosition(unequalRow.getLineNum(), unequalRow.getColumnNum()), null);
        }
        parsed = ValuesColumnNames.name(parsed);
        boolean recursive = RECURSIVE_WORD.matcher(statement.sql()).find();
        if (recursive) {
            RecursionChecks.Violation recursion = RecursionChecks.firstViolation(parsed, ParallaxFunctions.OPERATOR_TABLE);
            if (recursion != null) {
                throw new ParallaxException(recursion.state(), recursion.message(), null, null,
                        statement.originalPosition(recursion.position().getLineNum(), recursion.position().getColumnNum()), null);
            }
        }
        JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl(ParallaxTypeSystem.INSTANCE);
        CalciteCatalogReader catalogReader = new CalciteCatalogReader(schema().root, List.of(), typeFactory, CONNECTION_CONFIG);
        SqlValidator validator = new ParallaxValidator(ParallaxFunctions.OPERATOR_TABLE, catalogReader, typeFactory,
                VALIDATOR_CONFIG);
        SqlNode validated;
        boolean setReturning;
        try {
            DistinctOnClauses.rewrite(parsed, statement);
            setReturning = SetReturningCalls.resolve(parsed);
            validated = validator.validate(parsed);
        } catch (SetReturningCalls.Misplaced misplaced) {
            throw CalciteErrors.fromMisplaced(misplaced, statement);
        } catch (CalciteContextException exception) {
            throw CalciteErrors.fromValidation(exception, statement);
        } catch (IndexOutOfBoundsException exception) {
            // Calcite's lenient INSERT without a column list takes as many table columns as the source
            // has, and fails this way when the source has more (SqlValidatorImpl.getLogicalTargetRowType).
            if (parsed instanceof SqlInsert insert && insert.getTargetColumnList() == null) {
                throw new ParallaxException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns", null, null, 0,
                        exception);
            }
            throw exception;
        }
        if (recursive) {
            RecursiveColumnTypes.check(validated, validator, () -> {
                try {
                    SqlNode again = SqlParser.create(statement.sql(), PARSER_CONFIG).parseStmt();
                    SetReturningCalls.resolve(again);
                    return again;
                } catch (SqlParseException exception) {
                    throw CalciteErrors.fromParse(exception, statement);
                }
            }, () -> new ParallaxValidator(ParallaxFunctions.OPERATOR_TABLE, catalogReader, typeFactory, VALIDATOR_CONFIG));
        }
        VolcanoPlanner volcano = new VolcanoPlanner();
        volcano.setExecutor(NoConstantReduction.INSTANCE);
        volcano.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RexBuilder rexBuilder = new dev.parallax.planner.query.convert.TimestampPrecisionRexBuilder(typeFactory);
        RelOptCluster cluster = RelOptCluster.create(volcano, rexBuilder);
        cluster.setMetadataProvider(METADATA);
        CalciteCatalogReader viewCatalogReader = databasePlanner == null ? catalogReader
                : new CalciteCatalogReader(databasePlanner.schema().root, List.of(), typeFactory, CONNECTION_CONFIG);
        SqlToRelConverter converter = new SqlToRelConverter(new ViewExpander(viewCatalogReader, typeFactory, cluster), validator,
                catalogReader, cluster, ParallaxConvertletTable.INSTANCE,
                converterConfig(statement, setReturning, VolatileProjectionFence.hasVolatileCall(validated)));
        RelRoot root;
        try {
            root = converter.convertQuery(validated, false, true);
        } catch (AssertionError typeDrift) {
            // Calcite types a recursive query by widening the union's types run after run; a numeric
            // column that arithmetic widens each time (n + 1 on numeric(p,s) is numeric(p+1,s)) never
            // settles, and its check of the converted types fails.
            if (typeDrift.getMessage() == null || !typeDrift.getMessage().startsWith("Conversion to relational algebra failed to preserve datatypes")
                    || !validated.toString().contains("RECURSIVE")) {
                throw typeDrift;
            }
            throw new ParallaxException(SqlState.FEATURE_NOT_SUPPORTED,
                    "a recursive query whose recursive term widens a column's type in each run is not supported", null,
                    "Cast the recursive term's columns to the non-recursive term's types.", 0, null);
        }
        return new Analysis(statement, validator, validated, root, rexBuilder, catalogReader, catalog, setReturning);
    }

    /**
     * Calcite drops the ORDER BY of a subquery in FROM; an {@code ARRAY(query)} (rewritten to
     * array_agg over the query, see PostgresDialectRewriter) needs it, since it orders the elements.
     * With set-returning calls the RelBuilder must keep every projection as written until
     * SetReturningProjections has split it: it drops a DISTINCT or GROUP BY over input it takes for
     * unique, such as a projection of one row, which a set-returning call in that projection makes
     * many ({@code SELECT DISTINCT generate_series(1, 3) % 2}); it drops a projection's column no
     * aggregate above reads, and merges a projection into the one below; either can lose a call,
     * whose rows count even where its values are not read.
     */
    private static SqlToRelConverter.Config converterConfig(RewrittenStatement statement, boolean setReturning,
                                                            boolean volatileCalls) {
        SqlToRelConverter.Config config = statement.sql().contains(PostgresDialectRewriter.ARRAY_SUBQUERY_ALIAS)
                ? CONVERTER_CONFIG.withRemoveSortInSubQuery(false) : CONVERTER_CONFIG;
        if (setReturning) {
            return config.addRelBuilderConfigTransform(builder -> builder.withAggregateUnique(true)
                    .withPruneInputOfAggregate(false).withBloat(-1).withRemoveRedundantDistinct(false));
        }
        // A select list or aggregate over one computing a volatile value keeps it whole (VolatileProjectionFence).
        return volatileCalls ? config.addRelBuilderConfigTransform(builder -> builder.withBloat(-1).withPruneInputOfAggregate(false))
                : config;
    }

    /**
     * The engine type of each parameter number the analysed statement uses ({@code types[n - 1]},
     * null where it does not use {@code $n}); merged across the parts of a statement planned in pieces.
     */
    static void collectParameterTypes(Analysis analysis, List<DataType> types) {
        RelDataType rowType = analysis.validator().getParameterRowType(analysis.validated());
        List<RelDataTypeField> fields = rowType.getFieldList();
        for (int index = 0; index < fields.size(); index++) {
            int number = analysis.statement().parameterNumbers().get(index);
            while (types.size() < number) {
                types.add(null);
            }
            if (types.get(number - 1) == null) {
                types.set(number - 1, TypeMapping.toEngine(fields.get(index).getType()));
            }
        }
    }

    /** Runs the {@link #JOIN_ORDER} phase when the plan has a join (most statements have none). */
    private static RelNode orderJoins(RelNode logical) {
        if (!containsJoin(logical)) {
            return logical;
        }
        HepPlanner hep = new HepPlanner(JOIN_ORDER);
        hep.setExecutor(NoConstantReduction.INSTANCE);
        hep.setRoot(logical);
        return hep.findBestExp();
    }

    private static boolean containsJoin(RelNode node) {
        if (node instanceof org.apache.calcite.rel.core.Join) {
            return true;
        }
        for (RelNode input : node.getInputs()) {
            if (containsJoin(input)) {
                return true;
            }
        }
        return false;
    }

    private SchemaSnapshot schema() {
        if (databasePlanner != null && !((SessionCatalog) catalog).hasTemporaryTables()) {
            return databasePlanner.schema();
        }
        SchemaSnapshot current = schema;
        long version = catalog.version();
        if (current == null || current.version != version) {
            CalciteSchema root = CalciteSchema.createRootSchema(false, false);
            new CatalogSchema(catalog, InformationSchemaViews.VIEWS, this::viewRowType).addTo(root);
            current = new SchemaSnapshot(version, root);
            schema = current;
        }
        return current;
    }

    private record SchemaSnapshot(long version, CalciteSchema root) {
    }

    /** A view's query parsed and validated against the current catalog (its text was valid when the view was created). */
    private SqlNode validateViewQuery(String query, SqlValidator validator) {
        RewrittenStatement statement = PostgresDialectRewriter.rewrite(query);
        try {
            SqlNode parsed = ValuesColumnNames.name(SqlParser.create(statement.sql(), PARSER_CONFIG).parseQuery());
            DistinctOnClauses.rewrite(parsed, statement);
            SetReturningCalls.resolve(parsed);
            return validator.validate(parsed);
        } catch (SqlParseException exception) {
            throw CalciteErrors.fromParse(exception, statement);
        } catch (SetReturningCalls.Misplaced misplaced) {
            throw CalciteErrors.fromMisplaced(misplaced, statement);
        } catch (CalciteContextException exception) {
            throw CalciteErrors.fromValidation(exception, statement);
        }
    }

    private RelDataType viewRowType(String query, RelDataTypeFactory typeFactory) {
        JavaTypeFactoryImpl javaTypeFactory = typeFactory instanceof JavaTypeFactoryImpl own ? own
                : new JavaTypeFactoryImpl(ParallaxTypeSystem.INSTANCE);
        SchemaSnapshot viewSchema = databasePlanner == null ? schema() : databasePlanner.schema();
        CalciteCatalogReader catalogReader = new CalciteCatalogReader(viewSchema.root, List.of(), javaTypeFactory, CONNECTION_CONFIG);
        SqlValidator validator = new ParallaxValidator(ParallaxFunctions.OPERATOR_TABLE, catalogReader, javaTypeFactory,
                VALIDATOR_CONFIG);
        return validator.getValidatedNodeType(validateViewQuery(query, validator));
    }

    /** Expands a view's query in place, in the cluster of the query that references it. */
    private final class ViewExpander implements RelOptTable.ViewExpander {
        private final CalciteCatalogReader catalogReader;
        private final JavaTypeFactoryImpl typeFactory;
        private final RelOptCluster cluster;

        ViewExpander(CalciteCatalogReader catalogReader, JavaTypeFactoryImpl typeFactory, RelOptCluster cluster) {
            this.catalogReader = catalogReader;
            this.typeFactory = typeFactory;
            this.cluster = cluster;
        }

        @Override
        public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath, List<String> viewPath) {
            SqlValidator validator = new ParallaxValidator(ParallaxFunctions.OPERATOR_TABLE, catalogReader, typeFactory,
                    VALIDATOR_CONFIG);
            SqlNode validated = validateViewQuery(queryString, validator);
            SqlToRelConverter converter = new SqlToRelConverter(this, validator, catalogReader, cluster,
                    ParallaxConvertletTable.INSTANCE, CONVERTER_CONFIG);
            return converter.convertQuery(validated, false, true);
        }
    }

    private static List<DataType> parameterTypes(SqlValidator validator, SqlNode validated, RewrittenStatement statement) {
        RelDataType rowType = validator.getParameterRowType(validated);
        int count = 0;
        for (int number : statement.parameterNumbers()) {
            count = Math.max(count, number);
        }
        DataType[] types = new DataType[count];
        List<RelDataTypeField> fields = rowType.getFieldList();
        for (int index = 0; index < fields.size(); index++) {
            int number = statement.parameterNumbers().get(index);
            if (types[number - 1] == null) {
                types[number - 1] = TypeMapping.toEngine(fields.get(index).getType());
            }
        }
        List<DataType> result = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            if (types[index] == null) {
                throw ParallaxException.of(SqlState.SYNTAX_ERROR_OR_ACCESS_RULE_VIOLATION,
                        "could not determine data type of parameter $%d", index + 1);
            }
            result.add(types[index]);
        }
        return result;
    }

    /**
     * Column labels as PostgreSQL gives them: alias, column name, function name, else ?column?.
     * Types are Calcite's unless translation typed the expression as PostgreSQL does where Calcite
     * differs (date ± interval is a timestamp; a constant quotient has its own scale).
     */
    static List<ResultColumn> resultColumns(RelDataType rowType, SqlNode validated, List<DataType> outputTypes, String sql) {
        SqlSelect select = leftmostQuery(validated) instanceof SqlSelect leftmost ? leftmost : null;
        List<SqlNode> items = select != null ? select.getSelectList().getList() : null;
        List<ResultColumn> columns = new ArrayList<>();
        List<RelDataTypeField> fields = rowType.getFieldList();
        for (int index = 0; index < fields.size(); index++) {
            String name = fields.get(index).getName();
            if (items != null && index < items.size()) {
                name = label(renamedDerivedColumn(select, items.get(index)), name, sql);
            } else if (name.startsWith("EXPR$")) {
                name = "column" + (index + 1);
            }
            columns.add(new ResultColumn(name, columnType(TypeMapping.toEngine(fields.get(index).getType()), outputTypes.get(index))));
        }
        return columns;
    }

    /**
     * For {@code t.k0}, a column of derived table t that the validator renamed (the second k of a
     * join's {@code *}, or of a join alias, became k0 by an alias of no position): the derived
     * table's select item, which is labelled k as PostgreSQL names the column; {@code item} itself
     * otherwise. Derived tables over derived tables are followed down.
     */
    private static SqlNode renamedDerivedColumn(SqlSelect select, SqlNode item) {
        if (!(item instanceof SqlIdentifier column) || column.names.size() != 2 || select.getFrom() == null) {
            return item;
        }
        SqlSelect derived = derivedTable(select.getFrom(), column.names.getFirst());
        if (derived == null) {
            return item;
        }
        for (SqlNode derivedItem : derived.getSelectList()) {
            if (!column.names.getLast().equals(org.apache.calcite.sql.validate.SqlValidatorUtil.alias(derivedItem))) {
                continue;
            }
            if (derivedItem.getKind() == SqlKind.AS && ((SqlCall) derivedItem).operand(1).getParserPosition().equals(SqlParserPos.ZERO)
                    && ((SqlCall) derivedItem).operand(0) instanceof SqlIdentifier renamed) {
                SqlNode deeper = renamedDerivedColumn(derived, renamed);
                return deeper == renamed ? derivedItem : deeper;
            }
            SqlNode deeper = renamedDerivedColumn(derived, derivedItem);
            return deeper == derivedItem ? item : deeper;
        }
        return item;
    }

    /** The SELECT of the derived table named {@code alias} among FROM item {@code from}'s, or null. */
    private static SqlSelect derivedTable(SqlNode from, String alias) {
        if (from instanceof org.apache.calcite.sql.SqlJoin join) {
            SqlSelect left = derivedTable(join.getLeft(), alias);
            return left != null ? left : derivedTable(join.getRight(), alias);
        }
        if (from.getKind() == SqlKind.AS && from instanceof SqlCall as && as.operand(0) instanceof SqlSelect derived
                && as.operand(1) instanceof SqlIdentifier name && name.isSimple() && name.getSimple().equals(alias)) {
            return derived;
        }
        return null;
    }

    /** The query that names a set operation's columns, as in PostgreSQL: its leftmost SELECT (a WITH's: its body's). */
    private static SqlNode leftmostQuery(SqlNode node) {
        SqlNode query = node;
        while (query instanceof SqlCall call && (query.getKind() == SqlKind.UNION || query.getKind() == SqlKind.INTERSECT
                || query.getKind() == SqlKind.EXCEPT || query.getKind() == SqlKind.ORDER_BY || query instanceof SqlWith)) {
            query = query instanceof SqlWith with ? with.body : call.operand(0);
        }
        return query;
    }

    /** The plan's type where translation retyped the column (another kind, or a decimal's scale); else Calcite's. */
    private static DataType columnType(DataType validated, DataType planned) {
        boolean retyped = validated.kind() != planned.kind()
                || validated.kind() == dev.parallax.engine.type.TypeKind.DECIMAL && validated.scale() != planned.scale();
        return retyped ? planned : validated;
    }

    private static String label(SqlNode item, String fallback, String sql) {
        if (item.getKind() == SqlKind.SCALAR_QUERY || item.isA(SqlKind.QUERY)) {
            // A scalar subquery is named after its one column, as PostgreSQL names it: (select count(*) ...) is count.
            SqlNode query = item.getKind() == SqlKind.SCALAR_QUERY ? ((SqlCall) item).operand(0) : item;
            List<SqlNode> inner = leftmostQuery(query) instanceof SqlSelect select ? select.getSelectList().getList() : List.of();
            return inner.size() == 1 ? label(inner.getFirst(), "?column?", sql) : "?column?";
        }
        if (item.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) item;
            // The validator renames a second column of one name (a.k, b.k from a.*, b.*) to k0 with an
            // alias it makes (of no position, or of the column's own); PostgreSQL keeps both named k.
            SqlParserPos aliasPosition = as.operand(1).getParserPosition();
            if (as.operand(0) instanceof SqlIdentifier column
                    && (aliasPosition.equals(SqlParserPos.ZERO) || aliasPosition.equals(column.getParserPosition()))) {
                return column.names.getLast();
            }
            return as.operand(1).toString();
        }
        if (item instanceof SqlIdentifier identifier) {
            return identifier.names.getLast();
        }
        // PostgreSQL names a typed literal (timestamp '...', date '...', interval '...') after its type, as a cast.
        if (item instanceof org.apache.calcite.sql.SqlTimestampLiteral) {
            return "timestamp";
        }
        if (item instanceof org.apache.calcite.sql.SqlDateLiteral) {
            return "date";
        }
        if (item instanceof org.apache.calcite.sql.SqlIntervalLiteral) {
            return "interval";
        }
        if (item instanceof org.apache.calcite.sql.fun.SqlCase) {
            // The validator rewrites COALESCE and NULLIF into CASE; PostgreSQL names them after the function written.
            SqlParserPos position = item.getParserPosition();
            String word = position.getLineNum() > 0
                    ? CalciteErrors.wordAt(sql, position.getLineNum(), position.getColumnNum()).toLowerCase(Locale.ROOT) : "case";
            return word.equals("coalesce") || word.equals("nullif") ? word : "case";
        }
        if (item instanceof SqlBasicCall call) {
            if (call.getKind() == SqlKind.CAST && call.getParserPosition().equals(SqlParserPos.ZERO)) {
                // Type coercion's casts (a UNION branch cast to the common type) have no position and give no name.
                return label(call.operand(0), fallback, sql);
            }
            if (call.getOperator() == dev.parallax.planner.query.function.ParallaxFunctions.STRING_AGGREGATE) {
                return "string_agg";
            }
            if (call.getOperator() == dev.parallax.planner.query.function.ExtractFunctions.EXTRACT) {
                return "extract";
            }
            if (dev.parallax.planner.query.function.OrderedSetAggregates.columnName(call.getOperator()) != null) {
                return dev.parallax.planner.query.function.OrderedSetAggregates.columnName(call.getOperator());
            }
            if (call.getOperator() == dev.parallax.planner.query.function.StringFunctions.TRANSLATE) {
                return "translate";
            }
            if (call.getKind() == SqlKind.TRIM && call.operand(0) instanceof org.apache.calcite.sql.SqlLiteral flag
                    && flag.getValue() instanceof org.apache.calcite.sql.fun.SqlTrimFunction.Flag side) {
                // PostgreSQL's grammar turns TRIM into the function of its side.
                return switch (side) {
                    case BOTH -> "btrim";
                    case LEADING -> "ltrim";
                    case TRAILING -> "rtrim";
                };
            }
            return switch (call.getKind()) {
                case CAST -> label(call.operand(0), "?column?", sql).equals("?column?")
                        ? castLabel(call.operand(1)) : label(call.operand(0), "?column?", sql);
                // Operators the dialect rewrite turned into pg_* calls are unnamed in PostgreSQL.
                case OTHER_FUNCTION, SUM, COUNT, AVG, STDDEV_SAMP, STDDEV_POP, VAR_SAMP, VAR_POP, BIT_AND, BIT_OR, BIT_XOR, MIN, MAX, FLOOR, CEIL, TRIM, EXTRACT, COALESCE, POSITION ->
                        call.getOperator().getName().startsWith("pg_") && !CatalogFunctions.POSTGRES_NAMED.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))
                                ? "?column?" : call.getOperator().getName().toLowerCase(Locale.ROOT);
                case CASE -> "case";
                case ARRAY_AGG -> "array_agg";
                case EXISTS -> "exists";
                case ARRAY_VALUE_CONSTRUCTOR -> "array";
                case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE ->
                        call.getOperator().getName().toLowerCase(Locale.ROOT);
                // A window function is named after its function.
                case OVER -> label(call.operand(0), fallback, sql);
                // agg(x ORDER BY y) and agg(x) FILTER (WHERE ...) are named after the aggregate.
                case WITHIN_GROUP, FILTER -> label(call.operand(0), fallback, sql);
                // Any other call written as a function (mod(7, 3), abs(x)) is named after it; operators (7 % 3) are not.
                default -> call.getOperator() instanceof org.apache.calcite.sql.SqlFunction
                        && call.getOperator().getSyntax() == org.apache.calcite.sql.SqlSyntax.FUNCTION
                        && !call.getOperator().getName().startsWith("pg_")
                        ? call.getOperator().getName().toLowerCase(Locale.ROOT) : "?column?";
            };
        }
        return fallback.startsWith("EXPR$") ? "?column?" : fallback;
    }

    /**
     * PostgreSQL names an unnamed cast after its type's catalog name (pg_type.typname): int4, int8,
     * numeric, bpchar, float8, bool...; an array cast after its element type. text and an unbounded
     * varchar reach Calcite alike (VARCHAR): named text, the usual spelling.
     */
    private static String castLabel(SqlNode type) {
        if (!(type instanceof org.apache.calcite.sql.SqlDataTypeSpec spec)) {
            // INTERVAL DAY TO SECOND and INTERVAL MONTH are both PostgreSQL's interval.
            return type instanceof org.apache.calcite.sql.SqlIntervalQualifier ? "interval"
                    : type.toString().toLowerCase(Locale.ROOT).replaceAll("\\(.*", "");
        }
        org.apache.calcite.sql.SqlTypeNameSpec name = spec.getTypeNameSpec();
        while (name instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec collection) {
            name = collection.getElementTypeName();
        }
        boolean bounded = name instanceof org.apache.calcite.sql.SqlBasicTypeNameSpec basic && basic.getPrecision() >= 0;
        String calciteName = name.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        return switch (calciteName) {
            case "INTEGER" -> "int4";
            case "BIGINT" -> "int8";
            case "SMALLINT", "TINYINT" -> "int2";
            case "DOUBLE", "FLOAT" -> "float8";
            case "REAL" -> "float4";
            case "BOOLEAN" -> "bool";
            case "DECIMAL" -> "numeric";
            case "CHAR" -> "bpchar";
            case "VARCHAR" -> bounded ? "varchar" : "text";
            case "BINARY" -> "bit";
            case "VARBINARY" -> "varbit";
            case "TIMESTAMP_WITH_LOCAL_TIME_ZONE" -> "timestamptz";
            default -> calciteName.toLowerCase(Locale.ROOT);
        };
    }

    private static String stripTrailingSemicolon(String sql) {
        String trimmed = sql.strip();
        while (trimmed.endsWith(";")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1).strip();
        }
        return trimmed;
    }
}
