package dev.parallax.engine.settings;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.HashMap;
import java.util.Map;

/**
 * A session's settings (SET / SHOW / RESET). Owned by one session; {@link #snapshot()} gives the
 * immutable copy a statement runs with, so that worker threads never see a setting change mid-query.
 */
public final class Settings {
    private final Map<String, String> values;

    public Settings() {
        this.values = new HashMap<>();
    }

    private Settings(Map<String, String> values) {
        this.values = values;
    }

    /** SET name = value: validates and stores the canonical form. */
    public void set(String name, String value) {
        SettingDefinition definition = definition(name);
        values.put(definition.name(), SettingValues.canonical(definition, value));
    }

    /** RESET name: back to the default. */
    public void reset(String name) {
        values.remove(definition(name).name());
    }

    public void resetAll() {
        values.clear();
    }

    /** SHOW name: the current value as text. */
    public String show(String name) {
        SettingDefinition definition = definition(name);
        String value = values.get(definition.name());
        return value != null ? value : SettingValues.canonical(definition, definition.defaultValue());
    }

    public boolean getBoolean(String name) {
        SettingDefinition definition = definition(name);
        return SettingValues.parseBoolean(definition, show(name));
    }

    public long getLong(String name) {
        SettingDefinition definition = definition(name);
        return SettingValues.parseInteger(definition, show(name));
    }

    public int getInt(String name) {
        return Math.toIntExact(getLong(name));
    }

    public double getDouble(String name) {
        SettingDefinition definition = definition(name);
        return SettingValues.parseReal(definition, show(name));
    }

    /** A MEMORY setting in bytes. */
    public long getBytes(String name) {
        SettingDefinition definition = definition(name);
        return SettingValues.parseMemoryUnits(definition, show(name)) * definition.unitBytes();
    }

    /** {@code debug_parallel_query} or its old name {@code force_parallel_mode} is on (or regress). */
    public boolean debugParallelQuery() {
        return !show("debug_parallel_query").equals("off") || !show("force_parallel_mode").equals("off");
    }

    /** An independent copy; changes to either do not affect the other. */
    public Settings snapshot() {
        return new Settings(new HashMap<>(values));
    }

    /** Settings that differ from their defaults, for plan-cache keys. */
    public Map<String, String> changed() {
        return Map.copyOf(values);
    }

    private static SettingDefinition definition(String name) {
        SettingDefinition definition = SettingRegistry.find(name);
        if (definition == null) {
            throw ParallaxException.of(SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
        }
        return definition;
    }
}
