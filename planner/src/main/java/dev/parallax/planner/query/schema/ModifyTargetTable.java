package dev.parallax.planner.query.schema;

import dev.parallax.engine.catalog.Table;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Wrapper;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The target of an UPDATE or DELETE whose rows come out of a query (a join with FROM / USING
 * tables, a subquery in WHERE or SET): the table's columns followed by two hidden ones, the row's
 * id ({@link #ROW_ID}, PostgreSQL's ctid) and its partition's ordinal ({@link #PARTITION_ORDINAL},
 * PostgreSQL's tableoid), which a scan of it reads as the pseudo-columns of
 * {@link dev.parallax.engine.plan.SeqScanNode}. Found only in the schema {@link #SCHEMA}, whose name
 * no unquoted identifier can spell; unwraps to the table's {@link EngineTable}, whose statistics
 * the planner reads.
 */
public final class ModifyTargetTable extends AbstractTable implements Wrapper {
    /** The schema of these tables. */
    public static final String SCHEMA = "parallax$modify";

    /**
     * The schema of the targets a statement names with {@code writtenSchema} ({@code public},
     * {@code pg_temp}): {@link #SCHEMA} for an unqualified name (a temporary table first), else
     * one holding only that schema's tables.
     */
    public static String schema(String writtenSchema) {
        return writtenSchema == null ? SCHEMA : SCHEMA + "$" + writtenSchema;
    }

    public static final String ROW_ID = "parallax$ctid";
    public static final String PARTITION_ORDINAL = "parallax$tableoid";

    private final EngineTable table;

    public ModifyTargetTable(EngineTable table) {
        this.table = table;
    }

    public Table table() {
        return table.table();
    }

    /** Whether {@code name} is one of the hidden columns. */
    public static boolean isHidden(String name) {
        return name.equals(ROW_ID) || name.equals(PARTITION_ORDINAL);
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder builder = typeFactory.builder().addAll(table.getRowType(typeFactory).getFieldList());
        builder.add(ROW_ID, typeFactory.createSqlType(SqlTypeName.BIGINT));
        builder.add(PARTITION_ORDINAL, typeFactory.createSqlType(SqlTypeName.INTEGER));
        return builder.build();
    }

    @Override
    public Statistic getStatistic() {
        return table.getStatistic();
    }

    @Override
    public <C> C unwrap(Class<C> wanted) {
        return wanted.isInstance(table) ? wanted.cast(table) : null;
    }
}
