package io.flinkivm.examples.tpch;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.VARCHAR;

import io.flinkivm.examples.tables.GeneratedTable;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Nation;
import io.trino.tpch.NationGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.Part;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.PartSupplier;
import io.trino.tpch.PartSupplierGenerator;
import io.trino.tpch.Region;
import io.trino.tpch.RegionGenerator;
import io.trino.tpch.Supplier;
import io.trino.tpch.SupplierGenerator;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * The eight TPC-H tables as Flink rows, from the TPC-H generator ({@code io.trino.tpch}, deterministic
 * for a scale factor): every column of the specification under its name, with its primary key
 * (which the generated rows keep). Identifiers are {@code BIGINT}, money, quantities, discounts and
 * taxes exact {@code DECIMAL(15, 2)} (from the generator's cents and whole percents), dates
 * {@code DATE}, and text {@code VARCHAR(n)} of the specification's length (fixed-length text too: the
 * generator does not pad, and Flink compares {@code CHAR(n)} values with trailing blanks). The keys hold
 * at every scale factor: below 0.024 the generator repeats some (ps_partkey, ps_suppkey) pairs of partsupp,
 * and only the first row of each is kept.
 */
public final class TpchTables {
    public static final String CUSTOMER = "customer";
    public static final String ORDERS = "orders";
    public static final String LINEITEM = "lineitem";
    public static final String SUPPLIER = "supplier";
    public static final String PART = "part";
    public static final String PARTSUPP = "partsupp";
    public static final String NATION = "nation";
    public static final String REGION = "region";

    /** The tables in the specification's order. */
    public static final List<String> NAMES =
            List.of(PART, SUPPLIER, PARTSUPP, CUSTOMER, ORDERS, LINEITEM, NATION, REGION);

    /**
     * Rows per unit of scale factor (lineitem: about; it varies with the orders' line counts); nation
     * and region have 25 and 5 rows at every scale factor.
     */
    public static final Map<String, Double> ROWS_PER_SCALE_FACTOR = Map.of(
            PART, 200_000.0,
            SUPPLIER, 10_000.0,
            PARTSUPP, 800_000.0,
            CUSTOMER, 150_000.0,
            ORDERS, 1_500_000.0,
            LINEITEM, 6_001_215.0,
            NATION, 0.0,
            REGION, 0.0);

    /** The fixed row counts of nation and region. */
    public static final Map<String, Integer> FIXED_ROWS = Map.of(NATION, 25, REGION, 5);

    private static final DataType MONEY = DECIMAL(15, 2);

    private TpchTables() {}

