package dev.parallax.planner.statement;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name PARTITION OF parent FOR VALUES WITH (MODULUS m, REMAINDER r)}.
 * The bound's numbers are checked (42P16 as PostgreSQL) when parsed; the overlap and modulus rules
 * against the existing partitions when the partition is added. {@code temporary} is null for a
 * permanent partition.
 */
public record CreatePartitionStatement(String tableName, boolean ifNotExists, RelationName parentName, int modulus,
                                       int remainder, Map<String, String> storageParameters,
                                       TemporaryTable temporary) implements Statement {
    public CreatePartitionStatement {
        storageParameters = Collections.unmodifiableMap(new LinkedHashMap<>(storageParameters));
    }

    /** A permanent partition. */
    public CreatePartitionStatement(String tableName, boolean ifNotExists, RelationName parentName, int modulus, int remainder,
                                    Map<String, String> storageParameters) {
        this(tableName, ifNotExists, parentName, modulus, remainder, storageParameters, null);
    }

    /** A permanent partition without storage parameters. */
    public CreatePartitionStatement(String tableName, boolean ifNotExists, RelationName parentName, int modulus, int remainder) {
        this(tableName, ifNotExists, parentName, modulus, remainder, Map.of());
    }
}
