package dev.parallax.planner.statement;

import dev.parallax.engine.load.CopyFormat;
import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.catalog.ReferentialAction;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.DataType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.parallax.planner.statement.RelationName.unqualified;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StatementParserTest {
    private static ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> StatementParser.parse(sql));
    }

    private static DataType columnType(String typeName) {
        CreateTableStatement create = (CreateTableStatement) StatementParser.parse("create table t (c " + typeName + ")");
        return create.columns().getFirst().type();
    }

    @Test
    void createTableWithEveryTypeSpelling() {
        assertEquals(DataType.INTEGER, columnType("integer"));
        assertEquals(DataType.INTEGER, columnType("INT"));
        assertEquals(DataType.INTEGER, columnType("int4"));
        assertEquals(DataType.BIGINT, columnType("int8"));
        assertEquals(DataType.SMALLINT, columnType("int2"));
        assertEquals(DataType.BOOLEAN, columnType("bool"));
        assertEquals(DataType.decimal(15, 2), columnType("numeric(15, 2)"));
        assertEquals(DataType.decimal(10, 0), columnType("decimal(10)"));
        assertEquals(DataType.REAL, columnType("float4"));
        assertEquals(DataType.REAL, columnType("float(24)"));
        assertEquals(DataType.DOUBLE, columnType("double precision"));
        assertEquals(DataType.DOUBLE, columnType("float"));
        assertEquals(DataType.DOUBLE, columnType("float8"));
        assertEquals(DataType.DATE, columnType("date"));
        assertEquals(DataType.TIMESTAMP, columnType("timestamp without time zone"));
        // A declared precision is kept (PostgreSQL's \d shows timestamp(6) without time zone), 7 and above as 6.
        assertEquals(DataType.timestamp(6, false), columnType("timestamp(6)"));
        assertEquals(DataType.timestamp(6, false), columnType("timestamp(9)"));
        assertEquals(DataType.timestamp(0, true), columnType("timestamp(0) with time zone"));
        assertEquals(DataType.timestamp(3, true), columnType("timestamptz(3)"));
        assertEquals(DataType.TIMESTAMPTZ, columnType("timestamptz"));
        assertEquals(DataType.charType(25), columnType("character(25)"));
        assertEquals(DataType.charType(1), columnType("char"));
        assertEquals(DataType.varchar(44), columnType("character varying(44)"));
        assertEquals(DataType.varchar(DataType.UNBOUNDED), columnType("varchar"));
        assertEquals(DataType.TEXT, columnType("text"));
        assertEquals(DataType.bit(200), columnType("bit(200)"));
        assertEquals(DataType.varbit(8), columnType("bit varying(8)"));
        assertEquals(DataType.varbit(DataType.UNBOUNDED), columnType("varbit"));
    }

    @Test
    void createTableColumnsNamesAndNullability() {
        CreateTableStatement create = (CreateTableStatement) StatementParser.parse(
                "CREATE TABLE IF NOT EXISTS public.\"Orders\" (o_id bigint NOT NULL, \"Note\" text NULL, o_date date);");
        assertEquals("Orders", create.tableName());
        assertEquals(true, create.ifNotExists());
        assertEquals(List.of(new ColumnDefinition("o_id", DataType.BIGINT, true), new ColumnDefinition("Note", DataType.TEXT, false),
                new ColumnDefinition("o_date", DataType.DATE, false)), create.columns());
    }

    @Test
    void createTableErrorsHavePostgresCodesAndPositions() {
        ParallaxException unknownType = failure("create table t (a foo)");
        assertEquals(SqlState.UNDEFINED_OBJECT, unknownType.state());
        assertEquals("type \"foo\" does not exist", unknownType.getMessage());
        assertEquals(19, unknownType.position());

        ParallaxException duplicate = failure("create table t (a int, b int, a text)");
        assertEquals(SqlState.DUPLICATE_COLUMN, duplicate.state());
        assertEquals("column \"a\" specified more than once", duplicate.getMessage());

        ParallaxException syntax = failure("create table t (a int,, b int)");
        assertEquals(SqlState.SYNTAX_ERROR, syntax.state());
        assertEquals("syntax error at or near \",\"", syntax.getMessage());
        assertEquals(23, syntax.position());

        ParallaxException endOfInput = failure("create table t (a int");
        assertEquals("syntax error at end of input", endOfInput.getMessage());
        assertEquals(22, endOfInput.position());

        ParallaxException noPrecision = failure("create table t (a numeric)");
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, noPrecision.state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create table t (a numeric(30, 2))").state());
        assertEquals(SqlState.INVALID_PARAMETER_VALUE, failure("create table t (a numeric(5, 6))").state());
        assertEquals("length for type varchar must be at least 1", failure("create table t (a varchar(0))").getMessage());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create table t (a int not null null)").state());
    }

    @Test
    void dropTableWithSeveralNames() {
        assertEquals(new DropTableStatement(List.of(unqualified("a"), unqualified("b")), true, true),
                StatementParser.parse("drop table if exists a, B cascade"));
        assertEquals(new DropTableStatement(List.of(unqualified("a")), false), StatementParser.parse("DROP TABLE a;"));
    }

    @Test
    void truncateWithItsOptions() {
        assertEquals(new TruncateStatement(List.of(new TruncateStatement.Target(unqualified("t"), false)), false), StatementParser.parse("truncate t"));
        assertEquals(new TruncateStatement(List.of(new TruncateStatement.Target(unqualified("a"), true),
                        new TruncateStatement.Target(new RelationName(RelationName.Schema.PUBLIC, "b"), false), new TruncateStatement.Target(unqualified("c"), true)), true, true),
                StatementParser.parse("TRUNCATE TABLE ONLY a, public.B *, only (c) RESTART IDENTITY CASCADE;"));
        assertEquals(new TruncateStatement(List.of(new TruncateStatement.Target(unqualified("t"), false)), false),
                StatementParser.parse("truncate t continue identity restrict"));
        assertEquals("syntax error at or near \"*\"", failure("truncate only t *").getMessage());
        assertEquals("syntax error at end of input", failure("truncate t restart").getMessage());
    }

    @Test
    void setShowAndReset() {
        assertEquals(new SetStatement("work_mem", "64MB", false), StatementParser.parse("set work_mem = 64MB"));
        assertEquals(new SetStatement("work_mem", "64MB", false), StatementParser.parse("SET SESSION work_mem TO '64MB'"));
        assertEquals(new SetStatement("max_parallel_workers_per_gather", "0", true),
                StatementParser.parse("set local max_parallel_workers_per_gather = 0"));
        assertEquals(new SetStatement("parallel_setup_cost", "-1.5", false), StatementParser.parse("set parallel_setup_cost = -1.5"));
        assertEquals(new SetStatement("search_path", "a, public", false), StatementParser.parse("set search_path = a, public"));
        assertEquals(new SetStatement("work_mem", null, false), StatementParser.parse("set work_mem to default"));
        assertEquals(new SetStatement("TimeZone", "UTC", false), StatementParser.parse("set time zone 'UTC'"));
        assertEquals(new ShowStatement("work_mem", false), StatementParser.parse("show WORK_MEM"));
        assertEquals(new ShowStatement(null, true), StatementParser.parse("show all"));
        assertEquals(new ResetStatement("work_mem", false), StatementParser.parse("reset work_mem"));
        assertEquals(new ResetStatement(null, true), StatementParser.parse("reset all"));
        assertEquals("syntax error at or near \"1\"", failure("set work_mem 1").getMessage());
    }

    @Test
    void alterTableOptions() {
        assertEquals(new AlterTableOptionsStatement(unqualified("lineitem"), Map.of("parallel_workers", "4"), List.of()),
                StatementParser.parse("alter table lineitem set (parallel_workers = 4)"));
        assertEquals(new AlterTableOptionsStatement(unqualified("lineitem"), Map.of(), List.of("parallel_workers")),
                StatementParser.parse("ALTER TABLE ONLY lineitem RESET (parallel_workers)"));
        assertEquals(new AlterTableStatement(unqualified("t"), false, true, List.of(new AlterTableAction.AddKey(
                        new TableConstraint("c", false, List.of("x")), 24))),
                StatementParser.parse("alter table only t add constraint c unique (x)"));
        assertEquals(new AlterTableStatement(unqualified("t"), false, false, List.of(new AlterTableAction.AddForeignKey(new ForeignKeyClause("c",
                        List.of("x"), unqualified("u"), List.of(), ReferentialAction.NO_ACTION, ReferentialAction.CASCADE, false, 19)))),
                StatementParser.parse("alter table t add constraint c foreign key (x) references u on update cascade"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("alter table t add constraint c foreign key (x) references u match partial").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("alter table t alter column x type bigint").state());
    }

    @Test
    void alterTableColumnActions() {
        assertEquals(new AlterTableStatement(unqualified("t"), true, false, List.of(
                        new AlterTableAction.AddColumn(new ColumnDefinition("x", DataType.INTEGER, true), "1", null, List.of(), false),
                        new AlterTableAction.DropColumn("y", true, true),
                        new AlterTableAction.SetNotNull("z", true),
                        new AlterTableAction.SetNotNull("z", false),
                        new AlterTableAction.SetDefault("z", "2 + 3"),
                        new AlterTableAction.SetDefault("z", null))),
                StatementParser.parse("alter table if exists t add column x int default 1 not null, drop column if exists y cascade, "
                        + "alter column z set not null, alter z drop not null, alter column z set default 2 + 3, alter z drop default"));
        assertEquals(new AlterTableStatement(unqualified("t"), false, true, List.of(
                        new AlterTableAction.AddColumn(new ColumnDefinition("k", DataType.BIGINT, true), null, null,
                                List.of(new TableConstraint(null, true, List.of("k"))), true))),
                StatementParser.parse("ALTER TABLE ONLY t ADD IF NOT EXISTS k bigint PRIMARY KEY"));
    }

    @Test
    void callWithNamedAndPositionalArguments() {
        CallStatement arrow = (CallStatement) StatementParser.parse("call dbgen(sf => 0.01)");
        assertEquals(List.of(new CallStatement.CallArgument("sf", "0.01", false)), arrow.arguments());
        CallStatement colon = (CallStatement) StatementParser.parse("CALL dbgen(sf := 1)");
        assertEquals(List.of(new CallStatement.CallArgument("sf", "1", false)), colon.arguments());
        CallStatement positional = (CallStatement) StatementParser.parse("call dbgen(10)");
        assertEquals(List.of(new CallStatement.CallArgument(null, "10", false)), positional.arguments());
        assertEquals("dbgen", positional.procedure());
    }

    @Test
    void copyOptionsInBothSyntaxes() {
        CopyStatement modern = (CopyStatement) StatementParser.parse(
                "copy lineitem (a, b) from '/tmp/x.tbl' with (format csv, delimiter '|', header, null 'NULL')");
        assertEquals(unqualified("lineitem"), modern.tableName());
        assertEquals(List.of("a", "b"), modern.columns());
        assertEquals("/tmp/x.tbl", modern.fileName());
        assertEquals(new CopyFormat(CopyFormat.Kind.CSV, '|', true, "NULL", '"', '"'), modern.options());

        CopyStatement text = (CopyStatement) StatementParser.parse("copy t from 'f'");
        assertEquals(CopyFormat.text(), text.options());

        CopyStatement legacy = (CopyStatement) StatementParser.parse("copy t from 'f' with delimiter as '|' csv header");
        assertEquals(new CopyFormat(CopyFormat.Kind.CSV, '|', true, "", '"', '"'), legacy.options());

        assertEquals("option \"foo\" not recognized", failure("copy t from 'f' (foo 1)").getMessage());
        assertEquals("conflicting or redundant options", failure("copy t from 'f' (header, header false)").getMessage());
        assertEquals("COPY delimiter must be a single one-byte character", failure("copy t from 'f' (delimiter '||')").getMessage());
        assertEquals("COPY quote available only in CSV mode", failure("copy t from 'f' (quote '\"')").getMessage());
    }

    @Test
    void explainOptionsAndQueryOffset() {
        ExplainStatement plain = (ExplainStatement) StatementParser.parse("explain select 1");
        assertEquals(ExplainOptions.DEFAULT, plain.options());
        assertEquals("select 1", plain.query());
        assertEquals(8, plain.queryOffset());

        ExplainStatement analyze = (ExplainStatement) StatementParser.parse("EXPLAIN ANALYZE VERBOSE select 1");
        assertEquals(new ExplainOptions(true, true, true, true, true), analyze.options());

        ExplainStatement parenthesized = (ExplainStatement) StatementParser.parse("explain (analyze, costs off, timing false) select 1");
        assertEquals(new ExplainOptions(true, false, false, false, true), parenthesized.options());
        assertEquals("select 1", parenthesized.query());
        // SUMMARY is on under ANALYZE unless turned off, as in PostgreSQL.
        assertEquals(new ExplainOptions(true, false, true, true, false),
                ((ExplainStatement) StatementParser.parse("explain (analyze, summary off) select 1")).options());

        assertEquals("unrecognized EXPLAIN option \"foo\"", failure("explain (foo) select 1").getMessage());
        assertEquals("EXPLAIN option TIMING requires ANALYZE", failure("explain (timing) select 1").getMessage());
    }

    @Test
    void classification() {
        assertInstanceOf(EmptyStatement.class, StatementParser.parse("  -- nothing\n"));
        assertInstanceOf(EmptyStatement.class, StatementParser.parse(";"));
        assertEquals(new QueryStatement("select 1"), StatementParser.parse("select 1"));
        assertEquals(new QueryStatement("insert into t values (1)"), StatementParser.parse("insert into t values (1)"));
        assertEquals(new QueryStatement("(select 1)"), StatementParser.parse("(select 1)"));
        assertEquals(new TransactionStatement(TransactionStatement.Kind.BEGIN), StatementParser.parse("begin"));
        assertEquals(new TransactionStatement(TransactionStatement.Kind.START), StatementParser.parse("start transaction"));
        assertEquals(new TransactionStatement(TransactionStatement.Kind.COMMIT), StatementParser.parse("end"));
        assertEquals(new TransactionStatement(TransactionStatement.Kind.ROLLBACK), StatementParser.parse("rollback work"));
    }
}
