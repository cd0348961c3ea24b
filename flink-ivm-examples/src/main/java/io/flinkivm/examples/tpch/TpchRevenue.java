package io.flinkivm.examples.tpch;

import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.FlinkJobLayout;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.Snapshots;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.CloseableIterator;

/**
 * Revenue per (order, customer) of the customers in the BUILDING market segment, over TPC-H
 * customer, orders and lineitem rows streamed as inserts ({@link TpchStream}), maintained on Flink.
 * In SQL:
 * <pre>{@code
 * SELECT o_orderkey, o_custkey, SUM(l_extendedprice * (1 - l_discount))
 * FROM customer JOIN orders ON c_custkey = o_custkey JOIN lineitem ON l_orderkey = o_orderkey
 * WHERE c_mktsegment = 'BUILDING' GROUP BY o_orderkey, o_custkey
 * }</pre>
 * (TPC-H Q3 without its date predicates, which a conjunctive query cannot express). As a conjunctive
 * query over the natural numbers ({@link #QUERY}), the sum is the payload: a lineitem carries its
 * revenue in units of 1/10,000 ({@link TpchStream#revenue}), customers and orders carry 1.
 *
 * <p>The query is p-hierarchical but not q-hierarchical: at(O) = {Orders, Lineitem} and
 * at(C) = {Customer, Orders} overlap without nesting, while each bound variable (N, D, L) occurs in
 * one atom only, inside the atoms of the free variables it shares an atom with. The plan has three
 * view trees with roots V[C], V[O,C] and V[O] and a Boolean join of them above the border.
 */
public final class TpchRevenue {
    /** The maintained query: revenue per (order O, customer C) for customers with segment BUILDING. */
    public static final String QUERY = "Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)";

    /** The seed of the interleaving shuffle ({@link TpchStream#inserts}). */
    public static final long SEED = 20_240_601L;

    /**
     * The relations' sizes per unit of TPC-H scale factor (customer 150,000, orders 1,500,000, lineitem
     * 6,001,215 rows), which in a stream of the three tables are their relative insert rates: given as
     * {@link IvmOptions#withRelationRates}, they size the sink's cells for the lineitems (at parallelism 4
     * it is spread by O alone, each customer in every cell, instead of O=2 C=2).
     */
    public static final Map<String, Double> RELATION_RATES =
            Map.of("Customer", 150_000.0, "Orders", 1_500_000.0, "Lineitem", 6_001_215.0);

    /** Decimal places of a revenue payload: it counts 1/10,000 of a currency unit (cents times whole percents). */
    public static final int REVENUE_SCALE = 4;

    private static final int TOP = 10;
    private static final int PROGRESS_LINES = 10;

    private TpchRevenue() {}

    public static ConjunctiveQuery query() {
        return QueryParser.parse(QUERY);
    }

    /**
     * The plan of {@link #QUERY} over the natural numbers.
     *
     * @throws IllegalStateException if the planner did not choose the p-hierarchical plan
     */
    public static PHierarchicalPlan plan() {
        MaintenancePlan plan = Planner.plan(query(), NaturalSemiring.INSTANCE);
        if (!(plan instanceof PHierarchicalPlan acyclic)) {
            throw new IllegalStateException("expected a p-hierarchical plan for " + QUERY + ", got " + plan.kind());
        }
        return acyclic;
    }

    /**
     * What a run produced.
     *
     * @param revenue the final result: (orderkey, custkey) to revenue in units of 1/10,000
     * @param inserts the number of inserts in the stream
     * @param snapshots the number of complete snapshots received
     * @param millis wall time of the Flink job, from submission to the last result
     */
    public record Outcome(Map<Tuple, Long> revenue, long inserts, long snapshots, long millis) {}

    /** {@code TpchRevenue [scaleFactor [parallelism [hashmap|rocksdb]]]}; defaults 0.01, 1, hashmap. */
    public static void main(String[] args) throws Exception {
        double scaleFactor = args.length > 0 ? Double.parseDouble(args[0]) : 0.01;
        int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        String backend = args.length > 2 ? args[2] : "hashmap";
        run(scaleFactor, parallelism, backend, System.out);
    }

