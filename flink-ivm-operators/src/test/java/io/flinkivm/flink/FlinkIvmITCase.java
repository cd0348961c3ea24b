package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.core.testing.DifferentialCase;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * flink-ivm jobs on a MiniCluster, heap and RocksDB, parallelism 1, 2 and 4, the input in as many
 * partitions (subtask i reads partition i): every snapshot equals the naive evaluator's result over
 * exactly the inserts its cut claims, and the final one equals the core engine's over the stream.
 */
class FlinkIvmITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static Configuration config(String backend, int parallelism) {
        Configuration c = new Configuration();
        c.setString("state.backend.type", backend);
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(parallelism));
        return c;
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        String[] semirings = {"natural", "min-plus", "provenance", "boolean"};
        long seed = 1;
        for (String backend : List.of("hashmap", "rocksdb")) {
            for (int parallelism : List.of(1, 2, 4)) {
                for (String semiring : semirings) {
                    out.add(Arguments.of(backend, parallelism, semiring, seed++));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1} {2} seed={3}")
    @MethodSource("cases")
    void randomQueriesMatchTheOracle(String backend, int parallelism, String semiringName, long seed) throws Exception {
        Semiring<?> k = Semirings.byName(semiringName);
        check(k, seed, backend, parallelism);
    }

    private static <T> void check(Semiring<T> k, long seed, String backend, int parallelism) throws Exception {
        // Pick one p-hierarchical and one fallback case per run.
        for (long s = seed * 1000; s < seed * 1000 + 2; s++) {
            DifferentialCase<T> c = DifferentialCase.generate(k, s);
            runAndCompare(c.query(), k, c.stream(), backend, parallelism, "seed " + s + " (" + c.kind() + ")");
        }
    }

    static <T> void runAndCompare(
            ConjunctiveQuery q, Semiring<T> k, List<Insert<T>> stream, String backend, int parallelism, String label)
            throws Exception {
        runAndCompare(q, k, stream, backend, parallelism, label, everyThird(OutputMode.SNAPSHOT, Map.of()));
    }

    /** Snapshots (or a changelog) every 3 inserts of each ingest subtask, with relation rates. */
    static IvmOptions everyThird(OutputMode mode, Map<String, Double> rates) {
        return IvmOptions.defaults().withSnapshotEvery(3).withOutputMode(mode).withRelationRates(rates);
    }

    static <T> void runAndCompare(
            ConjunctiveQuery q,
            Semiring<T> k,
            List<Insert<T>> stream,
            String backend,
            int parallelism,
            String label,
            IvmOptions options)
            throws Exception {
        OutputMode mode = options.outputMode();
        Map<String, Double> rates = options.relationRates();
        MaintenancePlan plan = Planner.plan(q, k);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(config(backend, parallelism));
        IvmTestJobs.Partitioned<T> parts = IvmTestJobs.Partitioned.roundRobin(stream, parallelism);
        DataStream<InputRecord<T>> input =
                IvmTestJobs.source(env, parts, FlinkIvm.inputType(k), RateLimiterStrategy.noOp());
        IvmJob<T> job = FlinkIvm.maintain(input, plan, k, options);
        List<ResultRecord<T>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> it = job.results().executeAndCollect("ivm " + label)) {
            it.forEachRemaining(collected::add);
        }
        int sinks = job.results().getParallelism();
        assertThat(sinks)
                .isEqualTo(FlinkJobLayout.of(plan, parallelism, new RelationRates(rates))
                        .sink()
                        .parallelism());
        if (mode == OutputMode.SNAPSHOT) {
            IvmTestJobs.checkSnapshots(plan, k, parts, collected, sinks, label);
            return;
        }
        // A changelog folds into the snapshots.
        TreeMap<Long, Map<Tuple, T>> states = Snapshots.changelogStates(collected, sinks);
        Map<Long, long[]> cuts = Snapshots.cuts(collected);
        assertThat(states).containsKey((long) stream.size());
        for (Map.Entry<Long, Map<Tuple, T>> e : states.entrySet()) {
            KDatabase<T> db = new KDatabase<>(k);
            for (Insert<T> i : parts.claimed(cuts.get(e.getKey()))) {
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            assertThat(e.getValue())
                    .as("changelog state %d of %s", e.getKey(), label)
                    .isEqualTo(NaiveEvaluator.evaluate(q, k, db.relations()));
        }
    }

    /**
     * Progress epochs (minor ones) between the snapshots: an operator applies the deltas of a later
     * minor epoch at once, however far one ingest subtask runs ahead, and every snapshot is still the
     * oracle's over exactly its cut, in both output modes.
     */
    @ParameterizedTest(name = "{0} p={1} {2}")
    @MethodSource("progressCases")
    void progressEpochsBetweenSnapshotsKeepEverySnapshotExact(String backend, int parallelism, OutputMode mode)
            throws Exception {
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        for (long s = 9000 + parallelism * 10L; s < 9000 + parallelism * 10L + 3; s++) {
            DifferentialCase<Long> c = DifferentialCase.generate(k, s);
            IvmOptions options = IvmOptions.defaults()
                    .withSnapshotEvery(5)
                    .withProgressEvery(1 + s % 2)
                    .withOutputMode(mode);
            runAndCompare(c.query(), k, c.stream(), backend, parallelism, "seed " + s + " (" + c.kind() + ")", options);
        }
    }

    static Stream<Arguments> progressCases() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("hashmap", "rocksdb")) {
            for (int parallelism : List.of(2, 4)) {
                out.add(Arguments.of(
                        backend, parallelism, parallelism == 2 ? OutputMode.SNAPSHOT : OutputMode.CHANGELOG));
            }
        }
        return out.stream();
    }

    /** Sink subtasks that emit an end marker per snapshot. */
    static int sinkParts(MaintenancePlan plan, int parallelism) {
        return FlinkJobLayout.of(plan, parallelism).sink().parallelism();
    }

    /**
     * With relation rates the sink's cells differ (a fast relation's root view is replicated less):
     * every snapshot is still the oracle's over its cut. Random rates span four orders of magnitude;
     * TPC-H's table sizes key the sink by O alone, each customer in every cell.
     */
    @ParameterizedTest(name = "rates {0} p={1}")
    @MethodSource("ratesCases")
    void randomQueriesWithRelationRatesMatchTheOracle(String backend, int parallelism) throws Exception {
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        Random random = new Random(parallelism * 31L + backend.length());
        for (long s = 7000 + parallelism * 10L; s < 7000 + parallelism * 10L + 3; s++) {
            DifferentialCase<Long> c = DifferentialCase.generate(k, s);
            Map<String, Double> rates = new java.util.LinkedHashMap<>();
            for (String relation : c.query().relations()) {
                rates.put(relation, Math.pow(10, 4 * random.nextDouble()));
            }
            runAndCompare(
                    c.query(),
                    k,
                    c.stream(),
                    backend,
                    parallelism,
                    "rates " + rates + " seed " + s + " (" + c.kind() + ")",
                    everyThird(OutputMode.SNAPSHOT, rates));
        }
        ConjunctiveQuery tpch =
                QueryParser.parse("Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)");
        List<Insert<Long>> stream = RandomStreams.generate(tpch, k, random, 300);
        Map<String, Double> sizes = Map.of("Customer", 150_000.0, "Orders", 1_500_000.0, "Lineitem", 6_001_215.0);
        assertThat(FlinkJobLayout.of(Planner.plan(tpch, k), parallelism, new RelationRates(sizes))
                        .shares()
                        .describe())
                .isEqualTo("O=" + parallelism);
        runAndCompare(tpch, k, stream, backend, parallelism, "TPC-H sizes", everyThird(OutputMode.SNAPSHOT, sizes));
    }

    static Stream<Arguments> ratesCases() {
        return Stream.of(Arguments.of("hashmap", 2), Arguments.of("rocksdb", 4), Arguments.of("hashmap", 4));
    }

    @ParameterizedTest(name = "{0} p={1}")
    @MethodSource("backends")
    void example10(String backend, int parallelism) throws Exception {
        ConjunctiveQuery q = QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)");
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        Random r = new Random(7);
        List<Insert<Long>> stream = RandomStreams.generate(q, k, r, 300);
        runAndCompare(q, k, stream, backend, parallelism, "Ex. 10");
    }

    @ParameterizedTest(name = "changelog {0} seed={1}")
    @MethodSource("changelogCases")
    void changelogFoldsToEverySnapshot(String semiringName, long seed) throws Exception {
        changelog(Semirings.byName(semiringName), seed);
    }

    private static <T> void changelog(Semiring<T> k, long seed) throws Exception {
        heapCases(k, seed * 1000, "changelog", everyThird(OutputMode.CHANGELOG, Map.of()));
    }

    /** Three generated cases from seed {@code from} on the heap backend at P = 2 with {@code options}. */
    private static <T> void heapCases(Semiring<T> k, long from, String label, IvmOptions options) throws Exception {
        for (long s = from; s < from + 3; s++) {
            DifferentialCase<T> c = DifferentialCase.generate(k, s);
            runAndCompare(
                    c.query(), k, c.stream(), "hashmap", 2, label + " seed " + s + " (" + c.kind() + ")", options);
        }
    }

    /**
     * The heap backend with flink-ivm's state in Flink's managed keyed state, where the state keeps the
     * stored objects themselves: a record read and changed is written back as a new object, and a
     * record's links and the lists' heads are stored without the values of their list's key.
     */
    @ParameterizedTest(name = "managed heap state {0} {1}")
    @MethodSource("managedHeapCases")
    void managedHeapStateMatchesTheOracle(String semiringName, OutputMode mode) throws Exception {
        managedHeap(Semirings.byName(semiringName), mode);
    }

    private static <T> void managedHeap(Semiring<T> k, OutputMode mode) throws Exception {
        ConjunctiveQuery ex10 = QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)");
        runAndCompare(
                ex10,
                k,
                RandomStreams.generate(ex10, k, new Random(11), 300),
                "hashmap",
                2,
                "managed heap Ex. 10",
                everyThird(mode, Map.of()).withManagedState(true));
        heapCases(k, 7000, "managed heap", everyThird(mode, Map.of()).withManagedState(true));
    }

    static Stream<Arguments> managedHeapCases() {
        return Stream.of(
                Arguments.of("natural", OutputMode.SNAPSHOT),
                Arguments.of("provenance", OutputMode.CHANGELOG),
                Arguments.of("min-plus", OutputMode.CHANGELOG));
    }

    static Stream<Arguments> changelogCases() {
        return Stream.of(Arguments.of("natural", 41L), Arguments.of("min-plus", 42L), Arguments.of("provenance", 43L));
    }

    static Stream<Arguments> backends() {
        return Stream.of(Arguments.of("hashmap", 1), Arguments.of("rocksdb", 2), Arguments.of("hashmap", 4));
    }
}
