package dev.parallax.engine.vacuum;

import dev.parallax.engine.exec.WorkerPool;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParallelMaintenanceTest {
    @Test
    void idleParticipantsHelpWithTheLastTablePageByPage() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, 2);
        try (VacuumTestTable big = new VacuumTestTable(true, "big"); VacuumTestTable small = new VacuumTestTable(true, "small")) {
            big.insert(0, 6000, 0);
            small.insert(0, 40, 0);
            long bigDeleted = big.deleteWhere(id -> id % 3 == 0 || id > 5500);
            long smallDeleted = small.deleteWhere(id -> id % 2 == 0);
            Map<Long, String> bigExpected = big.contents();
            Map<Long, String> smallExpected = small.contents();
            // The owner of the big table waits at its first page until another participant compacted
            // one of its pages: the participant that vacuumed the small table has nothing left but to help.
            // The small table's vacuum waits until the big one's has started (its run is published before
            // its first page): finished earlier, its participant would find no run to help and leave.
            CountDownLatch helped = new CountDownLatch(1);
            CountDownLatch bigStarted = new CountDownLatch(1);
            AtomicReference<Thread> owner = new AtomicReference<>();
            Set<Thread> bigParticipants = ConcurrentHashMap.newKeySet();
            VacuumProgress progress = (table, done, total) -> {
                if (table.equals("small") && done == 0) {
                    try {
                        bigStarted.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (!table.equals("big") || done == total) {
                    return;
                }
                bigParticipants.add(Thread.currentThread());
                if (done == 0) {
                    owner.set(Thread.currentThread());
                    bigStarted.countDown();
                    try {
                        helped.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                    }
                } else if (owner.get() != null && owner.get() != Thread.currentThread()) {
                    helped.countDown();
                }
            };
            List<MaintenanceResult> results = ParallelMaintenance.run(List.of(new MaintenanceTask(big.table, true, false, null),
                    new MaintenanceTask(small.table, true, false, null)), 2, pool, 2, false, progress, () -> false);

            assertEquals(2, bigParticipants.size(), "both participants vacuumed pages of the big table");
            assertEquals(bigDeleted, results.get(0).vacuum().rowsRemoved());
            assertEquals(smallDeleted, results.get(1).vacuum().rowsRemoved());
            assertEquals(bigExpected, big.contents());
            assertEquals(smallExpected, small.contents());
            assertEquals(0, big.storage.deadRowCount());
            assertEquals(0, big.storage.retiredPageCount());
            assertTrue(results.get(0).vacuum().pagesRemoved() > 0, "the trailing pages died whole");
            // Index entries follow the rows the helper moved: every key finds its row, deleted ones none.
            for (long id = 0; id < 6000; id++) {
                assertEquals(bigExpected.containsKey(id), big.deleteByKey(id), "key " + id);
            }
        } finally {
            pool.close();
        }
    }
}
