package dev.parallax.cli;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Expected excerpts are psql 15's for the same statements. */
class ErrorReportTest {
    private static String report(String statement, int position) {
        return ErrorReport.format(new ParallaxException(SqlState.SYNTAX_ERROR, "syntax error", null, null, position, null),
                statement, "");
    }

    @Test
    void longLineIsCutOnTheLeftWhenTheCaretIsFarRight() {
        String statement = "select 1111111111, 2222222222, 3333333333, 4444444444, 5555555555, 6666666666, 7777777777 from";
        assertEquals("""
                ERROR:  syntax error
                LINE 1: ...3333333, 4444444444, 5555555555, 6666666666, 7777777777 from
                                                                                       ^
                """, report(statement, statement.length() + 1));
    }

    @Test
    void longLineIsCutOnTheRightWhenTheCaretIsNearTheStart() {
        String statement = "select 1111111111, 2222222222 frm 3333333333, 4444444444, 5555555555, 6666666666, 7777777777";
        assertEquals("""
                ERROR:  syntax error
                LINE 1: select 1111111111, 2222222222 frm 3333333333, 4444444444, 55...
                                                          ^
                """, report(statement, statement.indexOf("3333") + 1));
    }

    @Test
    void positionBeyondTheStatementPrintsNoExcerpt() {
        assertEquals("ERROR:  syntax error\n", report("select", 50));
    }

    @Test
    void locusPrefixesOnlyTheFirstLine() {
        assertEquals("parallax:a.sql:7: ERROR:  division by zero\n",
                ErrorReport.format(new ParallaxException(SqlState.DIVISION_BY_ZERO, "division by zero"), "select 1/0",
                        "parallax:a.sql:7: "));
    }
}
