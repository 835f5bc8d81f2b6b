package dev.parallax.planner.query.parse;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PostgresDialectRewriterTest {
    private static String rewrite(String sql) {
        return PostgresDialectRewriter.rewrite(sql).sql();
    }

    private static SqlState failure(String sql) {
        return assertThrows(ParallaxException.class, () -> PostgresDialectRewriter.rewrite(sql)).state();
    }

    @Test
    void bigintMinimumKeepsItsSignInTheLiteral() {
        assertEquals("select pg_bigint_literal('-9223372036854775808')", rewrite("select -9223372036854775808"));
        assertEquals("values (1, pg_bigint_literal('-9223372036854775808'))", rewrite("values (1, -9223372036854775808)"));
        assertEquals("select a = pg_bigint_literal('-9223372036854775808')", rewrite("select a = - 9223372036854775808"));
    }

    @Test
    void distinctOnBecomesAFirstSelectItemCarryingItsExpressions() {
        assertEquals("select pg_distinct_on(x % 2), x from t order by x % 2, x",
                rewrite("select distinct on (x % 2) x from t order by x % 2, x"));
        assertEquals("select a from (select pg_distinct_on(CAST(b AS INTEGER), c),* from t) s",
                rewrite("select a from (select distinct on(b::int, c)* from t) s"));
        // Plain DISTINCT and a column named on stay as they are.
        assertEquals("select distinct on from t", rewrite("select distinct on from t"));
        assertEquals("select distinct (a) from t", rewrite("select distinct (a) from t"));
    }

    @Test
    void groupsFrameBecomesRowsWithMarkedBounds() {
        assertEquals("select sum(v) over (order by k rows between pg_groups_offset(1) preceding and pg_groups_offset(0) following) from t",
                rewrite("select sum(v) over (order by k groups between 1 preceding and current row) from t"));
        assertEquals("select sum(v) over (order by k rows between pg_groups_offset() preceding and pg_groups_offset(0) following exclude ties) from t",
                rewrite("select sum(v) over (order by k groups unbounded preceding exclude ties) from t"));
        assertEquals("select sum(v) over (order by k rows between pg_groups_offset(0) preceding and pg_groups_offset(2 + 1) following) from t",
                rewrite("select sum(v) over (order by k groups between current row and 2 + 1 following) from t"));
        // Bounds PostgreSQL's grammar refuses stay as written (the validator reports them), and words that are no frame stay.
        assertEquals("select sum(v) over (order by k rows between current row and 1 preceding) from t",
                rewrite("select sum(v) over (order by k groups between current row and 1 preceding) from t"));
        assertEquals("select * from t where groups between 1 and 5", rewrite("select * from t where groups between 1 and 5"));
        assertEquals("select groups from t order by groups", rewrite("select groups from t order by groups"));
    }

    @Test
    void aliasedJoinBecomesAMarkedDerivedTable() {
        assertEquals("select j.\"k\" from (select all * from a join b using (k)) as \"j\"",
                rewrite("select j.k from (a join b using (k)) as j"));
        assertEquals("select * from (select all * from (select all * from a join b on true) j join c using (k)) jj(x)",
                rewrite("select * from ((a join b on true) j join c using (k)) jj(x)"));
        // Without an alias the parenthesised join stays (Calcite takes it); a subquery is no join.
        assertEquals("select * from a join (b join c using (k)) on a.\"k\" = b.\"k\"", rewrite("select * from a join (b join c using (k)) on a.k = b.k"));
        assertEquals("select * from (select * from a join b using (k)) s", rewrite("select * from (select * from a join b using (k)) s"));
    }

    @Test
    void usingAliasTravelsInTheUsingList() {
        assertEquals("select u.\"k\" from a join b using (k, \"pg_using_alias u\") join c on c.\"k\" = u.\"k\"",
                rewrite("select u.k from a join b using (k) as U join c on c.k = u.k"));
        assertEquals("select 1 from a full join b using (k, y, \"pg_using_alias Q\")", rewrite("select 1 from a full join b using (k, y) as \"Q\""));
    }

    @Test
    void binaryMinusBeforeTheBigintMinimumMagnitudeStaysBinary() {
        assertEquals("select a -pg_bigint_literal('9223372036854775808')", rewrite("select a -9223372036854775808"));
        assertEquals("select pg_bigint_literal('9223372036854775807')", rewrite("select 9223372036854775807"));
    }

    @Test
    void negativeLimitAndOffsetRaisePostgresRunTimeErrors() {
        assertEquals(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, failure("select 1 limit -1"));
        assertEquals(SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, failure("select 1 offset -1"));
        // PostgreSQL evaluates OFFSET before LIMIT.
        assertEquals(SqlState.INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, failure("select 1 limit -1 offset -1"));
        assertEquals(SqlState.INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, failure("select * from (select 1 limit - 0.5) s"));
    }

    @Test
    void negativeCountsRoundingToZeroLoseTheirSign() {
        assertEquals("select 1 limit 0 offset 0.4", rewrite("select 1 limit -0 offset -0.4"));
        assertEquals("select 1 limit 3", rewrite("select 1 limit 3"));
    }

    @Test
    void whereWithoutFromGetsAOneRowFrom() {
        assertEquals("select 1 from (values (0)) as pg_no_from (pg_no_from) where false", rewrite("select 1 where false"));
        assertEquals("select 1 from t where false", rewrite("select 1 from t where false"));
        assertEquals("select (select 1 from (values (0)) as pg_no_from (pg_no_from) where true) from t where x",
                rewrite("select (select 1 where true) from t where x"));
        assertEquals(SqlState.SYNTAX_ERROR, failure("select * where true"));
    }

    @Test
    void datetimeFieldWordsAreQuotedOnlyWhereTheyAreNames() {
        assertEquals("select \"day\", t.\"year\" from t order by \"month\"", rewrite("select day, t.Year from t order by month"));
        assertEquals("select pg_extract('day', x), interval '1' day(9), interval '1-2' year(9) to month",
                rewrite("select extract(day from x), interval '1' day, interval '1-2' year to month"));
    }

    @Test
    void arraySlicesBecomeSliceCallsAndSubscriptsStay() {
        assertEquals("select pg_array_slice(a, 1, 2, TRUE, TRUE), pg_array_slice(t.a, 0, 2, FALSE, TRUE), pg_array_slice((x), n + 1, 0, TRUE, FALSE), a[1]",
                rewrite("select a[1:2], t.a[:2], (x)[n + 1:], a[1]"));
        assertEquals("select CAST(pg_array_slice(a, 0, 0, FALSE, FALSE) AS VARCHAR)", rewrite("select a[:]::text"));
        assertEquals("select ARRAY[1, 2], CAST('{}' AS INTEGER ARRAY)", rewrite("select ARRAY[1, 2], '{}'::int[]"));
    }

    @Test
    void arrayOperatorsTakeWholeBracketedOperands() {
        assertEquals("select pg_array_contains(ARRAY[1, 2], ARRAY[1]), pg_array_contained(a, b) and pg_array_overlap(c, ARRAY[3, 4])",
                rewrite("select ARRAY[1, 2] @> ARRAY[1], a <@ b and c && ARRAY[3, 4]"));
        assertEquals("select x from t where pg_array_contains(tags, CAST('{a}' AS VARCHAR ARRAY)) = true",
                rewrite("select x from t where tags @> '{a}'::text[] = true"));
        assertEquals(SqlState.SYNTAX_ERROR, failure("select @> a"));
    }
}
