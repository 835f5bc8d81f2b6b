package dev.parallax.engine.catalog;

import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What VACUUM and ANALYZE did to one table, for {@code pg_stat_user_tables}: when each last ran
 * (manually or by autovacuum), how often, and the live-row count of the last ANALYZE. Also the
 * lock that runs one VACUUM of a table at a time (PostgreSQL's SHARE UPDATE EXCLUSIVE conflicts
 * with itself). Thread-safe.
 */
public final class MaintenanceActivity {
    private final ReentrantLock vacuumLock = new ReentrantLock();
    private volatile Instant lastVacuum;
    private volatile Instant lastAutovacuum;
    private volatile Instant lastAnalyze;
    private volatile Instant lastAutoanalyze;
    private long vacuumCount;
    private long autovacuumCount;
    private long analyzeCount;
    private long autoanalyzeCount;

    /** Held while a VACUUM of this table runs. */
    public ReentrantLock vacuumLock() {
        return vacuumLock;
    }

    public synchronized void recordVacuum(Instant at, boolean automatic) {
        if (automatic) {
            lastAutovacuum = at;
            autovacuumCount++;
        } else {
            lastVacuum = at;
            vacuumCount++;
        }
    }

    public synchronized void recordAnalyze(Instant at, boolean automatic) {
        if (automatic) {
            lastAutoanalyze = at;
            autoanalyzeCount++;
        } else {
            lastAnalyze = at;
            analyzeCount++;
        }
    }

    /** Null when never. */
    public Instant lastVacuum() {
        return lastVacuum;
    }

    public Instant lastAutovacuum() {
        return lastAutovacuum;
    }

    public Instant lastAnalyze() {
        return lastAnalyze;
    }

    public Instant lastAutoanalyze() {
        return lastAutoanalyze;
    }

    public synchronized long vacuumCount() {
        return vacuumCount;
    }

    public synchronized long autovacuumCount() {
        return autovacuumCount;
    }

    public synchronized long analyzeCount() {
        return analyzeCount;
    }

    public synchronized long autoanalyzeCount() {
        return autoanalyzeCount;
    }
}
