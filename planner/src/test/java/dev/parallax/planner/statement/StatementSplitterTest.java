package dev.parallax.planner.statement;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementSplitterTest {
    @Test
    void splitsAtSemicolonsAndKeepsALastStatementWithoutOne() {
        assertEquals(List.of("select 1", "select 2", "select 3"), StatementSplitter.split("select 1; select 2;\n select 3"));
    }

    @Test
    void ignoresSemicolonsInStringsIdentifiersAndEscapeStrings() {
        assertEquals(List.of("select 'a;b', \"c;d\"", "select E'x\\';y'", "select 'it''s;'"),
                StatementSplitter.split("select 'a;b', \"c;d\"; select E'x\\';y'; select 'it''s;'"));
    }

    @Test
    void ignoresSemicolonsInDollarQuotesButNotAfterParameters() {
        assertEquals(List.of("select $$a;b$$", "select $tag$ $$; $tag$", "select $1", "select 2"),
                StatementSplitter.split("select $$a;b$$; select $tag$ $$; $tag$; select $1; select 2"));
    }

    @Test
    void ignoresSemicolonsInCommentsAndParentheses() {
        assertEquals(List.of("select 1 -- one; two", "select /* a; /* nested; */ b; */ 2", "values (1;2)"),
                StatementSplitter.split("select 1 -- one; two\n; select /* a; /* nested; */ b; */ 2; values (1;2)"));
    }

    @Test
    void dropsPiecesWithOnlyCommentsAndWhitespace() {
        assertEquals(List.of("select 1"), StatementSplitter.split(";; -- nothing\n ; /* nothing */ ; select 1;  \n"));
        assertTrue(StatementSplitter.isBlank("  -- only a comment"));
        assertTrue(StatementSplitter.isBlank(";"));
        assertFalse(StatementSplitter.isBlank("-- c\nselect 1"));
    }

    @Test
    void anUnterminatedStringRunsToTheEnd() {
        assertEquals(List.of("select 'abc; select 2"), StatementSplitter.split("select 'abc; select 2"));
    }
}
