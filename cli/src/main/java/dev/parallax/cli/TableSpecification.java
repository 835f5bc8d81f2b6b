package dev.parallax.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code -t TABLE[(COLUMNS)]} argument of {@code parallax vacuum}, read as vacuumdb reads it: the
 * table is an SQL name (unquoted parts fold to lower case, {@code "Quoted"} parts keep their case,
 * {@code schema.table} is allowed), the column list after the first unquoted {@code (} is passed on
 * as written.
 *
 * @param schema  the schema, or null when the name is not qualified
 * @param name    the table's name as the catalog spells it
 * @param columns the column list with its parentheses, or empty
 */
record TableSpecification(String schema, String name, String columns) {
    /** Parses {@code text}; {@link IllegalArgumentException} with PostgreSQL's "invalid name syntax" when it is not a name. */
    static TableSpecification parse(String text) {
        int columnsStart = -1;
        boolean quoted = false;
        for (int index = 0; index < text.length() && columnsStart < 0; index++) {
            char character = text.charAt(index);
            if (character == '"') {
                quoted = !quoted;
            } else if (character == '(' && !quoted) {
                columnsStart = index;
            }
        }
        String table = (columnsStart < 0 ? text : text.substring(0, columnsStart)).strip();
        String columns = columnsStart < 0 ? "" : text.substring(columnsStart).strip();
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        int index = 0;
        while (true) {
            if (index < table.length() && table.charAt(index) == '"') {
                index++;
                while (true) {
                    if (index == table.length()) {
                        throw invalid(text);
                    }
                    char character = table.charAt(index++);
                    if (character != '"') {
                        part.append(character);
                    } else if (index < table.length() && table.charAt(index) == '"') {
                        part.append('"');
                        index++;
                    } else {
                        break;
                    }
                }
            } else {
                // As PostgreSQL's SplitIdentifierString: an unquoted name runs to a dot or a space.
                int start = index;
                while (index < table.length() && table.charAt(index) != '.' && !Character.isWhitespace(table.charAt(index))) {
                    index++;
                }
                part.append(table.substring(start, index).toLowerCase(Locale.ROOT));
            }
            if (part.isEmpty()) {
                throw invalid(text);
            }
            parts.add(part.toString());
            part.setLength(0);
            while (index < table.length() && Character.isWhitespace(table.charAt(index))) {
                index++;
            }
            if (index == table.length()) {
                break;
            }
            if (table.charAt(index) != '.') {
                throw invalid(text);
            }
            index++;
            while (index < table.length() && Character.isWhitespace(table.charAt(index))) {
                index++;
            }
        }
        if (parts.size() > 2) {
            throw invalid(text);
        }
        return parts.size() == 2 ? new TableSpecification(parts.get(0), parts.get(1), columns)
                : new TableSpecification(null, parts.getFirst(), columns);
    }

    /** The table (and its column list) as SQL; names are quoted, so that one spelled like a keyword stays a name. */
    String sql() {
        String table = schema == null ? identifier(name) : identifier(schema) + "." + identifier(name);
        return columns.isEmpty() ? table : table + " " + columns;
    }

    /** The table as vacuumdb names it in messages: {@code public.name} unless another schema was given. */
    String qualifiedName() {
        return (schema == null ? "public" : schema) + "." + name;
    }

    private static String identifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid name syntax: \"" + text + "\"");
    }
}
