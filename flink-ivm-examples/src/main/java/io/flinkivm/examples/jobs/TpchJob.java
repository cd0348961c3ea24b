package io.flinkivm.examples.jobs;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.tpch.TpchRevenue;
import io.flinkivm.examples.tpch.TpchStream;
import io.flinkivm.flink.types.InputRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * {@link TpchRevenue} as {@code flink-ivm example tpch}. {@code --inserts} picks the TPC-H scale
 * factor ({@link #scaleFactorFor}); the stream is every customer, orders and lineitem row at that
 * scale factor, shuffled with {@code --seed}, so its length is close to, not exactly, the number asked for.
 */
public final class TpchJob implements ExampleJob<Long> {

    /** Inserts per unit of scale factor: 76,675 rows at scale factor 0.01. */
    public static final double INSERTS_PER_SCALE_FACTOR = 7_667_500;

    /** The smallest scale factor used (15 customers, 150 orders, about 600 lineitems). */
    public static final double MIN_SCALE_FACTOR = 0.0001;

    @Override
    public String name() {
        return "tpch";
    }

    @Override
    public String title() {
        return "revenue per (order, customer) over TPC-H rows, a p-hierarchical query that is not q-hierarchical";
    }

    @Override
    public List<String> story() {
        return List.of(
                "TPC-H customers, orders and lineitems arrive as inserts, interleaved at random:",
                "  Customer(custkey, nationkey, mktsegment)   payload 1",
                "  Orders(orderkey, custkey, orderdate)       payload 1",
                "  Lineitem(orderkey, linenumber)             payload extendedprice * (1 - discount)",
                "Revenue(o,c) is SUM(l_extendedprice * (1 - l_discount)) of order o of BUILDING customer c:",
                "TPC-H Q3 without its date predicates. Revenues are exact: whole cents times whole percents,",
                "printed with four decimals. --inserts picks the scale factor (76,675 inserts = SF 0.01).");
    }

    @Override
    public String query() {
        return TpchRevenue.QUERY;
    }

    /** The TPC-H tables' relative sizes ({@link TpchRevenue#RELATION_RATES}). */
    @Override
    public Map<String, Double> relationRates() {
        return TpchRevenue.RELATION_RATES;
    }

    @Override
    public Semiring<Long> semiring() {
        return NaturalSemiring.INSTANCE;
    }

    @Override
    public long defaultInserts() {
        return 76_675;
    }

    @Override
    public InsertGenerator<Long> generator(GeneratorSettings settings) {
        return new Generator(scaleFactorFor(settings.inserts()), settings.seed());
    }

    @Override
    public Comparator<ResultTuple<Long>> resultOrder() {
        Comparator<ResultTuple<Long>> byRevenue = Comparator.comparing(ResultTuple::payload, Comparator.reverseOrder());
        return byRevenue.thenComparing(ResultTuple::tuple, Rows.NATURAL_ORDER);
    }

    @Override
    public String resultOrderName() {
        return "highest revenue first";
    }

    @Override
    public String formatPayload(Long payload) {
        return TpchRevenue.formatRevenue(payload);
    }

    /** The scale factor whose stream has about {@code inserts} rows, at least {@link #MIN_SCALE_FACTOR}. */
    public static double scaleFactorFor(long inserts) {
        return Math.max(MIN_SCALE_FACTOR, inserts / INSERTS_PER_SCALE_FACTOR);
    }

    /**
     * The stream of {@link TpchStream#inserts} by index. Only the scale factor and seed travel with the
     * job; the rows are generated on first use, on the client for {@link #count()} and again in the source.
     */
    static final class Generator extends InsertGenerator<Long> {
        private static final long serialVersionUID = 1L;
        private final double scaleFactor;
        private final long seed;
        private transient List<InputRecord<Long>> records;

        Generator(double scaleFactor, long seed) {
            this.scaleFactor = scaleFactor;
            this.seed = seed;
        }

        double scaleFactor() {
            return scaleFactor;
        }

        @Override
        public long count() {
            return records().size();
        }

        @Override
        public InputRecord<Long> record(long index) {
            return records().get(Math.toIntExact(index));
        }

        private List<InputRecord<Long>> records() {
            if (records == null) {
                records = TpchStream.inserts(scaleFactor, seed);
            }
            return records;
        }
    }
}
