package dev.parallax.planner.statement;

import dev.parallax.engine.error.ParallaxException;
import dev.parallax.engine.error.SqlState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.parallax.planner.statement.RelationName.unqualified;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** PARTITION BY HASH and PARTITION OF ... FOR VALUES WITH parsing, with PostgreSQL's errors. */
class PartitionStatementParserTest {
    private static ParallaxException failure(String sql) {
        return assertThrows(ParallaxException.class, () -> StatementParser.parse(sql));
    }

    @Test
    void partitionByHash() {
        CreateTableStatement create = (CreateTableStatement) StatementParser.parse(
                "create table p (id int primary key, info text, crt_time timestamp) partition by hash (id)");
        assertEquals(new HashPartitioning(List.of("id"), 0), create.partitioning());
        CreateTableStatement shorthand = (CreateTableStatement) StatementParser.parse(
                "CREATE TABLE p (a int, b text, PRIMARY KEY (a, b)) PARTITION BY HASH (a, b) PARTITIONS 1024;");
        assertEquals(new HashPartitioning(List.of("a", "b"), 1024), shorthand.partitioning());
        assertNull(((CreateTableStatement) StatementParser.parse("create table t (a int)")).partitioning());
    }

    @Test
    void partitionOf() {
        assertEquals(new CreatePartitionStatement("p_0", false, unqualified("p"), 1024, 0),
                StatementParser.parse("create table p_0 partition of p for values with (modulus 1024, remainder 0)"));
        assertEquals(new CreatePartitionStatement("p_1", true, new RelationName(RelationName.Schema.PUBLIC, "p"), 4, 1),
                StatementParser.parse("CREATE TABLE IF NOT EXISTS p_1 PARTITION OF public.p FOR VALUES WITH (REMAINDER 1, MODULUS 4)"));
    }

    @Test
    void errors() {
        assertEquals(SqlState.UNDEFINED_COLUMN, failure("create table p (a int) partition by hash (b)").state());
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, failure("create table p (a int) partition by range (a)").state());
        assertEquals(SqlState.INVALID_TABLE_DEFINITION, failure("create table p (a int) partition by hash (a) partitions 0").state());
        ParallaxException key = failure("create table p (a int, b int primary key) partition by hash (a)");
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, key.state());
        assertEquals("unique constraint on partitioned table must include all partitioning columns", key.getMessage());
        assertEquals("PRIMARY KEY constraint on table \"p\" lacks column \"a\" which is part of the partition key.", key.detail());
        assertEquals(SqlState.INVALID_TABLE_DEFINITION, failure("create table q partition of p for values with (modulus 0, remainder 0)").state());
        assertEquals("remainder for hash partition must be less than modulus",
                failure("create table q partition of p for values with (modulus 4, remainder 4)").getMessage());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create table q partition of p for values with (modulus 4)").state());
        assertEquals(SqlState.SYNTAX_ERROR, failure("create table q partition of p for values with (modulus 4, remainder -1)").state());
        assertEquals("invalid bound specification for a hash partition",
                failure("create table q partition of p for values in (1)").getMessage());
        assertEquals("a hash-partitioned table may not have a default partition", failure("create table q partition of p default").getMessage());
    }
}
