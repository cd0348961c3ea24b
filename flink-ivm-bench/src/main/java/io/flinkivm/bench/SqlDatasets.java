package io.flinkivm.bench;

import io.flinkivm.examples.nexmark.NexmarkTables;
import io.flinkivm.examples.tpch.TpchTables;
import java.util.List;

/** The bench's SQL datasets, in the order they are run. */
final class SqlDatasets {
    /** Revenue per market segment: the lineitem facts with their order's customer's segment. */
    static final String STAR_REVENUE = """
            SELECT c_mktsegment, SUM(l_extendedprice * (1 - l_discount)) AS revenue
            FROM lineitem
            JOIN orders ON l_orderkey = o_orderkey
            JOIN customer ON o_custkey = c_custkey
            GROUP BY c_mktsegment""";

    /**
     * The snowflake: sales with their product, store (and its city), customer and day, four dimensions
     * filtered, the first product name and the revenue per customer segment.
     */
    static final String SNOWFLAKE = """
            SELECT c.segment, MIN(p.name) AS first_product, SUM(s.amount) AS revenue
            FROM sales AS s
            JOIN product AS p ON p.id = s.product_id
            JOIN store AS st ON st.id = s.store_id
            JOIN city AS ci ON ci.id = st.city_id
            JOIN customer AS c ON c.id = s.customer_id
            JOIN calendar AS d ON d.id = s.day_id
            WHERE p.category <> 'toys' AND st.kind <> 'outlet' AND ci.country IN ('DE', 'FR', 'NL')
              AND d.weekday NOT IN ('Saturday', 'Sunday')
            GROUP BY c.segment""";

    /**
     * Bids per auction per ten-second tumbling window, with the highest price: Nexmark's bids in event order,
     * a window aggregate for Flink SQL.
     */
    static final String BIDS_PER_WINDOW = """
            SELECT auction, window_start, window_end, COUNT(*) AS bids, MAX(price) AS top_price
            FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))
            GROUP BY auction, window_start, window_end""";

    private SqlDatasets() {}

    /**
     * TPC-H Q3 and Q10 as published, revenue per market segment, the snowflake, Nexmark q3 and q20 as
     * published, and bids per auction per tumbling window.
     */
    static List<SqlDataset> all() {
        return List.of(
                SqlDataset.published(
                        "tpch-q3", "TPC-H Q3 as published (date conditions kept, ORDER BY and LIMIT dropped)"),
                SqlDataset.published("tpch-q10", "TPC-H Q10 as published (ORDER BY and LIMIT dropped)"),
                new SqlDataset(
                        "star-revenue",
                        "revenue per market segment over lineitem, orders and customer (five groups)",
                        STAR_REVENUE,
                        List.of(TpchTables.CUSTOMER, TpchTables.ORDERS, TpchTables.LINEITEM),
                        SqlDataset.TPCH),
                new SqlDataset(
                        "snowflake",
                        "the first product name and the revenue per customer segment over sales and four filtered"
                                + " dimensions, one with a dimension of its own (five groups)",
                        SNOWFLAKE,
                        SnowflakeTables.NAMES,
                        SqlDataset.SNOWFLAKE),
                SqlDataset.published("nexmark-q3", "Nexmark q3 as published (INSERT INTO dropped)"),
                SqlDataset.published("nexmark-q20", "Nexmark q20 as published (INSERT INTO dropped)"),
                new SqlDataset(
                        "bids-per-window",
                        "bids and the highest price per auction per ten-second tumbling window (a window aggregate)",
                        BIDS_PER_WINDOW,
                        List.of(NexmarkTables.BID),
                        SqlDataset.NEXMARK,
                        "dateTime"));
    }

    /** The names of {@link #all()}. */
    static List<String> names() {
        return all().stream().map(SqlDataset::name).toList();
    }
}
