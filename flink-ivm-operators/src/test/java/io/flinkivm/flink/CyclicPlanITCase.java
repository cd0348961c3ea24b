package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cyclic p-hierarchical queries on a MiniCluster with their own plan (the bags in the border sink):
 * the triangle with bound ears, a 4-cycle, the 4-clique, and a triangle under a variable that every
 * atom has (so the sink is keyed and runs in parallel); random streams over every built-in semiring,
 * on heap and RocksDB at parallelism 1 and 2 (each semiring on one of the four). Every
 * prefix-exact snapshot equals the naive evaluator's result after as many inserts, and the last one
 * the core engine's. One job per semiring maintains the four queries side by side.
 */
class CyclicPlanITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final String TRIANGLE_WITH_EARS = "Q(A,B,C) :- R(A,B,D), S(B,C), T(A,C,E)";
    static final String FOUR_CYCLE = "Q(A,B,C,D) :- R(A,B), S(B,C), T(C,D), U(D,A)";
    static final String FOUR_CLIQUE = "Q(A,B,C,D) :- R(A,B), S(A,C), T(A,D), U(B,C), V(B,D), W(C,D)";
    /** X is in every atom: the sink is keyed by X, each X a triangle of its own. */
    static final String KEYED_TRIANGLE = "Q(X,A,B,C) :- R(X,A,B), S(X,B,C), T(X,A,C)";

    static final List<String> QUERIES = List.of(TRIANGLE_WITH_EARS, FOUR_CYCLE, FOUR_CLIQUE, KEYED_TRIANGLE);

    /**
     * Each built-in semiring once, on one of heap/RocksDB × parallelism 1/2 (each of the four at least
     * once; RocksDB only three times, as its jobs start slowly: a column family per state of every keyed
     * operator; the third for the sums, whose sink reads and writes its payloads as longs).
     */
    static Stream<Arguments> cases() {
        String[][] where = {
            {"hashmap", "1"},
            {"rocksdb", "1"},
            {"hashmap", "2"},
            {"rocksdb", "2"},
            {"hashmap", "1"},
            {"hashmap", "2"},
            {"hashmap", "1"},
            {"hashmap", "2"},
            {"rocksdb", "1"}
        };
        List<String> semirings = TestSemirings.BUILT_INS;
        assertThat(semirings).hasSize(where.length);
        List<Arguments> out = new ArrayList<>();
        for (int i = 0; i < semirings.size(); i++) {
            out.add(Arguments.of(semirings.get(i), where[i][0], Integer.parseInt(where[i][1]), 100L + i));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} p={2} seed={3}")
    @MethodSource("cases")
    void everySnapshotEqualsTheOracle(String semiring, String backend, int parallelism, long seed) throws Exception {
        check(TestSemirings.byName(semiring), backend, parallelism, seed);
    }

    /** One Flink job maintaining every query of {@link #QUERIES}, each over its own random stream. */
    private static <T> void check(Semiring<T> k, String backend, int parallelism, long seed) throws Exception {
        Random r = new Random(seed);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, parallelism));
        List<IvmTestJobs.Partitioned<T>> streams = new ArrayList<>();
        List<MaintenancePlan> plans = new ArrayList<>();
        String run = "cyclic " + k.name() + " " + backend + " p=" + parallelism + " seed=" + seed + " query ";
        for (int i = 0; i < QUERIES.size(); i++) {
            ConjunctiveQuery q = QueryParser.parse(QUERIES.get(i));
            MaintenancePlan plan = Planner.plan(q, k);
            assertThat(plan.kind()).as(plan.explain()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
            // Three values per variable; two for the six relations of the clique, so that short streams
            // complete cliques.
            RandomStreams.Domain domain =
                    new RandomStreams.Domain(q.body().size() > 4 ? 2 : 3, RandomStreams.ValueType.LONG);
            List<Insert<T>> stream = RandomStreams.generate(q, k, r, 96, domain, TestSemirings.payloads(k));
            IvmTestJobs.Partitioned<T> parts = IvmTestJobs.Partitioned.roundRobin(stream, parallelism);
            DataStream<InputRecord<T>> input = env.fromSource(
                            PartitionedSource.of(parts.records(), FlinkIvm.inputType(k)),
                            WatermarkStrategy.noWatermarks(),
                            "inserts " + i)
                    .setParallelism(parallelism)
                    .uid("test-inserts-" + i);
            IvmJob<T> job =
                    FlinkIvm.maintain(input, plan, k, IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY));
            assertThat(job.plan().kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
            IvmTestJobs.record(job.results(), run + i);
            streams.add(parts);
            plans.add(plan);
        }
        env.execute(run);
        for (int i = 0; i < QUERIES.size(); i++) {
            List<ResultRecord<T>> records = new ArrayList<>();
            for (IvmTestJobs.Seen<T> seen : IvmTestJobs.<T>seen(run + i)) {
                records.add(seen.record());
            }
            TreeMap<Long, Map<Tuple, T>> snapshots = IvmTestJobs.checkSnapshots(
                    plans.get(i),
                    k,
                    streams.get(i),
                    records,
                    FlinkIvmITCase.sinkParts(plans.get(i), parallelism),
                    run + i + ": " + QUERIES.get(i));
            assertThat(snapshots)
                    .as("snapshots of %s", QUERIES.get(i))
                    .hasSizeGreaterThanOrEqualTo(streams.get(i).stream().size() / SNAPSHOT_EVERY / parallelism);
            assertThat(snapshots.values().stream().mapToLong(Map::size).sum())
                    .as("result rows over all snapshots of %s (the stream must produce some)", QUERIES.get(i))
                    .isPositive();
        }
    }

    static final int SNAPSHOT_EVERY = 6;

    /** The job holds the cyclic plan: bags in the sink, keyed by a shared variable, or else over HyperCube cells. */
    @Test
    void theJobShowsTheCyclicPlan() {
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        for (String text : List.of(TRIANGLE_WITH_EARS, KEYED_TRIANGLE)) {
            MaintenancePlan plan = Planner.plan(QueryParser.parse(text), k);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config("hashmap", 2));
            IvmJob<Long> job = FlinkIvm.maintain(
                    env.fromData(List.of(InputRecord.insert("S", Tuple.of(1L, 2L), 1L)), FlinkIvm.inputType(k)),
                    plan,
                    k,
                    IvmOptions.defaults().withParallelism(2));
            assertThat(job.plan()).isSameAs(plan);
            assertThat(job.plan().explain()).contains("fhtw = 1.5");
            assertThat(job.results().getTransformation().getName()).startsWith("bags (worst-case-optimal delta joins)");
            assertThat(job.results().getParallelism()).as(text).isEqualTo(2);
            assertThat(job.layout().sink().input())
                    .as(text)
                    .startsWith(text.equals(KEYED_TRIANGLE) ? "hash(" : "shares ");
        }
    }
}
