package dev.parallax.planner;

import dev.parallax.Database;
import dev.parallax.DatabaseOptions;
import dev.parallax.PreparedQuery;
import dev.parallax.Result;
import dev.parallax.Session;
import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FOREIGN KEY constraints through the embedding API: PostgreSQL 15's DETAIL and HINT lines (the
 * SQL logic tests check SQLSTATEs and messages only), a prepared insert planned before the key
 * existed, and sessions inserting children while others delete their parents, which must never
 * leave a child whose parent is gone.
 */
class ForeignKeysTest {
    private Database database;
    private Session session;

    @BeforeEach
    void open() {
        database = Database.inMemory(DatabaseOptions.defaults().withMemoryLimit(1L << 30).withWorkerThreads(2));
        session = database.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        database.close();
    }

    private static List<List<Object>> rows(Session session, String sql) {
        try (Result result = session.execute(sql)) {
            return result.fetchAll();
        }
    }

    private static ParallaxException failure(Session session, String sql) {
        return assertThrows(ParallaxException.class, () -> rows(session, sql));
    }

    private static long count(Session session, String sql) {
        return ((Number) rows(session, sql).getFirst().getFirst()).longValue();
    }

    @Test
    void violationsCarryPostgresDetails() {
        rows(session, "create table p (a int, b text, primary key (a, b))");
        rows(session, "create table c (id int, a int, b text, foreign key (a, b) references p)");
        rows(session, "insert into p values (1, 'x')");
        rows(session, "insert into c values (1, 1, 'x')");
        ParallaxException insert = failure(session, "insert into c values (2, 1, 'y')");
        assertEquals(SqlState.FOREIGN_KEY_VIOLATION, insert.state());
        assertEquals("insert or update on table \"c\" violates foreign key constraint \"c_a_b_fkey\"", insert.getMessage());
        assertEquals("Key (a, b)=(1, y) is not present in table \"p\".", insert.detail());
        ParallaxException delete = failure(session, "delete from p");
        assertEquals("update or delete on table \"p\" violates foreign key constraint \"c_a_b_fkey\" on table \"c\"", delete.getMessage());
        assertEquals("Key (a, b)=(1, x) is still referenced from table \"c\".", delete.detail());
        ParallaxException drop = failure(session, "drop table p");
        assertEquals(SqlState.DEPENDENT_OBJECTS_STILL_EXIST, drop.state());
        assertEquals("constraint c_a_b_fkey on table c depends on table p", drop.detail());
        assertEquals("Use DROP ... CASCADE to drop the dependent objects too.", drop.hint());
        ParallaxException truncate = failure(session, "truncate p");
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, truncate.state());
        assertEquals("Table \"c\" references \"p\".", truncate.detail());
        assertEquals("Truncate table \"c\" at the same time, or use TRUNCATE ... CASCADE.", truncate.hint());
    }

    /** Keys over columns of two types: PostgreSQL 15's DETAILs print the referencing side's values as its type prints them. */
    @Test
    void crossTypeViolationsCarryPostgresDetails() {
        rows(session, "create table a2 (x int primary key)");
        rows(session, "create table b2 (x bigint references a2)");
        assertEquals("Key (x)=(5000000000) is not present in table \"a2\".", failure(session, "insert into b2 values (5000000000)").detail());
        rows(session, "create table a4 (x numeric(10,2) primary key)");
        rows(session, "insert into a4 values (1.50)");
        rows(session, "create table b4 (x numeric(10,3) references a4)");
        rows(session, "insert into b4 values (1.500)");
        assertEquals("Key (x)=(1.505) is not present in table \"a4\".", failure(session, "insert into b4 values (1.505)").detail());
        assertEquals("Key (x)=(1.50) is still referenced from table \"b4\".", failure(session, "delete from a4").detail());
        rows(session, "create table a9 (x text primary key)");
        rows(session, "insert into a9 values ('cd ')");
        rows(session, "create table b9 (y char(3) references a9)");
        assertEquals("Key (y)=(cd ) is not present in table \"a9\".", failure(session, "insert into b9 values ('cd')").detail());
        rows(session, "create table m1 (a bigint, b varchar(10), c numeric(8,2), primary key (a, b, c))");
        rows(session, "insert into m1 values (1, 'x', 1.5)");
        rows(session, "create table m2 (a int, b text, c numeric(8,1), foreign key (c, a, b) references m1 (c, a, b))");
        rows(session, "insert into m2 values (1, 'x', 1.5)");
        assertEquals("Key (c, a, b)=(2.0, 1, x) is not present in table \"m1\".", failure(session, "insert into m2 values (1, 'x', 2)").detail());
        rows(session, "create table b17 (x bigint)");
        rows(session, "insert into b17 values (1), (5000000000)");
        rows(session, "insert into a2 values (1)");
        ParallaxException added = failure(session, "alter table b17 add constraint b17_fk foreign key (x) references a2");
        assertEquals(SqlState.FOREIGN_KEY_VIOLATION, added.state());
        assertEquals("Key (x)=(5000000000) is not present in table \"a2\".", added.detail());
        ParallaxException incompatible = failure(session, "create table bad (x varchar(5) references a2)");
        assertEquals(SqlState.DATATYPE_MISMATCH, incompatible.state());
        assertEquals("foreign key constraint \"bad_x_fkey\" cannot be implemented", incompatible.getMessage());
        assertEquals("Key columns \"x\" and \"x\" are of incompatible types: character varying and integer.", incompatible.detail());
    }

    @Test
    void matchFullRefusesMixedNulls() {
        rows(session, "create table p (a int, b int, primary key (a, b))");
        rows(session, "create table c (a int, b int, foreign key (a, b) references p match full)");
        ParallaxException mixed = failure(session, "insert into c values (1, null)");
        assertEquals(SqlState.FOREIGN_KEY_VIOLATION, mixed.state());
        assertEquals("MATCH FULL does not allow mixing of null and nonnull key values.", mixed.detail());
        rows(session, "insert into c values (null, null)");
        assertEquals(1, count(session, "select count(*) from c"));
    }

    @Test
    void preparedInsertPlannedBeforeTheKeyIsChecked() {
        rows(session, "create table p (id int primary key)");
        rows(session, "create table c (id int primary key, pid int)");
        rows(session, "insert into p values (1)");
        try (PreparedQuery insert = session.prepare("insert into c values ($1, $2)")) {
            insert.execute(1, 7).close();
            rows(session, "delete from c");
            rows(session, "alter table c add foreign key (pid) references p");
            insert.execute(2, 1).close();
            ParallaxException failure = assertThrows(ParallaxException.class, () -> insert.execute(3, 7).close());
            assertEquals(SqlState.FOREIGN_KEY_VIOLATION, failure.state());
            rows(session, "alter table c drop constraint c_pid_fkey");
            insert.execute(3, 7).close();
        }
        assertEquals(2, count(session, "select count(*) from c"));
    }

    @Test
    void concurrentChildInsertsAndParentDeletesLeaveNoOrphans() throws InterruptedException {
        concurrentInsertsAndDeletes("");
    }

    @Test
    void concurrentChildInsertsAndCascadingParentDeletesLeaveNoOrphans() throws InterruptedException {
        concurrentInsertsAndDeletes(" on delete cascade");
    }

    /**
     * Two sessions insert children of random parents while two delete random parents (refused
     * while referenced under NO ACTION, taking the children along under CASCADE); a child whose
     * insert and its parent's delete both went through would be an orphan.
     */
    private void concurrentInsertsAndDeletes(String onDelete) throws InterruptedException {
        int parents = 400;
        int operations = 1000;
        rows(session, "create table p (id int primary key)");
        rows(session, "create table c (id int primary key, pid int references p" + onDelete + ")");
        rows(session, "insert into p select g from generate_series(1, " + parents + ") g");
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int worker = 0; worker < 4; worker++) {
            boolean inserts = worker % 2 == 0;
            int seed = worker;
            threads.add(Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                try (Session own = database.openSession()) {
                    start.await();
                    for (int operation = 0; operation < operations; operation++) {
                        int parent = 1 + random.nextInt(parents);
                        String sql = inserts
                                ? "insert into c values (" + (seed * operations + operation) + ", " + parent + ")"
                                : "delete from p where id = " + parent;
                        try {
                            rows(own, sql);
                        } catch (ParallaxException failure) {
                            if (failure.state() != SqlState.FOREIGN_KEY_VIOLATION) {
                                unexpected.add(failure);
                            }
                        }
                    }
                } catch (Throwable failure) {
                    unexpected.add(failure);
                }
            }));
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertTrue(unexpected.isEmpty(), () -> "unexpected failures: " + unexpected);
        long children = count(session, "select count(*) from c");
        long deleted = parents - count(session, "select count(*) from p");
        assertTrue(children > 0 && deleted > 0, "both sides made progress: " + children + " children, " + deleted + " parents deleted");
        assertEquals(0, count(session, "select count(*) from c where not exists (select 1 from p where p.id = c.pid)"));
    }
}
