package io.flinkivm.examples.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.types.InputRecord;
import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link TpchRevenue} at TPC-H scale factor 0.01 (1,500 customers, 15,000 orders, 60,175 lineitems)
 * against DuckDB running the same query in SQL over the same rows: the core engine and the Flink
 * job's final snapshot (heap state, parallelism 2) must both equal DuckDB's exact decimal sums; so
 * must a RocksDB run at parallelism 1 over scale factor 0.001, to keep the test short.
 */
class TpchRevenueITCase {
    private static final double SF = 0.01;

    /** The query of {@link TpchRevenue#QUERY} in SQL, once with decimals and once in integer units of 1/10,000. */
    static final String SQL = """
            SELECT o_orderkey, o_custkey,
                   SUM(l_extendedprice * (1 - l_discount)) AS revenue,
                   SUM(CAST(l_extendedprice * 100 AS BIGINT) * (100 - CAST(l_discount * 100 AS BIGINT))) AS revenue_units
            FROM customer
            JOIN orders ON c_custkey = o_custkey
            JOIN lineitem ON l_orderkey = o_orderkey
            WHERE c_mktsegment = 'BUILDING'
            GROUP BY o_orderkey, o_custkey""";

    static List<InputRecord<Long>> inserts;
    static Map<Tuple, Long> expected;

    @BeforeAll
    static void generateAndAskDuckDb() throws SQLException {
        Rows rows = Rows.generate(SF);
        assertThat(rows.customers()).hasSize(1_500);
        assertThat(rows.orders()).hasSize(15_000);
        assertThat(rows.lineItems()).hasSize(60_175);
        inserts = rows.inserts(TpchRevenue.SEED);
        expected = duckDb(rows);
    }

    /** The rows of one scale factor, kept for loading them into DuckDB. */
    record Rows(double scaleFactor, List<Customer> customers, List<Order> orders, List<LineItem> lineItems) {
        static Rows generate(double scaleFactor) {
            List<Customer> customers = new ArrayList<>();
            new CustomerGenerator(scaleFactor, 1, 1).forEach(customers::add);
            List<Order> orders = new ArrayList<>();
            new OrderGenerator(scaleFactor, 1, 1).forEach(orders::add);
            List<LineItem> lineItems = new ArrayList<>();
            new LineItemGenerator(scaleFactor, 1, 1).forEach(lineItems::add);
            return new Rows(scaleFactor, customers, orders, lineItems);
        }

        /** These rows as the stream {@link TpchRevenue#run} maintains, checked to be the one it generates. */
        List<InputRecord<Long>> inserts(long seed) {
            List<InputRecord<Long>> out = new ArrayList<>();
            customers.forEach(c -> out.add(TpchStream.insert(c)));
            orders.forEach(o -> out.add(TpchStream.insert(o)));
            lineItems.forEach(l -> out.add(TpchStream.insert(l)));
            TpchStream.shuffle(out, seed);
            assertThat(TpchStream.inserts(scaleFactor, seed))
                    .as("the job's stream")
                    .isEqualTo(out);
            return out;
        }
    }

