package io.flinkivm.bench;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.tpch.TpchRevenue;
import io.flinkivm.examples.tpch.TpchStream;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Revenue per (order, customer) of BUILDING customers ({@link TpchRevenue#QUERY}: p-hierarchical, not
 * q-hierarchical) over TPC-H customer, orders and lineitem rows from the TPC-H generator
 * ({@link TpchStream}, {@code io.trino.tpch}). The scale factor is chosen from n: the generator makes
 * about {@value #ROWS_PER_SCALE_FACTOR} rows per unit, so n inserts need scale factor ≈ n / that; the
 * rows are generated at a slightly larger one, shuffled with the seed (so an order may come before
 * its customer) and the first n are the stream. The data is TPC-H's own: the only distribution is
 * {@link Distribution#TPCH}.
 */
final class TpchWorkload implements Workload {
    /** Customers (150,000), orders (1,500,000) and lineitems (about 6,001,215) at scale factor 1. */
    static final double ROWS_PER_SCALE_FACTOR = 7_651_215;
    /** The generator needs at least one supplier (10,000 per unit of scale factor); this gives two, about 1,500 rows. */
    static final double MIN_SCALE_FACTOR = 2e-4;

    @Override
    public String name() {
        return "tpch";
    }

    @Override
    public String query() {
        return TpchRevenue.QUERY;
    }

    /** The TPC-H tables' relative sizes, which are their insert rates in this stream ({@link TpchRevenue#RELATION_RATES}). */
    @Override
    public Map<String, Double> relationRates() {
        return TpchRevenue.RELATION_RATES;
    }

    /**
     * TPC-H's keys: a customer's custkey, an order's orderkey, a lineitem's (orderkey, linenumber). The
     * generator makes each row once and the stream holds each generated row at most once.
     */
    @Override
    public Map<String, List<Integer>> primaryKeys() {
        return Map.of(
                TpchStream.CUSTOMER, List.of(0),
                TpchStream.ORDERS, List.of(0),
                TpchStream.LINEITEM, List.of(0, 1));
    }

    @Override
    public List<Distribution> distributions(List<Distribution> requested) {
        return List.of(Distribution.TPCH);
    }

    /** The scale factor whose rows are generated for a stream of n inserts (about 3% more rows than n). */
    static double scaleFactor(int n) {
        return Math.max(MIN_SCALE_FACTOR, n * 1.03 / ROWS_PER_SCALE_FACTOR);
    }

    @Override
    public String describe(int n) {
        return String.format(
                Locale.ROOT,
                "TPC-H customer, orders, lineitem rows (io.trino.tpch) at scale factor %.5f for"
                        + " n = %d, shuffled, the first n; payload: lineitem revenue extendedprice·(1 − discount) in 1/10,000,"
                        + " customers and orders 1",
                scaleFactor(n),
                n);
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        double sf = scaleFactor(n);
        List<InputRecord<Long>> rows = TpchStream.inserts(sf, seed);
        while (rows.size() < n) {
            sf *= 1.1;
            rows = TpchStream.inserts(sf, seed);
        }
        String[] relation = new String[n];
        Tuple[] tuples = new Tuple[n];
        Long[] payload = new Long[n];
        for (int i = 0; i < n; i++) {
            InputRecord<Long> r = rows.get(i);
            relation[i] = r.relation();
            tuples[i] = r.tuple();
            payload[i] = r.payload();
        }
        return new InsertStream(relation, tuples, payload, Distribution.TPCH, seed);
    }
}
