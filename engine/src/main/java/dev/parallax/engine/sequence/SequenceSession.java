package dev.parallax.engine.sequence;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A session's view of the sequences: where names resolve, and the values currval and lastval
 * return (the last nextval of each sequence in this session, and of any sequence). Thread-safe: the
 * workers of one parallel statement record values concurrently (the last writer wins, as any
 * order of their nextval calls would).
 */
public final class SequenceSession {
    /** Finds a sequence by name; throws PostgreSQL's 42P01 / 42809 when the name is no sequence. */
    public interface Resolver {
        /** By catalog name: 42P01 when no relation has it, 42809 when it is not a sequence. */
        Sequence sequence(String name);

        /** By pg_class OID ({@code 's'::regclass}), with the same errors. */
        Sequence sequence(long oid);
    }

    private final Resolver resolver;
    private final Map<Sequence, Long> currentValues = new ConcurrentHashMap<>();
    private volatile Sequence lastSequence;
    private volatile long lastValue;

    public SequenceSession(Resolver resolver) {
        this.resolver = resolver;
    }

    /** The sequence named {@code name} (42P01 when none exists, 42809 when it is another kind of relation). */
    public Sequence sequence(String name) {
        return resolver.sequence(name);
    }

    /** The sequence whose pg_class OID is {@code oid}. */
    public Sequence sequence(long oid) {
        return resolver.sequence(oid);
    }

    /** setval with is_called: currval of {@code sequence} becomes {@code value} (lastval does not change). */
    public void recordCurrent(Sequence sequence, long value) {
        currentValues.put(sequence, value);
    }

    /** Records that this session's last nextval of {@code sequence} returned {@code value}. */
    public void record(Sequence sequence, long value) {
        currentValues.put(sequence, value);
        lastSequence = sequence;
        lastValue = value;
    }

    /** currval: 55000 before the session's first nextval of the sequence. */
    public long currentValue(Sequence sequence) {
        Long value = currentValues.get(sequence);
        if (value == null) {
            throw ParallaxException.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "currval of sequence \"%s\" is not yet defined in this session",
                    sequence.name());
        }
        return value;
    }

    /** lastval: 55000 before the session's first nextval. */
    public long lastValue() {
        if (lastSequence == null) {
            throw ParallaxException.of(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, "lastval is not yet defined in this session");
        }
        return lastValue;
    }
}
