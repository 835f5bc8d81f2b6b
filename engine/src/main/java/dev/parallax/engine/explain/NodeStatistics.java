package dev.parallax.engine.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runtime statistics of one plan node across all participants that ran it, summed the way
 * PostgreSQL's EXPLAIN ANALYZE reports them: rows and times are totals here and divided by loops
 * when printed. A Gather also records how many workers it launched.
 */
public final class NodeStatistics {
    private final List<ParticipantStatistics> participants = new ArrayList<>();
    private volatile int workersLaunched = -1;
    private volatile boolean[] prunedInputs;

    /** The statistics of {@code participant} (-1 = leader), created on first use; thread-safe. */
    public synchronized ParticipantStatistics participant(int participant) {
        for (ParticipantStatistics existing : participants) {
            if (existing.participant() == participant) {
                return existing;
            }
        }
        ParticipantStatistics created = new ParticipantStatistics(participant);
        participants.add(created);
        return created;
    }

    /** Participants that ran the node, leader first, then workers by number. */
    public synchronized List<ParticipantStatistics> participants() {
        List<ParticipantStatistics> sorted = new ArrayList<>(participants);
        sorted.sort(Comparator.comparingInt(ParticipantStatistics::participant));
        return sorted;
    }

    /** The workers that ran the node, by number. */
    public List<ParticipantStatistics> workers() {
        return participants().stream().filter(statistics -> statistics.participant() >= 0 && statistics.loops() > 0).toList();
    }

    public long rows() {
        return participants().stream().mapToLong(ParticipantStatistics::rows).sum();
    }

    public int loops() {
        return participants().stream().mapToInt(ParticipantStatistics::loops).sum();
    }

    public long firstNanos() {
        return participants().stream().mapToLong(ParticipantStatistics::firstNanos).sum();
    }

    public long totalNanos() {
        return participants().stream().mapToLong(ParticipantStatistics::totalNanos).sum();
    }

    /** For a partition Append pruned at execution start: which inputs were removed (by input index); else null. */
    public boolean[] prunedInputs() {
        boolean[] pruned = prunedInputs;
        return pruned == null ? null : pruned.clone();
    }

    /** Records the inputs execution-time pruning removed (every participant computes the same). */
    public void setPrunedInputs(boolean[] removed) {
        this.prunedInputs = removed.clone();
    }

    /** Workers a Gather launched, or -1 when it never started. */
    public int workersLaunched() {
        return workersLaunched;
    }

    public void setWorkersLaunched(int launched) {
        this.workersLaunched = launched;
    }
}
