package dev.parallax.engine.tpch;

import dev.parallax.engine.catalog.ColumnDefinition;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;
import io.trino.tpch.Customer;
import io.trino.tpch.LineItem;
import io.trino.tpch.Nation;
import io.trino.tpch.Order;
import io.trino.tpch.Part;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.Region;
import io.trino.tpch.Supplier;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

import java.util.List;

/**
 * One TPC-H table: its PostgreSQL schema (dbgen's dss.ddl: integer keys, decimal(15,2) money,
 * char(n)/varchar(n) text, dates) and how a generated row becomes batch values. Values are taken
 * from the generator's exact accessors: money in cents (= decimal(15,2) scaled long), discount and
 * tax as whole percent (= scaled by 100), dates as days since 1970-01-01.
 */
abstract sealed class TpchTableWriter<E extends TpchEntity> {
    private static final DataType MONEY = DataType.decimal(15, 2);

    final TpchTable<E> table;
    final String name;
    final List<ColumnDefinition> columns;
    /** Rows at scale 1 (lineitem: about, it varies with the orders' line counts); 0 = fixed size. */
    private final long rowsAtScaleOne;
    private final long fixedRows;

    private TpchTableWriter(TpchTable<E> table, String name, long rowsAtScaleOne, long fixedRows, List<ColumnDefinition> columns) {
        this.table = table;
        this.name = name;
        this.rowsAtScaleOne = rowsAtScaleOne;
        this.fixedRows = fixedRows;
        this.columns = columns;
    }

    /** The eight tables, the small ones first. */
    static List<TpchTableWriter<?>> all(double scaleFactor) {
        boolean wideOrderKeys = 6_000_000.0 * scaleFactor > Integer.MAX_VALUE;
        return List.of(new RegionWriter(), new NationWriter(), new SupplierWriter(), new CustomerWriter(),
                new PartWriter(), new PartSupplierWriter(), new OrdersWriter(wideOrderKeys), new LineItemWriter(wideOrderKeys));
    }

    long expectedRows(double scaleFactor) {
        return fixedRows > 0 ? fixedRows : Math.max(1, (long) (rowsAtScaleOne * scaleFactor));
    }

    /** Whether the generator honours parts (nation and region always generate the whole table). */
    boolean splittable() {
        return fixedRows == 0;
    }

    /** Writes {@code row} at {@code position} of {@code vectors} (in column order). */
    abstract void write(E row, ColumnVector[] vectors, int position);

    private static ColumnDefinition column(String name, DataType type) {
        return new ColumnDefinition(name, type, true);
    }

    private static void setLong(ColumnVector[] vectors, int column, int position, long value) {
        ((LongVector) vectors[column]).set(position, value);
    }

    /** Stores ASCII text (all TPC-H text is ASCII), blank-padded to {@code padTo} characters for char(n). */
    private static void setText(ColumnVector[] vectors, int column, int position, String text, int padTo) {
        BytesVector vector = (BytesVector) vectors[column];
        int length = Math.max(text.length(), padTo);
        int at = vector.reserve(position, length);
        byte[] data = vector.data();
        int index = 0;
        for (; index < text.length(); index++) {
            data[at + index] = (byte) text.charAt(index);
        }
        for (; index < length; index++) {
            data[at + index] = ' ';
        }
    }

    private static void setText(ColumnVector[] vectors, int column, int position, String text) {
        setText(vectors, column, position, text, 0);
    }

    static final class RegionWriter extends TpchTableWriter<Region> {
        RegionWriter() {
            super(TpchTable.REGION, "region", 0, 5, List.of(
                    column("r_regionkey", DataType.INTEGER),
                    column("r_name", DataType.charType(25)),
                    column("r_comment", DataType.varchar(152))));
        }

