package dev.parallax.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * psql's {@code \set} variables and their interpolation into SQL: {@code :name} becomes the value,
 * {@code :'name'} the value as a string literal and {@code :"name"} as a quoted identifier —
 * outside string literals, quoted identifiers and comments only. An unset name is left as written,
 * and {@code ::} is a cast, never a variable.
 *
 * <p>{@code ON_ERROR_STOP} is one of psql's special variables: it always holds a value ({@code off}
 * until set, and again after it is unset), set without a value it is {@code on}, and a value that
 * is not a boolean is refused, leaving the old one.
 */
public final class ShellVariables {
    /** Whether a script stops at its first failed statement or command. */
    public static final String ON_ERROR_STOP = "ON_ERROR_STOP";

    private final Map<String, String> values = new TreeMap<>(Map.of(ON_ERROR_STOP, "off"));

    /**
     * Sets {@code name} to {@code value}.
     *
     * @throws IllegalArgumentException with psql's message when {@code name} is a boolean
     *         variable and {@code value} is not a boolean; the variable keeps its value
     */
    public void set(String name, String value) {
        if (name.equals(ON_ERROR_STOP)) {
            String given = value.isEmpty() ? "on" : value;
            if (parseBoolean(given) == null) {
                throw new IllegalArgumentException("unrecognized value \"" + value + "\" for \"" + name + "\": Boolean expected");
            }
            values.put(name, given);
            return;
        }
        values.put(name, value);
    }

    public void unset(String name) {
        if (name.equals(ON_ERROR_STOP)) {
            values.put(name, "off");
            return;
        }
        values.remove(name);
    }

    /** Whether {@code ON_ERROR_STOP} is on. */
    public boolean onErrorStop() {
        return Boolean.TRUE.equals(parseBoolean(values.get(ON_ERROR_STOP)));
    }

    /**
     * psql's boolean spellings, unique prefixes included ({@code t}, {@code of}; {@code o} is
     * ambiguous); null when {@code text} is not one.
     */
    static Boolean parseBoolean(String text) {
        String value = text.toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            return null;
        }
        if ("true".startsWith(value) || "yes".startsWith(value) || value.equals("1")
                || (value.length() >= 2 && "on".startsWith(value))) {
            return Boolean.TRUE;
        }
        if ("false".startsWith(value) || "no".startsWith(value) || value.equals("0")
                || (value.length() >= 2 && "off".startsWith(value))) {
            return Boolean.FALSE;
        }
        return null;
    }

    /** The value of {@code name}, or null. */
    public String get(String name) {
        return values.get(name);
    }

    /** Every variable, by name. */
    public Map<String, String> all() {
        return Collections.unmodifiableMap(values);
    }

    /** psql accepts letters, digits and underscores. */
    static boolean isValidName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int index = 0; index < name.length(); index++) {
            if (!isNameCharacter(name.charAt(index))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isNameCharacter(char character) {
        return Character.isLetterOrDigit(character) || character == '_' || character > 0x7F;
    }

    /** Meta-command arguments from index {@code from} on that are exactly {@code :name} take the value. */
    List<String> substituteArguments(List<String> arguments, int from) {
        if (values.isEmpty()) {
            return arguments;
        }
        List<String> result = new ArrayList<>(arguments);
        for (int index = from; index < result.size(); index++) {
            String argument = result.get(index);
            if (argument.length() > 1 && argument.charAt(0) == ':') {
                String value = values.get(argument.substring(1));
                if (value != null) {
                    result.set(index, value);
                }
            }
        }
        return result;
    }

    /** {@code sql} with the variables interpolated. */
    public String substitute(String sql) {
        if (values.isEmpty() || sql.indexOf(':') < 0) {
            return sql;
        }
        StringBuilder result = new StringBuilder(sql.length());
        int index = 0;
        int length = sql.length();
        while (index < length) {
            char character = sql.charAt(index);
            int skipped = skipQuotedOrComment(sql, index);
            if (skipped > index) {
                result.append(sql, index, skipped);
                index = skipped;
                continue;
            }
            if (character == ':' && index + 1 < length) {
                char next = sql.charAt(index + 1);
                if (next == ':') {
                    result.append("::");
                    index += 2;
                    continue;
                }
                if ((next == '\'' || next == '"') && index + 2 < length) {
                    int close = sql.indexOf(next, index + 2);
                    if (close > index + 2) {
                        String value = values.get(sql.substring(index + 2, close));
                        if (value != null) {
                            result.append(next == '\'' ? literal(value) : identifier(value));
                            index = close + 1;
                            continue;
                        }
                    }
                } else if (isNameCharacter(next)) {
                    int end = index + 1;
                    while (end < length && isNameCharacter(sql.charAt(end))) {
                        end++;
                    }
                    String value = values.get(sql.substring(index + 1, end));
                    if (value != null) {
                        result.append(value);
                        index = end;
                        continue;
                    }
                }
            }
            result.append(character);
            index++;
        }
        return result.toString();
    }

    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static String identifier(String value) {
        return "\"" + value.replace("\"", "\"\"") + "\"";
    }

    /** The end of a string, quoted identifier or comment starting at {@code index}, or {@code index}. */
    private static int skipQuotedOrComment(String sql, int index) {
        char character = sql.charAt(index);
        int length = sql.length();
        if (character == '\'' || character == '"') {
            int position = index + 1;
            while (position < length) {
                if (sql.charAt(position) == character) {
                    if (position + 1 < length && sql.charAt(position + 1) == character) {
                        position += 2;
                        continue;
                    }
                    return position + 1;
                }
                position++;
            }
            return length;
        }
        if (character == '-' && index + 1 < length && sql.charAt(index + 1) == '-') {
            int end = sql.indexOf('\n', index);
            return end < 0 ? length : end;
        }
        if (character == '/' && index + 1 < length && sql.charAt(index + 1) == '*') {
            int end = sql.indexOf("*/", index + 2);
            return end < 0 ? length : end + 2;
        }
        return index;
    }
}
