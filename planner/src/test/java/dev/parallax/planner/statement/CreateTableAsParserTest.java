package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** CREATE TABLE ... AS and SELECT ... INTO as StatementParser reads them, with PostgreSQL 15's errors and positions. */
class CreateTableAsParserTest {
    private static ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> StatementParser.parse(sql));
    }

    @Test
    void createTableAsWithItsOptionalParts() {
        assertEquals(new CreateTableAsStatement("b", false, List.of(), Map.of(), "select * from a", 18, true),
                StatementParser.parse("create table b as select * from a;"));
        String full = "CREATE TABLE IF NOT EXISTS public.b (x, \"Y\") AS select 1, 2 WITH NO DATA";
        assertEquals(new CreateTableAsStatement("b", true, List.of("x", "Y"), Map.of(), "select 1, 2", full.indexOf("select"), false),
                StatementParser.parse(full));
        assertEquals(new CreateTableAsStatement("b", false, List.of(), Map.of(), "(select 1) union (select 2)", 18, true),
                StatementParser.parse("create table b as (select 1) union (select 2) with data"));
        assertEquals("table a", ((CreateTableAsStatement) StatementParser.parse("create unlogged table b as table a")).query());
        assertEquals("values (1), (2)", ((CreateTableAsStatement) StatementParser.parse("create table b as values (1), (2)")).query());
        assertEquals("with w as (select 1) select * from w",
                ((CreateTableAsStatement) StatementParser.parse("create table b as with w as (select 1) select * from w")).query());
    }

    @Test
    void storageParametersBeforeAsWithOrWithoutColumnNames() {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("parallel_workers", "4");
        parameters.put("autovacuum_enabled", null);
        String sql = "create table b (x) with (parallel_workers = 4, autovacuum_enabled) as select 1 with no data";
        assertEquals(new CreateTableAsStatement("b", false, List.of("x"), parameters, "select 1", sql.indexOf("select"), false),
                StatementParser.parse(sql));
        assertEquals(Map.of("parallel_workers", "2"),
                ((CreateTableAsStatement) StatementParser.parse("create table b with (parallel_workers = 2) as table a")).storageParameters());
        // Column definitions with WITH after them stay a plain CREATE TABLE.
        assertInstanceOf(CreateTableStatement.class, StatementParser.parse("create table b (x int) with (parallel_workers = 2)"));
        assertEquals("syntax error at or near \"select\"", failure("create table b with (parallel_workers = 2) select 1").getMessage());
    }

    @Test
    void createTableAsErrors() {
        // Column definitions before AS are a plain CREATE TABLE that does not expect AS, as in PostgreSQL.
        ParallaxException definitions = failure("create table b (a int) as select 1");
        assertEquals("syntax error at or near \"as\"", definitions.getMessage());
        assertEquals(24, definitions.position());
        assertEquals("syntax error at or near \"as\"", failure("create table b () as select 1").getMessage());
        assertEquals("syntax error at or near \"insert\"", failure("create table b as insert into a values (1)").getMessage());
        assertEquals("syntax error at or near \"insert\"",
                failure("create table b as with w as (select 1) insert into a select * from w").getMessage());
        assertEquals("syntax error at end of input", failure("create table b as").getMessage());
        ParallaxException into = failure("create table b as select 1 into c");
        assertEquals(SqlState.SYNTAX_ERROR, into.state());
        assertEquals("SELECT ... INTO is not allowed here", into.getMessage());
        assertEquals(28, into.position());
        ParallaxException parameter = failure("create table b as select $1");
        assertEquals(SqlState.UNDEFINED_PARAMETER, parameter.state());
        assertEquals("there is no parameter $1", parameter.getMessage());
        assertEquals(26, parameter.position());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create table b as execute p").state());
    }

    @Test
    void temporaryTablesTakeTheirOnCommitClauseBeforeAs() {
        TemporaryTable dropped = new TemporaryTable(TemporaryTable.OnCommit.DROP, false);
        assertEquals(new CreateTableAsStatement("b", false, List.of("x"), Map.of(), "select 1", 47, true, dropped),
                StatementParser.parse("create temporary table b (x) on commit drop as select 1"));
        assertEquals(new TemporaryTable(TemporaryTable.OnCommit.PRESERVE_ROWS, true),
                ((CreateTableAsStatement) StatementParser.parse("create global temp table b as select 1")).temporary());
        assertEquals(SqlState.INVALID_TABLE_DEFINITION, failure("create table b on commit delete rows as select 1").state());
        assertEquals("syntax error at or near \"keep\"", failure("create temp table b on commit keep rows as select 1").getMessage());
    }

    @Test
    void selectIntoBecomesCreateTableAsWithTheIntoClauseBlanked() {
        assertEquals(new CreateTableAsStatement("k", false, List.of(), Map.of(), "select x, y " + " ".repeat("into table k".length()) + " from a where x = 1", 0, true),
                StatementParser.parse("select x, y into table k from a where x = 1"));
        assertEquals(new CreateTableAsStatement("k", false, List.of(), Map.of(), "select x \n" + " ".repeat("into k ".length()) + "from a", 2, true),
                StatementParser.parse("  select x \ninto k from a"));
        assertEquals("with w as (select 1 as v) select * " + " ".repeat("into unlogged z".length()) + " from w",
                ((CreateTableAsStatement) StatementParser.parse("with w as (select 1 as v) select * into unlogged z from w")).query());
        assertEquals("select 1 as q " + " ".repeat("into z".length()) + " union select 2",
                ((CreateTableAsStatement) StatementParser.parse("select 1 as q into z union select 2")).query());
        assertEquals("k", ((CreateTableAsStatement) StatementParser.parse("select 1 into public.k")).tableName());
    }

    @Test
    void queriesWithoutAnIntoOfTheirOwnStayQueries() {
        assertInstanceOf(QueryStatement.class, StatementParser.parse("select (select 1) from a"));
        assertInstanceOf(QueryStatement.class, StatementParser.parse("select 'into' as \"into\" from a"));
        assertInstanceOf(QueryStatement.class, StatementParser.parse("with w as (select 1) insert into t select * from w"));
    }

    @Test
    void selectIntoErrors() {
        ParallaxException afterUnion = failure("select 1 union select 2 into z");
        assertEquals("INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT", afterUnion.getMessage());
        assertEquals(25, afterUnion.position());
        ParallaxException afterFrom = failure("select * from a into z");
        assertEquals("syntax error at or near \"into\"", afterFrom.getMessage());
        assertEquals(17, afterFrom.position());
        assertEquals(new TemporaryTable(TemporaryTable.OnCommit.PRESERVE_ROWS, false),
                ((CreateTableAsStatement) StatementParser.parse("select 1 into temp z")).temporary());
        assertEquals(new TemporaryTable(TemporaryTable.OnCommit.PRESERVE_ROWS, false),
                ((CreateTableAsStatement) StatementParser.parse("select 1 into local temporary table z")).temporary());
        assertEquals("there is no parameter $2", failure("select 1 into z where 1 = $2").getMessage());
    }
}
