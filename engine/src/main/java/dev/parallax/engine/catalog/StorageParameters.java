package dev.parallax.engine.catalog;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import dev.parallax.engine.type.ValueText;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A table's storage parameters (PostgreSQL's reloptions), as {@code CREATE TABLE ... WITH (...)} and
 * {@code ALTER TABLE ... SET (...)} / {@code RESET (...)} give them: {@code parallel_workers},
 * {@code fillfactor} (kept and shown only: Parallax appends new row versions to the table's last page,
 * never into room left free on earlier pages, so there is nothing for it to reserve), and the per-table overrides of the autovacuum settings ({@code autovacuum_enabled},
 * {@code autovacuum_vacuum_threshold}, {@code autovacuum_vacuum_scale_factor}). Values are checked
 * as PostgreSQL checks them (22023, its messages) and kept in the text the user wrote, in the order
 * pg_class.reloptions shows them: a parameter set again moves to the end. A partitioned table, which
 * holds no rows of its own, takes only {@code parallel_workers} (its Parallel Append's degree), as in
 * PostgreSQL. Immutable.
 */
public final class StorageParameters {
    public static final StorageParameters NONE = new StorageParameters(Map.of());

    /** PostgreSQL's bounds for the parallel_workers reloption. */
    public static final int MAX_PARALLEL_WORKERS = 1024;
    private static final double MAX_SCALE_FACTOR = 100;

    private static final String PARALLEL_WORKERS = "parallel_workers";
    private static final String FILLFACTOR = "fillfactor";
    /** PostgreSQL's bounds for a heap's fillfactor (pgbench -i writes {@code WITH (fillfactor='100')}). */
    private static final int MIN_FILLFACTOR = 10;
    private static final int MAX_FILLFACTOR = 100;
    private static final String AUTOVACUUM_ENABLED = "autovacuum_enabled";
    private static final String VACUUM_THRESHOLD = "autovacuum_vacuum_threshold";
    private static final String VACUUM_SCALE_FACTOR = "autovacuum_vacuum_scale_factor";

    /** Name to the text written, in reloptions order. */
    private final Map<String, String> values;
    private final OptionalInt parallelWorkers;
    private final Optional<Boolean> autovacuumEnabled;
    private final OptionalLong vacuumThreshold;
    private final OptionalDouble vacuumScaleFactor;

    private StorageParameters(Map<String, String> values) {
        this.values = values;
        this.parallelWorkers = values.containsKey(PARALLEL_WORKERS)
                ? OptionalInt.of((int) integerValue(PARALLEL_WORKERS, values.get(PARALLEL_WORKERS), 0, MAX_PARALLEL_WORKERS))
                : OptionalInt.empty();
        if (values.containsKey(FILLFACTOR)) {
            integerValue(FILLFACTOR, values.get(FILLFACTOR), MIN_FILLFACTOR, MAX_FILLFACTOR);
        }
        this.autovacuumEnabled = values.containsKey(AUTOVACUUM_ENABLED)
                ? Optional.of(booleanValue(AUTOVACUUM_ENABLED, values.get(AUTOVACUUM_ENABLED)))
                : Optional.empty();
        this.vacuumThreshold = values.containsKey(VACUUM_THRESHOLD)
                ? OptionalLong.of(integerValue(VACUUM_THRESHOLD, values.get(VACUUM_THRESHOLD), 0, Integer.MAX_VALUE))
                : OptionalLong.empty();
        this.vacuumScaleFactor = values.containsKey(VACUUM_SCALE_FACTOR)
                ? OptionalDouble.of(realValue(VACUUM_SCALE_FACTOR, values.get(VACUUM_SCALE_FACTOR)))
                : OptionalDouble.empty();
    }

    /**
     * These parameters with {@code set} (name to the text written, null when written without a
     * value: true for a boolean) set, for a table that is {@code partitioned} or not. Every entry is
     * checked before any takes effect: an error leaves the table's parameters as they were.
     */
    public StorageParameters with(Map<String, String> set, boolean partitioned) {
        Map<String, String> next = new LinkedHashMap<>(values);
        for (Map.Entry<String, String> entry : set.entrySet()) {
            String name = entry.getKey().toLowerCase(Locale.ROOT);
            if (!isKnown(name) || (partitioned && !name.equals(PARALLEL_WORKERS))) {
                throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "unrecognized parameter \"%s\"", entry.getKey());
            }
            String value = entry.getValue();
            if (value == null) {
                if (!name.equals(AUTOVACUUM_ENABLED)) {
                    throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for %s option \"%s\": true", kindOf(name), name);
                }
                value = "true";
            }
            next.remove(name);
            next.put(name, value);
        }
        // Checks every value (the constructor parses them all).
        return new StorageParameters(java.util.Collections.unmodifiableMap(next));
    }

    /** These parameters without {@code names}; PostgreSQL ignores names that are not set, known or not. */
    public StorageParameters without(Collection<String> names) {
        if (names.isEmpty()) {
            return this;
        }
        Map<String, String> next = new LinkedHashMap<>(values);
        for (String name : names) {
            next.remove(name.toLowerCase(Locale.ROOT));
        }
        return next.isEmpty() ? NONE : new StorageParameters(java.util.Collections.unmodifiableMap(next));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** pg_class.reloptions' entries: {@code name=value}, in order. */
    public List<String> entries() {
        List<String> entries = new ArrayList<>(values.size());
        values.forEach((name, value) -> entries.add(name + "=" + value));
        return entries;
    }

    /** The {@code parallel_workers} reloption, when set. */
    public OptionalInt parallelWorkers() {
        return parallelWorkers;
    }

    /** {@code autovacuum_enabled}, when set: false keeps autovacuum away from the table. */
    public Optional<Boolean> autovacuumEnabled() {
        return autovacuumEnabled;
    }

    /** {@code autovacuum_vacuum_threshold}, when set: overrides the database's for this table. */
    public OptionalLong vacuumThreshold() {
        return vacuumThreshold;
    }

    /** {@code autovacuum_vacuum_scale_factor}, when set: overrides the database's for this table. */
    public OptionalDouble vacuumScaleFactor() {
        return vacuumScaleFactor;
    }

    private static boolean isKnown(String name) {
        return name.equals(PARALLEL_WORKERS) || name.equals(FILLFACTOR) || name.equals(AUTOVACUUM_ENABLED) || name.equals(VACUUM_THRESHOLD)
                || name.equals(VACUUM_SCALE_FACTOR);
    }

    private static String kindOf(String name) {
        return switch (name) {
            case AUTOVACUUM_ENABLED -> "boolean";
            case VACUUM_SCALE_FACTOR -> "floating point";
            default -> "integer";
        };
    }

    private static long integerValue(String name, String text, long minimum, long maximum) {
        long value;
        try {
            value = Long.parseLong(text.strip());
        } catch (NumberFormatException notAnInteger) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for integer option \"%s\": %s", name, text);
        }
        if (value < minimum || value > maximum) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "value %s out of bounds for option \"%s\"", text, name)
                    .withDetail("Valid values are between \"" + minimum + "\" and \"" + maximum + "\".");
        }
        return value;
    }

    private static boolean booleanValue(String name, String text) {
        try {
            return ValueText.parseBoolean(text) != 0;
        } catch (ParallaxException notABoolean) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for boolean option \"%s\": %s", name, text);
        }
    }

    private static double realValue(String name, String text) {
        double value;
        try {
            value = Double.parseDouble(text.strip());
        } catch (NumberFormatException notANumber) {
            value = Double.NaN;
        }
        if (Double.isNaN(value)) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "invalid value for floating point option \"%s\": %s", name, text);
        }
        if (value < 0 || value > MAX_SCALE_FACTOR) {
            throw ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE, "value %s out of bounds for option \"%s\"", text, name)
                    .withDetail(String.format(Locale.ROOT, "Valid values are between \"%f\" and \"%f\".", 0.0, MAX_SCALE_FACTOR));
        }
        return value;
    }
}
