package dev.parallax.planner.statement;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What auto-parameterization takes out of a statement's text, and what it leaves in the shape. */
class StatementNormalizerTest {
    private static void assertShape(String sql, String shape, Object... values) {
        StatementNormalizer.Normalized normalized = StatementNormalizer.normalize(sql);
        assertEquals(shape, normalized == null ? null : normalized.shape(), sql);
        assertEquals(Arrays.asList(values), normalized.constants().stream().map(StatementNormalizer.Constant::value).toList(), sql);
    }

    private static void assertUnchanged(String sql) {
        assertNull(StatementNormalizer.normalize(sql), sql);
    }

    @Test
    void integersAndStringsBecomePlaceholders() {
        assertShape("select * from test where id = 42", "select * from test where id = $1", 42L);
        assertShape("select * from t where name = 'it''s' and id >= 7", "select * from t where name = $1 and id >= $2", "it's", 7L);
        assertShape("insert into t values (1, 'a', now()), (2, 'b', now())", "insert into t values ($1, $2, now()), ($3, $4, now())",
                1L, "a", 2L, "b");
        assertShape("update t set v = 'x', n = n + 1 where id = 3", "update t set v = $1, n = n + $2 where id = $3", "x", 1L, 3L);
        assertShape("select * from t where v like 'ab%' or v between 'a' and 'c'",
                "select * from t where v like $1 or v between $2 and $3", "ab%", "a", "c");
    }

    @Test
    void stringSpellingsGiveTheirValue() {
        assertShape("select * from t where v = E'a\\nb\\'c'", "select * from t where v = $1", "a\nb'c");
        assertShape("select * from t where v = $$it's $1$$", "select * from t where v = $1", "it's $1");
        assertShape("select * from t where v = $tag$x$$y$tag$", "select * from t where v = $1", "x$$y");
        assertShape("select * from t where v = ''", "select * from t where v = $1", "");
    }

    @Test
    void signedNumbers() {
        assertShape("select * from t where id = -5", "select * from t where id = $1", -5L);
        assertShape("update a set b = b + -1234 where id = 9", "update a set b = b + $1 where id = $2", -1234L, 9L);
        assertShape("values (-1, - 2)", "values ($1, - $2)", -1L, 2L);
        // A binary minus stays an operator.
        assertShape("select * from t where id = n -5", "select * from t where id = n -$1", 5L);
        assertShape("select * from t where id = (n)-5", "select * from t where id = (n)-$1", 5L);
    }

    @Test
    void commentsStayAndTheirContentIsNotAConstant() {
        assertShape("select * from t -- id = 1\nwhere id = 2", "select * from t -- id = 1\nwhere id = $1", 2L);
        assertShape("select * /* 'x' = 3 */ from t where id = 4", "select * /* 'x' = 3 */ from t where id = $1", 4L);
    }

    @Test
    void constantsWhoseValueShapesThePlanStay() {
        assertUnchanged("select * from t order by 2 desc, 1 limit 10 offset 5");
        assertUnchanged("select * from t fetch first 3 rows only");
        assertShape("select * from t where id > 1 order by 1 limit 5", "select * from t where id > $1 order by 1 limit 5", 1L);
        assertShape("select g, count(*) from t where x = 'a' group by 1", "select g, count(*) from t where x = $1 group by 1", "a");
        assertShape("select * from (select * from t where a = 1 order by 1) s where b = 2",
                "select * from (select * from t where a = 1 order by 1) s where b = $1", 2L);
        // Casts, typed literals, decimals, function arguments and type modifiers.
        assertUnchanged("select * from t where id = '1'::int");
        assertUnchanged("select * from t where d = date '2024-01-01' and i < interval '1' day");
        assertUnchanged("select * from t where v = U&'d\\0061t'");
        assertUnchanged("select * from t where b = B'0101'");
        assertUnchanged("select * from t where n = 1.5 or n = 1e3");
        assertUnchanged("select substr(v, 1, 3), cast(n as numeric(10, 2)) from t");
        assertUnchanged("select 1, 'a', n + 2 from t");
        assertShape("select n - 1 from t where id in (select id from u where k = 'a') returning 3",
                "select n - 1 from t where id in (select id from u where k = $1) returning 3", "a");
        assertUnchanged("select * from t where n = 12345678901234567890");
        // Already parameterized.
        assertUnchanged("select * from t where id = $1 and v = 'x'");
    }

    @Test
    void inListsOfDifferentLengthsHaveDifferentShapes() {
        StatementNormalizer.Normalized two = StatementNormalizer.normalize("select * from t where id in (1, 2)");
        StatementNormalizer.Normalized three = StatementNormalizer.normalize("select * from t where id in (1, 2, 3)");
        assertEquals("select * from t where id in ($1, $2)", two.shape());
        assertEquals("select * from t where id in ($1, $2, $3)", three.shape());
        assertEquals(List.of(1L, 2L, 3L), three.constants().stream().map(StatementNormalizer.Constant::value).toList());
    }

    @Test
    void textThatDoesNotLexIsLeftAlone() {
        assertUnchanged("select * from t where v = 'unterminated");
        assertUnchanged("");
    }
}
