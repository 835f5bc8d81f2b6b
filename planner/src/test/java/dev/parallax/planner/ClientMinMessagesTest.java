package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.Notice;
import dev.parallax.Result;
import dev.parallax.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** client_min_messages: which NOTICEs and WARNINGs a statement's result still carries. */
class ClientMinMessagesTest {
    private static final Notice SKIPPING = Notice.notice("table \"missing\" does not exist, skipping");

    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(128L << 20).withWorkerThreads(2));
        session = database.openSession();
        run("create table t (id int)");
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private List<Notice> messages(String sql) {
        try (Result result = session.execute(sql)) {
            result.fetchAll();
            return result.messages();
        }
    }

    private void run(String sql) {
        messages(sql);
    }

    @Test
    void noticeLevelSendsNoticesAndWarnings() {
        assertEquals(List.of(SKIPPING), messages("drop table if exists missing"));
        assertEquals(Notice.WARNING, messages("commit").getFirst().severity());
        run("set client_min_messages = debug1");
        assertEquals(List.of(SKIPPING), messages("drop table if exists missing"));
    }

    @Test
    void warningLevelDropsNoticesOnly() {
        run("set client_min_messages = warning");
        assertEquals(List.of(), messages("drop table if exists missing"));
        assertEquals(List.of(Notice.warning(dev.parallax.engine.error.SqlState.NO_ACTIVE_SQL_TRANSACTION,
                "there is no transaction in progress")), messages("commit"));
    }

    @Test
    void errorLevelDropsWarningsButNotInfo() {
        run("set client_min_messages to 'ERROR'");
        assertEquals(List.of(), messages("commit"));
        assertEquals(List.of(), messages("drop table if exists missing"));
        List<Notice> verbose = messages("vacuum verbose t");
        assertEquals(Notice.INFO, verbose.getFirst().severity());
        run("reset client_min_messages");
        assertEquals(List.of(SKIPPING), messages("drop table if exists missing"));
    }

    @Test
    void setLocalEndsWithTheBlock() {
        run("begin");
        run("set local client_min_messages = error");
        assertEquals(List.of(), messages("begin"));
        run("commit");
        assertEquals(List.of(SKIPPING), messages("drop table if exists missing"));
        assertEquals(Notice.WARNING, messages("commit").getFirst().severity());
    }

    @Test
    void preparedUtilityStatementsAreFiltered() {
        run("set client_min_messages = warning");
        try (Result result = session.prepare("drop table if exists missing").execute()) {
            assertEquals(List.of(), result.messages());
            assertEquals(List.of(), result.notices());
        }
    }
}
