package dev.parallax.engine.settings;

import java.util.List;

/**
 * A setting known to Parallax: its name, type, default (as text, in PostgreSQL's spelling), bounds
 * and description. {@code unitBytes} is the base unit of a MEMORY setting (1024 for kB-based ones
 * such as {@code work_mem}, 8192 for block-based ones such as {@code min_parallel_table_scan_size}).
 */
public record SettingDefinition(String name, SettingType type, String defaultValue, double minimum, double maximum,
                                long unitBytes, List<String> allowedValues, String description) {
    public SettingDefinition {
        allowedValues = List.copyOf(allowedValues);
    }

    static SettingDefinition bool(String name, boolean defaultValue, String description) {
        return new SettingDefinition(name, SettingType.BOOLEAN, defaultValue ? "on" : "off", 0, 1, 0, List.of(), description);
    }

    static SettingDefinition integer(String name, long defaultValue, long minimum, long maximum, String description) {
        return new SettingDefinition(name, SettingType.INTEGER, Long.toString(defaultValue), minimum, maximum, 0, List.of(), description);
    }

    static SettingDefinition real(String name, double defaultValue, double minimum, double maximum, String description) {
        return new SettingDefinition(name, SettingType.REAL, SettingValues.formatReal(defaultValue), minimum, maximum, 0, List.of(), description);
    }

    static SettingDefinition memory(String name, String defaultValue, long unitBytes, long minimumUnits, long maximumUnits, String description) {
        return new SettingDefinition(name, SettingType.MEMORY, defaultValue, minimumUnits, maximumUnits, unitBytes, List.of(), description);
    }

    static SettingDefinition enumeration(String name, String defaultValue, List<String> allowedValues, String description) {
        return new SettingDefinition(name, SettingType.ENUM, defaultValue, 0, 0, 0, allowedValues, description);
    }

    static SettingDefinition timeZone(String name, String defaultValue, String description) {
        return new SettingDefinition(name, SettingType.TIME_ZONE, defaultValue, 0, 0, 0, List.of(), description);
    }

    static SettingDefinition string(String name, String defaultValue, String description) {
        return new SettingDefinition(name, SettingType.STRING, defaultValue, 0, 0, 0, List.of(), description);
    }
}
