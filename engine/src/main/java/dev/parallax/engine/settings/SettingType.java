package dev.parallax.engine.settings;

/** How a setting's text is parsed and printed. */
public enum SettingType {
    BOOLEAN,
    INTEGER,
    REAL,
    /** An amount of memory: integers in {@link SettingDefinition#unitBytes()} units or with kB, MB, GB, TB suffixes. */
    MEMORY,
    /** One of {@link SettingDefinition#allowedValues()}. */
    ENUM,
    /** A time zone ({@link dev.parallax.engine.type.SessionTimeZone}), shown in its canonical spelling. */
    TIME_ZONE,
    STRING
}
