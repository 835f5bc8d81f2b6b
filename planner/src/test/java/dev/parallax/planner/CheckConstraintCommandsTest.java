package dev.parallax.planner;

import dev.parallax.engine.catalog.CheckConstraint;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** CHECK constraints through a session: what the SQL logic tests cannot see (DETAIL lines, error positions, the catalog's objects). */
class CheckConstraintCommandsTest extends SessionCommandsTest {
    @Test
    void violationNamesTheConstraintAndShowsTheFailingRow() {
        run("create table c (a int check (a > 0), b text)");
        ParallaxException insert = failure("insert into c values (1, 'x'), (-1, null)");
        assertEquals(SqlState.CHECK_VIOLATION, insert.state());
        assertEquals("new row for relation \"c\" violates check constraint \"c_a_check\"", insert.getMessage());
        assertEquals("Failing row contains (-1, null).", insert.detail());
        run("insert into c values (2, 'y')");
        ParallaxException update = failure("update c set a = a - 5, b = 'u'");
        assertEquals("Failing row contains (-3, u).", update.detail());
    }

    @Test
    void unknownColumnPointsIntoTheStatement() {
        String sql = "create table c (a int check (b > 1))";
        ParallaxException unknown = failure(sql);
        assertEquals(SqlState.UNDEFINED_COLUMN, unknown.state());
        assertEquals("column \"b\" does not exist", unknown.getMessage());
        assertEquals(sql.indexOf("b > 1") + 1, unknown.position());
        assertEquals(null, database.catalog().findTable("c"));
    }

    @Test
    void addColumnKeepsAndDropColumnDropsTheConstraintsOverTheMovedColumns() {
        run("create table c (a int, b int check (b > 0), c int, check (a < c))");
        run("alter table c drop column a");
        List<CheckConstraint> kept = database.catalog().table("c").checkConstraints();
        assertEquals(List.of("c_b_check"), kept.stream().map(CheckConstraint::name).toList());
        assertEquals("CHECK ((b > 0))", kept.getFirst().definition(List.of("b", "c")));
        ParallaxException moved = failure("insert into c values (0, 1)");
        assertEquals("new row for relation \"c\" violates check constraint \"c_b_check\"", moved.getMessage());
        run("alter table c add column d int default 5");
        assertEquals(List.of("c_b_check"), database.catalog().table("c").checkConstraints().stream().map(CheckConstraint::name).toList());
        run("insert into c values (1, 1)");
    }
}
