package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Notice;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.TransactionStatus;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * BEGIN / COMMIT / ROLLBACK through a session: the block's states, PostgreSQL's tags, warnings and
 * 25P02 in a failed block, transactional settings, and the honest failure of ROLLBACK after changes.
 */
class TransactionBlockTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(128L << 20).withWorkerThreads(2));
        session = database.openSession();
        run("create table t (id int primary key, v text)");
        run("insert into t values (1, 'one')");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private Result run(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result;
        }
    }

    private List<List<Object>> rows(String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    private SqlState failure(String sql) {
        return assertThrows(ParallaxException.class, () -> run(sql)).state();
    }

    @Test
    void readOnlyBlockCommitsAndRollsBack() {
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        assertEquals("BEGIN", run("begin").commandTag());
        assertEquals(TransactionStatus.IN_BLOCK, session.transactionStatus());
        assertEquals(List.of(List.of(1, "one")), rows("select * from t"));
        assertEquals("COMMIT", run("commit").commandTag());
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());

        assertEquals("START TRANSACTION", run("start transaction").commandTag());
        rows("select count(*) from t");
        assertEquals("ROLLBACK", run("rollback").commandTag());
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        assertEquals("BEGIN", run("begin work").commandTag());
        assertEquals("COMMIT", run("end").commandTag());
    }

    @Test
    void committedChangesStay() {
        run("begin");
        assertEquals("INSERT 0 1", run("insert into t values (2, 'two')").commandTag());
        assertEquals("UPDATE 1", run("update t set v = 'uno' where id = 1").commandTag());
        assertEquals("COMMIT", run("commit").commandTag());
        assertEquals(List.of(List.of(1, "uno"), List.of(2, "two")), rows("select * from t order by id"));
    }

    @Test
    void warningsOutsideAndInsideBlocksCarryTheirSqlState() {
        Result commit = run("commit");
        assertEquals("COMMIT", commit.commandTag());
        assertEquals(List.of(new Notice(Notice.WARNING, "there is no transaction in progress", null, "25P01")), commit.messages());
        Result rollback = run("rollback");
        assertEquals("ROLLBACK", rollback.commandTag());
        assertEquals("25P01", rollback.messages().getFirst().code());

        run("begin");
        Result again = run("begin");
        assertEquals("BEGIN", again.commandTag());
        assertEquals(List.of(new Notice(Notice.WARNING, "there is already a transaction in progress", null, "25001")), again.messages());
        assertEquals(TransactionStatus.IN_BLOCK, session.transactionStatus());
        run("commit");
    }

    @Test
    void anErrorFailsTheBlockUntilItEnds() {
        run("begin");
        assertEquals(SqlState.DIVISION_BY_ZERO, failure("select 1 / 0"));
        assertEquals(TransactionStatus.FAILED, session.transactionStatus());
        ParallaxException ignored = assertThrows(ParallaxException.class, () -> run("select 1"));
        assertEquals(SqlState.IN_FAILED_SQL_TRANSACTION, ignored.state());
        assertEquals("current transaction is aborted, commands ignored until end of transaction block", ignored.getMessage());
        assertEquals(SqlState.IN_FAILED_SQL_TRANSACTION, failure("begin"));
        assertEquals(SqlState.IN_FAILED_SQL_TRANSACTION, failure("set work_mem = '8MB'"));
        assertEquals(SqlState.IN_FAILED_SQL_TRANSACTION,
                assertThrows(ParallaxException.class, () -> session.prepare("select * from t")).state());
        // COMMIT of a failed block rolls it back, and its tag says so.
        assertEquals("ROLLBACK", run("commit").commandTag());
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        assertEquals(List.of(List.of(1L)), rows("select count(*) from t"));
    }

    @Test
    void errorsWhileReadingRowsAndInPreparedStatementsFailTheBlock() {
        PreparedQuery divide = session.prepare("select 10 / $1");
        run("begin");
        try (Result result = divide.execute(2)) {
            assertEquals(List.of(List.of(5)), result.fetchAll());
        }
        assertThrows(ParallaxException.class, () -> {
            try (Result result = divide.execute(0)) {
                result.fetchAll();
            }
        });
        assertEquals(TransactionStatus.FAILED, session.transactionStatus());
        assertEquals(SqlState.IN_FAILED_SQL_TRANSACTION, assertThrows(ParallaxException.class, () -> divide.execute(1)).state());
        assertEquals("ROLLBACK", run("rollback").commandTag());
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
    }

    @Test
    void aFailedStatementOutsideABlockChangesNothing() {
        assertEquals(SqlState.DIVISION_BY_ZERO, failure("select 1 / 0"));
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        session.failTransactionBlock();
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
    }

    @Test
    void rollbackAfterChangesFailsAndSaysTheChangesRemain() {
        run("begin");
        run("insert into t values (2, 'two')");
        run("delete from t where id = 1");
        ParallaxException refused = assertThrows(ParallaxException.class, () -> run("rollback"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, refused.state());
        assertEquals("ROLLBACK cannot undo the changes made in this transaction block", refused.getMessage());
        assertEquals("2 statements of the block changed data; Parallax applies each statement when it runs "
                + "(there are no multi-statement transactions yet), so those changes remain.", refused.detail());
        // The block has ended all the same, and the changes are there.
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        assertEquals(List.of(List.of(2, "two")), rows("select * from t"));
    }

    @Test
    void rollbackOfAFailedBlockAfterChangesFailsToo() {
        run("begin");
        run("create table u (x int)");
        assertEquals(SqlState.UNIQUE_VIOLATION, failure("insert into t values (1, 'again')"));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("rollback"));
        assertEquals(TransactionStatus.IDLE, session.transactionStatus());
        assertEquals(List.of(List.of(0L)), rows("select count(*) from u"));
    }

    @Test
    void statementsThatChangedNothingDoNotBlockRollback() {
        run("begin");
        assertEquals("UPDATE 0", run("update t set v = 'none' where id = 42").commandTag());
        assertEquals("DELETE 0", run("delete from t where id = 42").commandTag());
        assertEquals("ROLLBACK", run("rollback").commandTag());
    }

    @Test
    void settingsAreTransactional() {
        run("set work_mem = '8MB'");
        run("begin");
        run("set work_mem = '16MB'");
        run("set max_parallel_workers_per_gather = 0");
        assertEquals(List.of(List.of("16MB")), rows("show work_mem"));
        run("rollback");
        assertEquals(List.of(List.of("8MB")), rows("show work_mem"));
        assertEquals(List.of(List.of("2")), rows("show max_parallel_workers_per_gather"));

        run("begin");
        run("set local work_mem = '32MB'");
        run("set max_parallel_workers_per_gather = 1");
        assertEquals(List.of(List.of("32MB")), rows("show work_mem"));
        run("commit");
        // SET LOCAL lasts until the end of its block; a plain SET outlives a committed one.
        assertEquals(List.of(List.of("8MB")), rows("show work_mem"));
        assertEquals(List.of(List.of("1")), rows("show max_parallel_workers_per_gather"));

        run("begin");
        run("set work_mem = '20MB'");
        assertEquals(SqlState.DIVISION_BY_ZERO, failure("select 1 / 0"));
        run("commit");
        assertEquals(List.of(List.of("8MB")), rows("show work_mem"));
    }

    @Test
    void vacuumIsRefusedInsideABlockButAnalyzeRuns() {
        run("begin");
        ParallaxException refused = assertThrows(ParallaxException.class, () -> run("vacuum t"));
        assertEquals(SqlState.ACTIVE_SQL_TRANSACTION, refused.state());
        assertEquals("VACUUM cannot run inside a transaction block", refused.getMessage());
        assertEquals("ROLLBACK", run("rollback").commandTag());
        run("begin");
        assertEquals("ANALYZE", run("analyze t").commandTag());
        assertEquals("ROLLBACK", run("rollback").commandTag());
    }
}
