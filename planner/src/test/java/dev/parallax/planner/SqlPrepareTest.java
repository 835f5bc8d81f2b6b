package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL PREPARE / EXECUTE / DEALLOCATE beyond what the SQL logic tests see: the DETAIL and HINT of
 * the errors, quoted names, the session's namespace shared with {@link Session#prepareNamed},
 * statements (and pg_prepared_statements) private to their session, and the same statements
 * through JDBC.
 */
class SqlPrepareTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory();
        session = database.openSession();
        run("create table t (id int primary key, v text)");
        run("insert into t values (1, 'one'), (2, 'two')");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private void run(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
        }
    }

    private List<List<Object>> rows(Session in, String sql) {
        try (Result result = in.execute(sql)) {
            return result.fetchAll();
        }
    }

    private ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> run(sql));
    }

    @Test
    void errorsCarryPostgresDetailAndHint() {
        run("prepare q(int) as select v from t where id = $1");
        ParallaxException wrongCount = failure("execute q");
        assertEquals("42601", wrongCount.state().code());
        assertEquals("wrong number of parameters for prepared statement \"q\"", wrongCount.getMessage());
        assertEquals("Expected 1 parameters but got 0.", wrongCount.detail());
        ParallaxException mismatch = failure("execute q(true)");
        assertEquals("42804", mismatch.state().code());
        assertEquals("You will need to rewrite or cast the expression.", mismatch.hint());
        // An argument's own error points into the EXECUTE text.
        ParallaxException unknownColumn = failure("execute q(nosuch + 1)");
        assertEquals("42703", unknownColumn.state().code());
        assertEquals(11, unknownColumn.position());
    }

    @Test
    void quotedNamesKeepTheirCase() {
        run("prepare \"Q\" as select 'upper'");
        run("prepare q as select 'lower'");
        assertEquals(List.of(List.of("upper")), rows(session, "execute \"Q\""));
        assertEquals(List.of(List.of("lower")), rows(session, "execute Q"));
        run("deallocate \"Q\"");
        assertEquals("26000", failure("execute \"Q\"").state().code());
    }

    @Test
    void protocolLevelNamesShareTheNamespace() {
        PreparedQuery named = session.prepareNamed("s1", "select v from t where id = $1");
        assertSame(named, session.preparedStatement("s1"));
        assertEquals(List.of(List.of("two")), rows(session, "execute s1(2)"));
        assertEquals(List.of(List.of("select v from t where id = $1", false, 1L)),
                rows(session, "select statement, from_sql, generic_plans from pg_prepared_statements where name = 's1'"));
        assertEquals("42P05", failure("prepare s1 as select 1").state().code());
        run("prepare q as select 1");
        assertEquals("42P05", assertThrows(ParallaxException.class, () -> session.prepareNamed("q", "select 2")).state().code());
        run("deallocate s1");
        assertNull(session.preparedStatement("s1"));
        session.closePreparedStatement("q");
        assertEquals("26000", failure("execute q").state().code());
    }

    @Test
    void statementsBelongToTheirSession() {
        run("prepare q as select 1");
        try (Session other = database.openSession()) {
            assertEquals("26000", assertThrows(ParallaxException.class, () -> rows(other, "execute q")).state().code());
            assertEquals(List.of(List.of(0L)), rows(other, "select count(*) from pg_prepared_statements"));
            other.execute("prepare q as select 2").close();
            assertEquals(List.of(List.of(2)), rows(other, "execute q"));
            assertEquals(List.of(List.of("prepare q as select 2")), rows(other, "select statement from pg_prepared_statements"));
        }
        assertEquals(List.of(List.of(1)), rows(session, "execute q"));
    }

    @Test
    void jdbcStatementsPrepareAndExecute() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:parallax:mem:");
             Statement statement = connection.createStatement()) {
            statement.execute("create table t (id int primary key, v text)");
            statement.execute("insert into t values (1, 'one')");
            statement.execute("prepare q(int) as select v from t where id = $1");
            try (ResultSet rows = statement.executeQuery("execute q(1)")) {
                assertTrue(rows.next());
                assertEquals("one", rows.getString(1));
            }
            try (java.sql.PreparedStatement prepared = connection.prepareStatement("execute q(1)");
                 ResultSet rows = prepared.executeQuery()) {
                assertEquals("v", rows.getMetaData().getColumnName(1));
                assertTrue(rows.next());
            }
            statement.execute("deallocate q");
            SQLException gone = assertThrows(SQLException.class, () -> statement.executeQuery("execute q(1)"));
            assertEquals("26000", gone.getSQLState());
        }
    }
}
