package dev.parallax.engine.vacuum;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The thread CPU times VACUUM VERBOSE reports agree with the JDK's own clock of the thread. */
class ThreadCpuTimeTest {
    @Test
    void measuresTheCallingThreadsWork() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long clockStart = threads.getCurrentThreadCpuTime();
        ThreadCpuTime start = ThreadCpuTime.now();
        long sum = 0;
        // About 100 ms of this thread's CPU, whatever else the machine runs.
        while (threads.getCurrentThreadCpuTime() - clockStart < 100_000_000L) {
            for (int step = 0; step < 10_000; step++) {
                sum += step * (sum | 1);
            }
        }
        ThreadCpuTime spent = ThreadCpuTime.now().since(start);
        long clock = threads.getCurrentThreadCpuTime() - clockStart;
        long total = spent.userNanos() + spent.systemNanos();
        // Both clocks count the same scheduler time; getrusage rounds to microseconds and splits by ticks.
        assertTrue(total >= clock / 2 && total <= clock * 2, total + " ns against the thread clock's " + clock + " ns " + sum);
        assertTrue(spent.userNanos() > 0, "user " + spent.userNanos());
    }

    @Test
    void sinceNeverGoesNegative() {
        ThreadCpuTime later = new ThreadCpuTime(5, 3);
        assertEquals(new ThreadCpuTime(0, 1), new ThreadCpuTime(4, 4).since(later));
    }
}