        @Override
        void write(Region row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getRegionKey());
            setText(vectors, 1, position, row.getName(), 25);
            setText(vectors, 2, position, row.getComment());
        }
    }

    static final class NationWriter extends TpchTableWriter<Nation> {
        NationWriter() {
            super(TpchTable.NATION, "nation", 0, 25, List.of(
                    column("n_nationkey", DataType.INTEGER),
                    column("n_name", DataType.charType(25)),
                    column("n_regionkey", DataType.INTEGER),
                    column("n_comment", DataType.varchar(152))));
        }

        @Override
        void write(Nation row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getNationKey());
            setText(vectors, 1, position, row.getName(), 25);
            setLong(vectors, 2, position, row.getRegionKey());
            setText(vectors, 3, position, row.getComment());
        }
    }

    static final class SupplierWriter extends TpchTableWriter<Supplier> {
        SupplierWriter() {
            super(TpchTable.SUPPLIER, "supplier", 10_000, 0, List.of(
                    column("s_suppkey", DataType.INTEGER),
                    column("s_name", DataType.charType(25)),
                    column("s_address", DataType.varchar(40)),
                    column("s_nationkey", DataType.INTEGER),
                    column("s_phone", DataType.charType(15)),
                    column("s_acctbal", MONEY),
                    column("s_comment", DataType.varchar(101))));
        }

        @Override
        void write(Supplier row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getSupplierKey());
            setText(vectors, 1, position, row.getName(), 25);
            setText(vectors, 2, position, row.getAddress());
            setLong(vectors, 3, position, row.getNationKey());
            setText(vectors, 4, position, row.getPhone(), 15);
            setLong(vectors, 5, position, row.getAccountBalanceInCents());
            setText(vectors, 6, position, row.getComment());
        }
    }

    static final class CustomerWriter extends TpchTableWriter<Customer> {
        CustomerWriter() {
            super(TpchTable.CUSTOMER, "customer", 150_000, 0, List.of(
                    column("c_custkey", DataType.INTEGER),
                    column("c_name", DataType.varchar(25)),
                    column("c_address", DataType.varchar(40)),
                    column("c_nationkey", DataType.INTEGER),
                    column("c_phone", DataType.charType(15)),
                    column("c_acctbal", MONEY),
                    column("c_mktsegment", DataType.charType(10)),
                    column("c_comment", DataType.varchar(117))));
        }

        @Override
        void write(Customer row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getCustomerKey());
            setText(vectors, 1, position, row.getName());
            setText(vectors, 2, position, row.getAddress());
            setLong(vectors, 3, position, row.getNationKey());
            setText(vectors, 4, position, row.getPhone(), 15);
            setLong(vectors, 5, position, row.getAccountBalanceInCents());
            setText(vectors, 6, position, row.getMarketSegment(), 10);
            setText(vectors, 7, position, row.getComment());
        }
    }

    static final class PartWriter extends TpchTableWriter<Part> {
        PartWriter() {
            super(TpchTable.PART, "part", 200_000, 0, List.of(
                    column("p_partkey", DataType.INTEGER),
                    column("p_name", DataType.varchar(55)),
                    column("p_mfgr", DataType.charType(25)),
                    column("p_brand", DataType.charType(10)),
                    column("p_type", DataType.varchar(25)),
                    column("p_size", DataType.INTEGER),
                    column("p_container", DataType.charType(10)),
                    column("p_retailprice", MONEY),
                    column("p_comment", DataType.varchar(23))));
        }

        @Override
        void write(Part row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getPartKey());
            setText(vectors, 1, position, row.getName());
            setText(vectors, 2, position, row.getManufacturer(), 25);
            setText(vectors, 3, position, row.getBrand(), 10);
            setText(vectors, 4, position, row.getType());
            setLong(vectors, 5, position, row.getSize());
            setText(vectors, 6, position, row.getContainer(), 10);
            setLong(vectors, 7, position, row.getRetailPriceInCents());
            setText(vectors, 8, position, row.getComment());
        }
    }

    static final class PartSupplierWriter extends TpchTableWriter<PartSupplier> {
        PartSupplierWriter() {
            super(TpchTable.PART_SUPPLIER, "partsupp", 800_000, 0, List.of(
                    column("ps_partkey", DataType.INTEGER),
                    column("ps_suppkey", DataType.INTEGER),
                    column("ps_availqty", DataType.INTEGER),
                    column("ps_supplycost", MONEY),
                    column("ps_comment", DataType.varchar(199))));
        }

        @Override
        void write(PartSupplier row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getPartKey());
            setLong(vectors, 1, position, row.getSupplierKey());
            setLong(vectors, 2, position, row.getAvailableQuantity());
            setLong(vectors, 3, position, row.getSupplyCostInCents());
            setText(vectors, 4, position, row.getComment());
        }
    }

    static final class OrdersWriter extends TpchTableWriter<Order> {
        OrdersWriter(boolean wideOrderKeys) {
            super(TpchTable.ORDERS, "orders", 1_500_000, 0, List.of(
                    column("o_orderkey", wideOrderKeys ? DataType.BIGINT : DataType.INTEGER),
                    column("o_custkey", DataType.INTEGER),
                    column("o_orderstatus", DataType.charType(1)),
                    column("o_totalprice", MONEY),
                    column("o_orderdate", DataType.DATE),
                    column("o_orderpriority", DataType.charType(15)),
                    column("o_clerk", DataType.charType(15)),
                    column("o_shippriority", DataType.INTEGER),
                    column("o_comment", DataType.varchar(79))));
        }

        @Override
        void write(Order row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getOrderKey());
            setLong(vectors, 1, position, row.getCustomerKey());
            BytesVector status = (BytesVector) vectors[2];
            status.data()[status.reserve(position, 1)] = (byte) row.getOrderStatus();
            setLong(vectors, 3, position, row.getTotalPriceInCents());
            setLong(vectors, 4, position, row.getOrderDate());
            setText(vectors, 5, position, row.getOrderPriority(), 15);
            setText(vectors, 6, position, row.getClerk(), 15);
            setLong(vectors, 7, position, row.getShipPriority());
            setText(vectors, 8, position, row.getComment());
        }
    }

    static final class LineItemWriter extends TpchTableWriter<LineItem> {
        LineItemWriter(boolean wideOrderKeys) {
            super(TpchTable.LINE_ITEM, "lineitem", 6_000_000, 0, List.of(
                    column("l_orderkey", wideOrderKeys ? DataType.BIGINT : DataType.INTEGER),
                    column("l_partkey", DataType.INTEGER),
                    column("l_suppkey", DataType.INTEGER),
                    column("l_linenumber", DataType.INTEGER),
                    column("l_quantity", MONEY),
                    column("l_extendedprice", MONEY),
                    column("l_discount", MONEY),
                    column("l_tax", MONEY),
                    column("l_returnflag", DataType.charType(1)),
                    column("l_linestatus", DataType.charType(1)),
                    column("l_shipdate", DataType.DATE),
                    column("l_commitdate", DataType.DATE),
                    column("l_receiptdate", DataType.DATE),
                    column("l_shipinstruct", DataType.charType(25)),
                    column("l_shipmode", DataType.charType(10)),
                    column("l_comment", DataType.varchar(44))));
        }

        @Override
        void write(LineItem row, ColumnVector[] vectors, int position) {
            setLong(vectors, 0, position, row.getOrderKey());
            setLong(vectors, 1, position, row.getPartKey());
            setLong(vectors, 2, position, row.getSupplierKey());
            setLong(vectors, 3, position, row.getLineNumber());
            setLong(vectors, 4, position, row.getQuantity() * 100);
            setLong(vectors, 5, position, row.getExtendedPriceInCents());
            setLong(vectors, 6, position, row.getDiscountPercent());
            setLong(vectors, 7, position, row.getTaxPercent());
            setText(vectors, 8, position, row.getReturnFlag(), 1);
            setText(vectors, 9, position, row.getStatus(), 1);
            setLong(vectors, 10, position, row.getShipDate());
            setLong(vectors, 11, position, row.getCommitDate());
            setLong(vectors, 12, position, row.getReceiptDate());
            setText(vectors, 13, position, row.getShipInstructions(), 25);
            setText(vectors, 14, position, row.getShipMode(), 10);
            setText(vectors, 15, position, row.getComment());
        }
    }
}
