package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.parallax.planner.statement.RelationName.unqualified;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** CREATE INDEX / DROP INDEX parsing. */
class IndexStatementParserTest {
    private static ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> StatementParser.parse(sql));
    }

    @Test
    void createIndexForms() {
        assertEquals(new CreateIndexStatement("i", false, unqualified("t"), List.of("a"), false, false, false),
                StatementParser.parse("create index i on t (a)"));
        assertEquals(new CreateIndexStatement("i", false, new RelationName(RelationName.Schema.PUBLIC, "t"), List.of("a", "b"), true, false, true),
                StatementParser.parse("CREATE INDEX CONCURRENTLY i ON ONLY public.t USING btree (a ASC NULLS LAST, B)"));
        assertEquals(new CreateIndexStatement(null, false, unqualified("t"), List.of("a"), false, false, false),
                StatementParser.parse("create index on t (a)"));
        assertEquals(new CreateIndexStatement("i", true, unqualified("t"), List.of("a"), false, false, false),
                StatementParser.parse("create index if not exists i on t (a);"));
        assertEquals(new CreateIndexStatement("Big", false, unqualified("t"), List.of("a"), false, false, false),
                StatementParser.parse("create index \"Big\" on t (a)"));
        assertEquals(new CreateIndexStatement(null, false, unqualified("t"), List.of("a", "b"), false, true, false),
                StatementParser.parse("create unique index on t using btree (a, b)"));
        assertEquals(new CreateIndexStatement("u", true, unqualified("t"), List.of("a"), false, true, false),
                StatementParser.parse("CREATE UNIQUE INDEX IF NOT EXISTS u ON t (a)"));
        assertEquals(new CreateIndexStatement("i", false, unqualified("t"), List.of("a", "b", "c"), List.of(false, true, true), false, false, false),
                StatementParser.parse("create index i on t (a, b desc, c desc nulls first)"));
    }

    @Test
    void createIndexErrors() {
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create index i on t (a desc nulls last)").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create index i on t (a nulls first)").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create index i on t using hash (a)").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create index i on t (a) where a > 1").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create index i on t ((a + 1))").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create index i on t ()").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create index i t (a)").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create index i on t (a) extra").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create index if not exists on t (a)").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create unique table t (a int)").state());
    }

    @Test
    void dropIndexForms() {
        assertEquals(new DropIndexStatement(List.of(unqualified("i")), false), StatementParser.parse("drop index i"));
        assertEquals(new DropIndexStatement(List.of(unqualified("i"), new RelationName(RelationName.Schema.PUBLIC, "j")), true),
                StatementParser.parse("DROP INDEX CONCURRENTLY IF EXISTS i, public.j CASCADE"));
        assertEquals(SqlState.SYNTAX_ERROR, failure("drop index").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("drop index i j").state());
    }
}
