package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.KeyedCase;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.StarSchemas;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
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
 * Plans that rely on keys on a MiniCluster, parallelism 1 and 2, heap and RocksDB: the worked
 * examples (closures and absorbed key tables), random keyed cases and random star and snowflake
 * schemas (against the in-memory engine too), over streams whose rows often arrive before their key rows and
 * which break a key now and then. The final result equals the naive evaluator's over the rows the
 * job did not reject, and the rows on the dead-letter stream are exactly rows that break a key (at
 * parallelism 2, which of two rows with one key value comes first is up to the shuffle).
 */
class KeyedPlanITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final List<String> WORKED = List.of(
            "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok,ln) KEY customer(ck), orders(ok), lineitem(ok,ln)",
            "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok,ln) KEY customer(ck), orders(ok)",
            "Q(name,city,state,aid) :- auction(aid,seller), person(seller,name,city,state)"
                    + " KEY auction(aid), person(seller)",
            "Q(ck,cn,nn) :- customer(ck,cn,nk), orders(ok,ck), lineitem(ok,ln), nation(nk,nn)"
                    + " KEY customer(ck), orders(ok), nation(nk)",
            // Absorbed: the snowflake, TPC-H Q12's and Q7's shapes (two nations, a stage and its copy).
            "Q() :- shipment(cid,pid,oid), item_return(oid), orders(oid,rid), product(pid), carrier(cid), region(rid)"
                    + " KEY orders(oid), product(pid), carrier(cid), region(rid)",
            "Q(sm) :- orders(ok,'1'), lineitem(ok,sm) KEY orders(ok)",
            "Q(n1,n2) :- supplier(sk,k1), customer(ck,k2), lineitem(ok,sk), orders(ok,ck), nation(k1,n1),"
                    + " nation(k2,n2) KEY supplier(sk), customer(ck), orders(ok), nation(#0)");

    static Stream<Arguments> worked() {
        List<Arguments> out = new ArrayList<>();
        for (int q = 0; q < WORKED.size(); q++) {
            out.add(Arguments.of(q, "hashmap", 1, OutputMode.SNAPSHOT));
            out.add(Arguments.of(q, "rocksdb", 2, OutputMode.SNAPSHOT));
            out.add(Arguments.of(q, "hashmap", 2, OutputMode.CHANGELOG));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} p={2} {3}")
    @MethodSource("worked")
    void workedExamplesMatchTheOracle(int index, String backend, int parallelism, OutputMode mode) throws Exception {
        ConjunctiveQuery q = QueryParser.parse(WORKED.get(index));
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        // At parallelism 1 the keys that only the head's closure relies on are checked too.
        MaintenancePlan plan = Planner.plan(q, k).withKeyChecks(parallelism == 1);
        assertThat(plan).isInstanceOf(KeyedPlan.class);
        List<Insert<Long>> stream = KeyedCase.stream(q, k, new Random(31L * index + parallelism), 300);
        KeyedCase<Long> c = new KeyedCase<>(k, index, q, stream).respectingTrusted(plan);
        if (!((KeyedPlan) plan).stages().isEmpty()) {
            assertThat(c.rejected(plan)).as("the stream breaks a key").isNotEmpty();
        }
        run(c, plan, backend, parallelism, mode);
    }

    static Stream<Arguments> random() {
        return Stream.of(
                Arguments.of("natural", "hashmap", 2),
                Arguments.of("min-plus", "rocksdb", 2),
                Arguments.of("provenance", "hashmap", 1));
    }

    /** Random queries with random keys, the first few cases of each seed range that the planner runs on a closure. */
    @ParameterizedTest(name = "{0} {1} p={2}")
    @MethodSource("random")
    void randomKeyedCasesMatchTheOracle(String semiring, String backend, int parallelism) throws Exception {
        randomCases(Semirings.byName(semiring), backend, parallelism);
    }

    private static <T> void randomCases(Semiring<T> k, String backend, int parallelism) throws Exception {
        int run = 0;
        for (long seed = 900_000L * parallelism; run < 4; seed++) {
            KeyedCase<T> generated = KeyedCase.generate(k, seed);
            MaintenancePlan plan = Planner.plan(generated.query(), k).withKeyChecks(seed % 2 == 0);
            if (plan instanceof KeyedPlan) {
                run(generated.respectingTrusted(plan), plan, backend, parallelism, OutputMode.SNAPSHOT);
                run++;
            }
        }
    }

    static Stream<Arguments> stars() {
        return Stream.of(
                Arguments.of("natural", "hashmap", 2),
                Arguments.of("max-plus", "rocksdb", 2),
                Arguments.of("provenance", "rocksdb", 1));
    }

    /**
     * Random star and snowflake schemas ({@link StarSchemas}) whose plans absorb key tables: the job's
     * final result equals the in-memory engine's over the rows the job did not reject (and the
     * oracle's).
     */
    @ParameterizedTest(name = "{0} {1} p={2}")
    @MethodSource("stars")
    void absorbedStarSchemasMatchTheInMemoryEngine(String semiring, String backend, int parallelism) throws Exception {
        stars(Semirings.byName(semiring), backend, parallelism);
    }

    private static <T> void stars(Semiring<T> k, String backend, int parallelism) throws Exception {
        int run = 0;
        for (long seed = 930_000L * parallelism; run < 4; seed++) {
            KeyedCase<T> c = StarSchemas.generate(k, seed);
            MaintenancePlan plan = Planner.plan(c.query(), k);
            if (plan instanceof KeyedPlan keyed && !keyed.absorptions().isEmpty()) {
                KeyedCase<T> kept = c.respectingTrusted(plan);
                Outcome<T> job = run(kept, plan, backend, parallelism, OutputMode.SNAPSHOT);
                IvmEngine<T> engine = Engines.create(plan, k);
                for (int n = 0; n < kept.stream().size(); n++) {
                    if (!job.rejected().contains(n)) {
                        Insert<T> i = kept.stream().get(n);
                        engine.insert(i.relation(), i.tuple(), i.payload());
                    }
                }
                Map<Tuple, T> inMemory = new java.util.HashMap<>();
                engine.enumerate().forEachRemaining(t -> inMemory.put(t.tuple(), t.payload()));
                assertThat(ResultDiff.compare(
                                k, inMemory, List.copyOf(job.result().entrySet())))
                        .as("the job against the in-memory engine; %s", kept.describe() + plan.explain())
                        .isEmpty();
                run++;
            }
        }
    }

    /** What a job did: the inserts it rejected (positions in the stream) and its final result. */
    private record Outcome<T>(Set<Integer> rejected, Map<Tuple, T> result) {}

    private static <T> Outcome<T> run(
            KeyedCase<T> c, MaintenancePlan plan, String backend, int parallelism, OutputMode mode) throws Exception {
        Semiring<T> k = c.semiring();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, parallelism));
        IvmTestJobs.Partitioned<T> parts = IvmTestJobs.Partitioned.roundRobin(c.stream(), parallelism);
        DataStream<InputRecord<T>> input =
                IvmTestJobs.source(env, parts, FlinkIvm.inputType(k), RateLimiterStrategy.noOp());
        IvmJob<T> job = FlinkIvm.maintain(input, plan, k, IvmOptions.defaults().withOutputMode(mode));
        List<ResultRecord<T>> records = new ArrayList<>();
        Set<Integer> rejected = new TreeSet<>();
        List<String> reasons = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> results = job.results().collectAsync();
                CloseableIterator<DeadLetter> dead = job.deadLetters().collectAsync()) {
            env.execute("keys " + plan.query());
            results.forEachRemaining(records::add);
            dead.forEachRemaining(d -> {
                rejected.add(Integer.parseInt(d.origin().substring("insert ".length())) - 1);
                reasons.add(d.reason());
            });
        }
        String context = c.describe() + "plan:\n" + plan.explain() + "rejected: " + reasons;
        assertThat(c.checkRejections(plan, rejected)).as(context).isNull();
        assertThat(reasons).allSatisfy(r -> assertThat(r).contains(" breaks KEY "));
        int sinks = job.results().getParallelism();
        Map<Tuple, T> result;
        if (mode == OutputMode.SNAPSHOT) {
            result = Snapshots.latest(records, sinks);
        } else {
            TreeMap<Long, Map<Tuple, T>> states = Snapshots.changelogStates(records, sinks);
            result = states.lastEntry().getValue();
        }
        Map<Tuple, T> expected = c.expected(c.stream().size(), rejected);
        assertThat(ResultDiff.compare(k, expected, List.copyOf(result.entrySet())))
                .as("final result of %s", context)
                .isEmpty();
        return new Outcome<>(rejected, result);
    }
}
