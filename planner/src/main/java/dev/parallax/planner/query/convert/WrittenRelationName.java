package dev.parallax.planner.query.convert;

import java.util.Locale;

/**
 * A relation name written in a string, as regclass and the sequence functions read it
 * ({@code 'public.t'}, {@code '"Mixed"'}): the schema dropped (every relation lives in public),
 * folded to lower case unless quoted.
 */
public final class WrittenRelationName {
    private WrittenRelationName() {
    }

    /** The catalog name {@code written} refers to. */
    public static String unqualified(String written) {
        String name = written.strip();
        int dot = name.lastIndexOf('.');
        if (dot >= 0 && !name.endsWith("\"")) {
            name = name.substring(dot + 1);
        } else if (name.startsWith("public.") || name.startsWith("pg_catalog.")) {
            name = name.substring(name.indexOf('.') + 1);
        }
        if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name.toLowerCase(Locale.ROOT);
    }
}