    /** {@link #SQL} over {@code rows} in an in-memory DuckDB: (orderkey, custkey) to revenue in units of 1/10,000. */
    static Map<Tuple, Long> duckDb(Rows rows) throws SQLException {
        try (Connection jdbc = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = jdbc.createStatement()) {
            DuckDBConnection db = jdbc.unwrap(DuckDBConnection.class);
            st.execute("CREATE TABLE customer (c_custkey BIGINT, c_nationkey BIGINT, c_mktsegment VARCHAR)");
            st.execute("CREATE TABLE orders (o_orderkey BIGINT, o_custkey BIGINT, o_orderdate DATE)");
            st.execute("CREATE TABLE lineitem (l_orderkey BIGINT, l_linenumber INTEGER,"
                    + " l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2))");
            try (DuckDBAppender a = db.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "customer")) {
                for (Customer c : rows.customers()) {
                    a.beginRow()
                            .append(c.getCustomerKey())
                            .append(c.getNationKey())
                            .append(c.getMarketSegment())
                            .endRow();
                }
            }
            try (DuckDBAppender a = db.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "orders")) {
                for (Order o : rows.orders()) {
                    a.beginRow()
                            .append(o.getOrderKey())
                            .append(o.getCustomerKey())
                            .append(LocalDate.parse(GenerateUtils.formatDate(o.getOrderDate())))
                            .endRow();
                }
            }
            try (DuckDBAppender a = db.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "lineitem")) {
                for (LineItem l : rows.lineItems()) {
                    a.beginRow()
                            .append(l.getOrderKey())
                            .append(l.getLineNumber())
                            .append(BigDecimal.valueOf(l.getExtendedPriceInCents(), 2))
                            .append(BigDecimal.valueOf(l.getDiscountPercent(), 2))
                            .endRow();
                }
            }
            assertThat(count(st, "customer")).isEqualTo(rows.customers().size());
            assertThat(count(st, "orders")).isEqualTo(rows.orders().size());
            assertThat(count(st, "lineitem")).isEqualTo(rows.lineItems().size());

            Map<Tuple, Long> out = new HashMap<>();
            try (ResultSet rs = st.executeQuery(SQL)) {
                while (rs.next()) {
                    BigDecimal revenue = rs.getBigDecimal("revenue");
                    long units =
                            revenue.movePointRight(TpchRevenue.REVENUE_SCALE).longValueExact();
                    assertThat(rs.getBigDecimal("revenue_units").longValueExact())
                            .as("integer and decimal revenue of order %d", rs.getLong(1))
                            .isEqualTo(units);
                    out.put(Tuple.of(rs.getLong("o_orderkey"), rs.getLong("o_custkey")), units);
                }
            }
            return out;
        }
    }

    private static long count(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void coreEngineEqualsDuckDb() {
        IvmEngine<Long> engine = Engines.create(TpchRevenue.plan(), NaturalSemiring.INSTANCE);
        for (InputRecord<Long> r : inserts) {
            engine.insert(r.relation(), r.tuple(), r.payload());
        }
        Map<Tuple, Long> core = new HashMap<>();
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> t = it.next();
            core.put(t.tuple(), t.payload());
        }

        assertThat(expected).hasSize(3_706);
        assertThat(engine.insertCount()).isEqualTo(76_675);
        assertThat(core).isEqualTo(expected);
    }

    @Test
    void flinkJobOnHeapEqualsDuckDb() throws Exception {
        checkRun(SF, 2, "hashmap", inserts.size(), expected);
    }

    @Test
    void flinkJobOnRocksDbEqualsDuckDbAtScaleFactor0001() throws Exception {
        Rows rows = Rows.generate(0.001);
        checkRun(0.001, 1, "rocksdb", rows.inserts(TpchRevenue.SEED).size(), duckDb(rows));
    }

    private static void checkRun(
            double scaleFactor, int parallelism, String backend, int inserts, Map<Tuple, Long> expected)
            throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TpchRevenue.Outcome outcome;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            outcome = TpchRevenue.run(scaleFactor, parallelism, backend, out);
        }
        String printed = bytes.toString(StandardCharsets.UTF_8);

        assertThat(outcome.inserts()).isEqualTo(inserts);
        assertThat(outcome.revenue()).hasSameSizeAs(expected).isEqualTo(expected);
        assertThat(outcome.snapshots()).isGreaterThanOrEqualTo(10);
        assertThat(printed)
                .contains(
                        TpchRevenue.plan().explain(),
                        String.format(Locale.ROOT, "generated %,d inserts", inserts),
                        String.format(
                                Locale.ROOT,
                                "after %,d of %,d inserts: %,d (order, customer) rows",
                                inserts,
                                inserts,
                                expected.size()),
                        "top 10 (order, customer) by revenue:",
                        " 10. order ");
        Map.Entry<Tuple, Long> best = TpchRevenue.top(expected, 1).get(0);
        assertThat(printed)
                .contains("  1. order " + best.getKey().get(0) + ", customer "
                        + best.getKey().get(1) + ": " + TpchRevenue.formatRevenue(best.getValue()));
    }
}
