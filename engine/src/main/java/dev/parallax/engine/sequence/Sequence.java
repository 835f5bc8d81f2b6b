package dev.parallax.engine.sequence;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Objects;

/**
 * A sequence generator: PostgreSQL's nextval / setval semantics over one lock-protected counter.
 * Non-transactional, as in PostgreSQL: a value handed out is never handed out again, whatever
 * becomes of the statement that took it. A batch of values is reserved under one lock acquisition
 * ({@link #next(int, long[])}), so parallel workers filling a serial column pay one uncontended
 * lock per batch, not per row. Thread-safe.
 */
public final class Sequence {
    private final String name;
    private volatile SequenceOptions options;
    /**
     * The table and column that own the sequence (serial, identity, OWNED BY): dropped with the table; null
     * when free. Renamed with them and changed by OWNED BY ({@link #setOwner}).
     */
    private volatile String ownerTable;
    private volatile String ownerColumn;
    /** Guarded by this: PostgreSQL's last_value and is_called. */
    private long lastValue;
    private boolean called;

    public Sequence(String name, SequenceOptions options, String ownerTable, String ownerColumn) {
        this.name = Objects.requireNonNull(name, "name");
        this.options = Objects.requireNonNull(options, "options");
        this.ownerTable = ownerTable;
        this.ownerColumn = ownerColumn;
        this.lastValue = options.start();
    }

    public String name() {
        return name;
    }

    public SequenceOptions options() {
        return options;
    }

    /** The owning table's name, or null. */
    public String ownerTable() {
        return ownerTable;
    }

    /** The owning column's name, or null. */
    public String ownerColumn() {
        return ownerColumn;
    }

    /**
     * Makes {@code table}'s {@code column} the owner (both null: none), for ALTER SEQUENCE ... OWNED BY
     * and to follow a rename of the owning table or column (ALTER TABLE ... RENAME, which the catalog
     * runs under its lock).
     */
    public void setOwner(String table, String column) {
        this.ownerTable = table;
        this.ownerColumn = column;
    }

    /** nextval: the next value; 2200H when the sequence is exhausted and does not cycle. */
    public synchronized long next() {
        long value = advance();
        lastValue = value;
        called = true;
        return value;
    }

    /**
     * {@code count} next values into {@code values[0..count)}, in order, under one lock. On 2200H
     * the values before the exhausted one stay taken, as PostgreSQL's do.
     */
    public synchronized void next(int count, long[] values) {
        for (int index = 0; index < count; index++) {
            long value = advance();
            lastValue = value;
            called = true;
            values[index] = value;
        }
    }

    /** The value after the current one, wrapping when the sequence cycles; does not change the state. */
    private long advance() {
        if (!called) {
            return lastValue;
        }
        SequenceOptions current = options;
        long increment = current.increment();
        long next = lastValue + increment;
        boolean overflow = ((lastValue ^ next) & (increment ^ next)) < 0;
        if (increment > 0 && (overflow || next > current.maxValue())) {
            if (!current.cycle()) {
                throw ParallaxException.of(SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED, "nextval: reached maximum value of sequence \"%s\" (%d)",
                        name, current.maxValue());
            }
            return current.minValue();
        }
        if (increment < 0 && (overflow || next < current.minValue())) {
            if (!current.cycle()) {
                throw ParallaxException.of(SqlState.SEQUENCE_GENERATOR_LIMIT_EXCEEDED, "nextval: reached minimum value of sequence \"%s\" (%d)",
                        name, current.minValue());
            }
            return current.maxValue();
        }
        return next;
    }

    /** setval(value, called): 22003 when the value is outside the bounds. Returns the value. */
    public synchronized long set(long value, boolean isCalled) {
        SequenceOptions current = options;
        if (value < current.minValue() || value > current.maxValue()) {
            throw ParallaxException.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)",
                    value, name, current.minValue(), current.maxValue());
        }
        lastValue = value;
        called = isCalled;
        return value;
    }

    /** ALTER SEQUENCE ... RESTART [WITH value]: the next nextval returns {@code value} (the start when null). */
    public synchronized void restart(Long value) {
        SequenceOptions current = options;
        long restart = value == null ? current.start() : value;
        if (restart < current.minValue()) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "RESTART value (%d) cannot be less than MINVALUE (%d)",
                    restart, current.minValue());
        }
        if (restart > current.maxValue()) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "RESTART value (%d) cannot be greater than MAXVALUE (%d)",
                    restart, current.maxValue());
        }
        lastValue = restart;
        called = false;
    }

    /** Replaces the options (ALTER SEQUENCE); the current value is kept. */
    public synchronized void setOptions(SequenceOptions changed) {
        options = Objects.requireNonNull(changed, "changed");
    }

    /** pg_sequences.last_value: the last value handed out, or null before the first nextval (or after RESTART). */
    public synchronized Long lastValueOrNull() {
        return called ? lastValue : null;
    }
}