    /**
     * Generates the TPC-H rows at {@code scaleFactor}, maintains {@link #QUERY} over them on a local
     * Flink environment, and prints the plan, one progress line per snapshot (about ten, each prefix-exact)
     * and the top ten (order, customer) by revenue.
     *
     * @param stateBackend {@code hashmap} or {@code rocksdb}
     * @throws IllegalStateException if the job rejected an insert (it fails on the first dead letter)
     */
    public static Outcome run(double scaleFactor, int parallelism, String stateBackend, PrintStream out)
            throws Exception {
        if (!(scaleFactor > 0)) {
            throw new IllegalArgumentException("scale factor must be positive, got " + scaleFactor);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
        }
        if (!stateBackend.equals("hashmap") && !stateBackend.equals("rocksdb")) {
            throw new IllegalArgumentException("state backend must be hashmap or rocksdb, got " + stateBackend);
        }
        MaintenancePlan plan = plan();
        out.println(plan.explain());

        long generateStart = System.nanoTime();
        List<InputRecord<Long>> records = TpchStream.inserts(scaleFactor, SEED);
        out.printf(
                Locale.ROOT,
                "generated %,d inserts (TPC-H scale factor %s, shuffled with seed %d) in %,d ms%n",
                records.size(),
                scaleFactor,
                SEED,
                (System.nanoTime() - generateStart) / 1_000_000);

        Configuration config = new Configuration();
        config.setString("state.backend.type", stateBackend);
        config.setString("parallelism.default", String.valueOf(parallelism));
        config.setString("pipeline.generic-types", "false");
        try (StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config)) {
            DataStream<InputRecord<Long>> input = env.fromData(records, FlinkIvm.inputType(NaturalSemiring.INSTANCE));
            // Every ingest subtask ends an epoch after its share of a tenth of the stream.
            long snapshotEvery = Math.max(1, records.size() / PROGRESS_LINES / parallelism);
            IvmJob<Long> job = FlinkIvm.maintain(
                    input,
                    plan,
                    NaturalSemiring.INSTANCE,
                    IvmOptions.defaults()
                            .withSnapshotEvery(snapshotEvery)
                            .withParallelism(parallelism)
                            .withRelationRates(RELATION_RATES));
            out.print(job.layout().explain());
            job.deadLetters()
                    .map(new FailOnDeadLetter())
                    .returns(DeadLetterTypeInfo.INSTANCE)
                    .name("fail on dead letter")
                    .sinkTo(new DiscardingSink<>());
            Outcome outcome = collect(
                    job,
                    job.results().getParallelism(),
                    records.size(),
                    "TPC-H revenue, scale factor " + scaleFactor,
                    out);
            printTop(outcome, out);
            return outcome;
        }
    }

    /**
     * Runs the job and keeps the rows of the latest complete snapshot only; prints a progress line
     * whenever a newer snapshot completes.
     */
    private static Outcome collect(IvmJob<Long> job, int parts, long inserts, String jobName, PrintStream out)
            throws Exception {
        List<ResultRecord<Long>> kept = new ArrayList<>();
        Map<Long, long[]> ends = new HashMap<>();
        long latest = -1;
        long snapshots = 0;
        long start = System.nanoTime();
        try (CloseableIterator<ResultRecord<Long>> it = job.results().executeAndCollect(jobName)) {
            while (it.hasNext()) {
                ResultRecord<Long> r = it.next();
                if (r.snapshotId() <= latest) {
                    continue; // a part of an older snapshot than one already complete
                }
                kept.add(r);
                if (!r.isEnd()) {
                    continue;
                }
                long[] e = ends.computeIfAbsent(r.snapshotId(), k -> new long[2]);
                e[0]++;
                e[1] += r.rows();
                if (e[0] == parts) {
                    snapshots++;
                    latest = r.snapshotId();
                    double seconds = (System.nanoTime() - start) / 1e9;
                    out.printf(
                            Locale.ROOT,
                            "after %,d of %,d inserts: %,d (order, customer) rows,"
                                    + " %,.0f inserts/s since job start%n",
                            r.insertCount(),
                            inserts,
                            e[1],
                            r.insertCount() / seconds);
                    long complete = latest;
                    kept.removeIf(x -> x.snapshotId() < complete);
                    ends.keySet().removeIf(id -> id < complete);
                }
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        Map<Tuple, Long> revenue = Snapshots.latest(kept, parts);
        out.printf(
                Locale.ROOT,
                "maintained %,d inserts in %,d ms (%,.0f inserts/s, including job start-up);"
                        + " %,d (order, customer) rows%n",
                inserts,
                millis,
                inserts * 1000.0 / Math.max(1, millis),
                revenue.size());
        return new Outcome(revenue, inserts, snapshots, millis);
    }

    private static void printTop(Outcome outcome, PrintStream out) {
        out.println("top " + TOP + " (order, customer) by revenue:");
        List<Map.Entry<Tuple, Long>> top = top(outcome.revenue(), TOP);
        for (int i = 0; i < top.size(); i++) {
            Tuple t = top.get(i).getKey();
            out.printf(
                    Locale.ROOT,
                    "%3d. order %s, customer %s: %s%n",
                    i + 1,
                    t.get(0),
                    t.get(1),
                    formatRevenue(top.get(i).getValue()));
        }
    }

    /** The {@code n} rows with the highest revenue, highest first; ties by (order, customer) ascending. */
    public static List<Map.Entry<Tuple, Long>> top(Map<Tuple, Long> revenue, int n) {
        List<Map.Entry<Tuple, Long>> rows = new ArrayList<>(revenue.entrySet());
        rows.sort(Map.Entry.<Tuple, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        return List.copyOf(rows.subList(0, Math.min(n, rows.size())));
    }

    /** A revenue payload as a currency amount with four decimals, e.g. 123456789 as "12345.6789". */
    public static String formatRevenue(long payload) {
        return BigDecimal.valueOf(payload, REVENUE_SCALE).toPlainString();
    }

    /** The number of sink subtasks that end each snapshot at {@code parallelism} ({@link FlinkJobLayout}). */
    static int sinkParts(MaintenancePlan plan, int parallelism) {
        return FlinkJobLayout.of(plan, parallelism, new RelationRates(RELATION_RATES))
                .sink()
                .parallelism();
    }

    /** Generated TPC-H rows are never rejected; if one is, fail the job rather than lose it. */
    private static final class FailOnDeadLetter implements MapFunction<DeadLetter, DeadLetter> {
        private static final long serialVersionUID = 1L;

        @Override
        public DeadLetter map(DeadLetter d) {
            throw new IllegalStateException(
                    "insert rejected: " + d.reason() + " (" + d.record() + " from " + d.origin() + ")");
        }
    }
}