    /**
     * The named tables at {@code scaleFactor}, in the order given.
     *
     * @throws IllegalArgumentException for a name that is not a TPC-H table, or a scale factor that is
     *     not positive
     */
    public static List<GeneratedTable> generate(double scaleFactor, List<String> tables) {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + scaleFactor);
        }
        List<GeneratedTable> out = new ArrayList<>();
        for (String t : tables) {
            out.add(empty(t).withRows(rows(t, scaleFactor)));
        }
        return out;
    }

    /** Table {@code name} without rows: its name, type and key. */
    public static GeneratedTable empty(String name) {
        return switch (name) {
            case CUSTOMER ->
                table(
                        CUSTOMER,
                        ROW(
                                FIELD("c_custkey", BIGINT().notNull()),
                                FIELD("c_name", VARCHAR(25)),
                                FIELD("c_address", VARCHAR(40)),
                                FIELD("c_nationkey", BIGINT()),
                                FIELD("c_phone", VARCHAR(15)),
                                FIELD("c_acctbal", MONEY),
                                FIELD("c_mktsegment", VARCHAR(10)),
                                FIELD("c_comment", VARCHAR(117))),
                        "c_custkey");
            case ORDERS ->
                table(
                        ORDERS,
                        ROW(
                                FIELD("o_orderkey", BIGINT().notNull()),
                                FIELD("o_custkey", BIGINT()),
                                FIELD("o_orderstatus", VARCHAR(1)),
                                FIELD("o_totalprice", MONEY),
                                FIELD("o_orderdate", DATE()),
                                FIELD("o_orderpriority", VARCHAR(15)),
                                FIELD("o_clerk", VARCHAR(15)),
                                FIELD("o_shippriority", INT()),
                                FIELD("o_comment", VARCHAR(79))),
                        "o_orderkey");
            case LINEITEM ->
                table(
                        LINEITEM,
                        ROW(
                                FIELD("l_orderkey", BIGINT().notNull()),
                                FIELD("l_partkey", BIGINT()),
                                FIELD("l_suppkey", BIGINT()),
                                FIELD("l_linenumber", INT().notNull()),
                                FIELD("l_quantity", MONEY),
                                FIELD("l_extendedprice", MONEY),
                                FIELD("l_discount", MONEY),
                                FIELD("l_tax", MONEY),
                                FIELD("l_returnflag", VARCHAR(1)),
                                FIELD("l_linestatus", VARCHAR(1)),
                                FIELD("l_shipdate", DATE()),
                                FIELD("l_commitdate", DATE()),
                                FIELD("l_receiptdate", DATE()),
                                FIELD("l_shipinstruct", VARCHAR(25)),
                                FIELD("l_shipmode", VARCHAR(10)),
                                FIELD("l_comment", VARCHAR(44))),
                        "l_orderkey",
                        "l_linenumber");
            case SUPPLIER ->
                table(
                        SUPPLIER,
                        ROW(
                                FIELD("s_suppkey", BIGINT().notNull()),
                                FIELD("s_name", VARCHAR(25)),
                                FIELD("s_address", VARCHAR(40)),
                                FIELD("s_nationkey", BIGINT()),
                                FIELD("s_phone", VARCHAR(15)),
                                FIELD("s_acctbal", MONEY),
                                FIELD("s_comment", VARCHAR(101))),
                        "s_suppkey");
            case PART ->
                table(
                        PART,
                        ROW(
                                FIELD("p_partkey", BIGINT().notNull()),
                                FIELD("p_name", VARCHAR(55)),
                                FIELD("p_mfgr", VARCHAR(25)),
                                FIELD("p_brand", VARCHAR(10)),
                                FIELD("p_type", VARCHAR(25)),
                                FIELD("p_size", INT()),
                                FIELD("p_container", VARCHAR(10)),
                                FIELD("p_retailprice", MONEY),
                                FIELD("p_comment", VARCHAR(23))),
                        "p_partkey");
            case PARTSUPP ->
                table(
                        PARTSUPP,
                        ROW(
                                FIELD("ps_partkey", BIGINT().notNull()),
                                FIELD("ps_suppkey", BIGINT().notNull()),
                                FIELD("ps_availqty", INT()),
                                FIELD("ps_supplycost", MONEY),
                                FIELD("ps_comment", VARCHAR(199))),
                        "ps_partkey",
                        "ps_suppkey");
            case NATION ->
                table(
                        NATION,
                        ROW(
                                FIELD("n_nationkey", BIGINT().notNull()),
                                FIELD("n_name", VARCHAR(25)),
                                FIELD("n_regionkey", BIGINT()),
                                FIELD("n_comment", VARCHAR(152))),
                        "n_nationkey");
            case REGION ->
                table(
                        REGION,
                        ROW(
                                FIELD("r_regionkey", BIGINT().notNull()),
                                FIELD("r_name", VARCHAR(25)),
                                FIELD("r_comment", VARCHAR(152))),
                        "r_regionkey");
            default ->
                throw new IllegalArgumentException(
                        "no TPC-H table " + name + "; the tables are " + String.join(", ", NAMES));
        };
    }

    private static GeneratedTable table(String name, DataType type, String... key) {
        return new GeneratedTable(name, type, List.of(key), List.of());
    }

    private static List<Row> rows(String table, double sf) {
        return switch (table) {
            case CUSTOMER -> map(new CustomerGenerator(sf, 1, 1), TpchTables::row);
            case ORDERS -> map(new OrderGenerator(sf, 1, 1), TpchTables::row);
            case LINEITEM -> map(new LineItemGenerator(sf, 1, 1), TpchTables::row);
            case SUPPLIER -> map(new SupplierGenerator(sf, 1, 1), TpchTables::row);
            case PART -> map(new PartGenerator(sf, 1, 1), TpchTables::row);
            case PARTSUPP -> partSuppliers(sf);
            case NATION -> map(new NationGenerator(), TpchTables::row);
            case REGION -> map(new RegionGenerator(), TpchTables::row);
            default -> throw new IllegalArgumentException("no TPC-H table " + table);
        };
    }

    /**
     * The partsupp rows, the first of each (ps_partkey, ps_suppkey) only: below scale factor 0.024 (fewer
     * than 240 suppliers) the generator's formula for a part's four suppliers wraps around and names a
     * supplier twice for some parts. Every lineitem's (part, supplier) is still among the rows kept.
     */
    private static List<Row> partSuppliers(double sf) {
        Set<Long> keys = new HashSet<>();
        List<Row> out = new ArrayList<>();
        for (PartSupplier ps : new PartSupplierGenerator(sf, 1, 1)) {
            if (keys.add(ps.getPartKey() << 32 | ps.getSupplierKey())) {
                out.add(row(ps));
            }
        }
        return out;
    }

    private static <E> List<Row> map(Iterable<E> generator, Function<E, Row> row) {
        List<Row> out = new ArrayList<>();
        for (E e : generator) {
            out.add(row.apply(e));
        }
        return out;
    }

    /** A date of the generator (days since 1970-01-01) as a {@link LocalDate}: the day {@link GenerateUtils#formatDate} writes. */
    public static LocalDate date(int generated) {
        return LocalDate.ofEpochDay(generated);
    }

    /** Cents (or whole percents) as a DECIMAL(15, 2) value. */
    private static BigDecimal hundredths(long value) {
        return BigDecimal.valueOf(value, 2);
    }

    public static Row row(Customer c) {
        return Row.of(
                c.getCustomerKey(),
                c.getName(),
                c.getAddress(),
                c.getNationKey(),
                c.getPhone(),
                hundredths(c.getAccountBalanceInCents()),
                c.getMarketSegment(),
                c.getComment());
    }

    public static Row row(Order o) {
        return Row.of(
                o.getOrderKey(),
                o.getCustomerKey(),
                String.valueOf(o.getOrderStatus()),
                hundredths(o.getTotalPriceInCents()),
                date(o.getOrderDate()),
                o.getOrderPriority(),
                o.getClerk(),
                o.getShipPriority(),
                o.getComment());
    }

    public static Row row(LineItem l) {
        return Row.of(
                l.getOrderKey(),
                l.getPartKey(),
                l.getSupplierKey(),
                l.getLineNumber(),
                hundredths(l.getQuantity() * 100),
                hundredths(l.getExtendedPriceInCents()),
                hundredths(l.getDiscountPercent()),
                hundredths(l.getTaxPercent()),
                l.getReturnFlag(),
                l.getStatus(),
                date(l.getShipDate()),
                date(l.getCommitDate()),
                date(l.getReceiptDate()),
                l.getShipInstructions(),
                l.getShipMode(),
                l.getComment());
    }

    public static Row row(Supplier s) {
        return Row.of(
                s.getSupplierKey(),
                s.getName(),
                s.getAddress(),
                s.getNationKey(),
                s.getPhone(),
                hundredths(s.getAccountBalanceInCents()),
                s.getComment());
    }

    public static Row row(Part p) {
        return Row.of(
                p.getPartKey(),
                p.getName(),
                p.getManufacturer(),
                p.getBrand(),
                p.getType(),
                p.getSize(),
                p.getContainer(),
                hundredths(p.getRetailPriceInCents()),
                p.getComment());
    }

    public static Row row(PartSupplier ps) {
        return Row.of(
                ps.getPartKey(),
                ps.getSupplierKey(),
                ps.getAvailableQuantity(),
                hundredths(ps.getSupplyCostInCents()),
                ps.getComment());
    }

    public static Row row(Nation n) {
        return Row.of(n.getNationKey(), n.getName(), n.getRegionKey(), n.getComment());
    }

    public static Row row(Region r) {
        return Row.of(r.getRegionKey(), r.getName(), r.getComment());
    }
}
