package dev.parallax.planner.statement;

import java.util.List;
import java.util.Map;

/**
 * {@code ALTER TABLE name SET (option = value, ...)} and {@code ALTER TABLE name RESET (option, ...)}:
 * storage parameters (reloptions). {@code set} maps option names to their text value (null when
 * written without a value); {@code reset} lists options to remove.
 */
public record AlterTableOptionsStatement(RelationName tableName, Map<String, String> set, List<String> reset) implements Statement {
    public AlterTableOptionsStatement {
        set = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(set));
        reset = List.copyOf(reset);
    }
}
