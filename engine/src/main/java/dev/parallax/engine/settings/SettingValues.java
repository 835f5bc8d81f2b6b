package dev.parallax.engine.settings;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;

import java.util.Locale;

/** Parsing and printing of setting values with PostgreSQL's spellings and error messages. */
final class SettingValues {
    private SettingValues() {
    }

    /** Validates {@code text} for {@code definition} and returns its canonical text form. */
    static String canonical(SettingDefinition definition, String text) {
        String value = text.trim();
        return switch (definition.type()) {
            case BOOLEAN -> parseBoolean(definition, value) ? "on" : "off";
            case INTEGER -> Long.toString(checkRange(definition, parseInteger(definition, value)));
            case REAL -> formatReal(checkRange(definition, parseReal(definition, value)));
            case MEMORY -> formatMemory(checkRange(definition, parseMemoryUnits(definition, value)), definition.unitBytes());
            case ENUM -> {
                String lower = value.toLowerCase(Locale.ROOT);
                for (String allowed : definition.allowedValues()) {
                    if (allowed.equals(lower)) {
                        yield allowed;
                    }
                }
                throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"" + definition.name() + "\": \"" + value + "\"")
                        .withHint("Available values: " + String.join(", ", definition.allowedValues()) + ".");
            }
            case TIME_ZONE -> dev.parallax.engine.type.SessionTimeZone.ofSetting(value).name();
            case STRING -> value;
        };
    }

    static boolean parseBoolean(SettingDefinition definition, String value) {
        switch (value.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1", "t", "y" -> {
                return true;
            }
            case "off", "false", "no", "0", "f", "n" -> {
                return false;
            }
            default -> throw invalid(definition, value, "requires a Boolean value");
        }
    }

    static long parseInteger(SettingDefinition definition, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notAnInteger) {
            throw invalid(definition, value, null);
        }
    }

    static double parseReal(SettingDefinition definition, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException notANumber) {
            throw invalid(definition, value, null);
        }
    }

    /** Amount in the setting's units; suffixes B, kB, MB, GB, TB as PostgreSQL accepts them. */
    static long parseMemoryUnits(SettingDefinition definition, String value) {
        String trimmed = value.trim();
        int split = 0;
        while (split < trimmed.length() && (Character.isDigit(trimmed.charAt(split)) || trimmed.charAt(split) == '-')) {
            split++;
        }
        if (split == 0) {
            throw invalid(definition, value, null);
        }
        long number;
        try {
            number = Long.parseLong(trimmed.substring(0, split));
        } catch (NumberFormatException tooLarge) {
            throw invalid(definition, value, null);
        }
        String unit = trimmed.substring(split).trim();
        long multiplier = switch (unit) {
            case "" -> definition.unitBytes();
            case "B" -> 1L;
            case "kB" -> 1024L;
            case "MB" -> 1024L * 1024;
            case "GB" -> 1024L * 1024 * 1024;
            case "TB" -> 1024L * 1024 * 1024 * 1024;
            default -> throw new ParallaxException(SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"" + definition.name() + "\": \"" + value + "\"")
                    .withHint("Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".");
        };
        return Math.multiplyExact(number, multiplier) / definition.unitBytes();
    }

    static String formatMemory(long units, long unitBytes) {
        long bytes = units * unitBytes;
        if (bytes != 0 && bytes % (1024L * 1024 * 1024 * 1024) == 0) {
            return bytes / (1024L * 1024 * 1024 * 1024) + "TB";
        }
        if (bytes != 0 && bytes % (1024L * 1024 * 1024) == 0) {
            return bytes / (1024L * 1024 * 1024) + "GB";
        }
        if (bytes != 0 && bytes % (1024L * 1024) == 0) {
            return bytes / (1024L * 1024) + "MB";
        }
        if (bytes % 1024 == 0) {
            return bytes / 1024 + "kB";
        }
        return bytes + "B";
    }

    static String formatReal(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    private static long checkRange(SettingDefinition definition, long value) {
        if (value < definition.minimum() || value > definition.maximum()) {
            throw outOfRange(definition, Long.toString(value),
                    formatReal(definition.minimum()), formatReal(definition.maximum()));
        }
        return value;
    }

    private static double checkRange(SettingDefinition definition, double value) {
        if (!(value >= definition.minimum() && value <= definition.maximum())) {
            throw outOfRange(definition, formatReal(value),
                    formatReal(definition.minimum()), formatReal(definition.maximum()));
        }
        return value;
    }

    private static ParallaxException outOfRange(SettingDefinition definition, String value, String minimum, String maximum) {
        return ParallaxException.of(SqlState.INVALID_PARAMETER_VALUE,
                "%s is outside the valid range for parameter \"%s\" (%s .. %s)", value, definition.name(), minimum, maximum);
    }

    private static ParallaxException invalid(SettingDefinition definition, String value, String reason) {
        String message = reason == null
                ? "invalid value for parameter \"" + definition.name() + "\": \"" + value + "\""
                : "parameter \"" + definition.name() + "\" " + reason;
        return new ParallaxException(SqlState.INVALID_PARAMETER_VALUE, message);
    }
}
