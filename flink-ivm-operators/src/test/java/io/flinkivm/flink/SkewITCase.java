package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Skew: one key receives half of all {@value #INSERTS} inserts. The paper's Ex. 10 and a star
 * query (both p-hierarchical, hot free variable A: the views of the hot key and, for the star,
 * whose sink is keyed by A, one sink subtask get half the load), and a path query that is not
 * p-hierarchical (fallback delta joins, hot join value B, so that half the inserts join with every
 * tuple of the hot value), at parallelism 2 on heap and RocksDB (the input in two partitions). Checkpoints run every 100 ms under
 * this load, and the source lets only {@value #PER_CHECKPOINT} inserts through per completed
 * checkpoint: the job finishes only if checkpoints complete while the hot key's deltas queue up (no
 * failure is tolerated). Every snapshot equals the core engine's, the last one the naive oracle's.
 * Each run prints its inserts per second.
 */
class SkewITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final Semiring<Long> K = NaturalSemiring.INSTANCE;
    static final int INSERTS = 12_000;
    static final int PER_CHECKPOINT = INSERTS / 8;
    static final long SNAPSHOT_EVERY = INSERTS / 4;
    static final int PARALLELISM = 2;
    /** The hot value; cold values of the hot variable are 1 to {@value #COLD_KEYS}. */
    static final long HOT = 0;

    static final int COLD_KEYS = 1000;

    static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";
    static final String STAR = "Q(A,B,C) :- R(A,B), S(A,C), T(A,D)";
    static final String PATH = "Q(A,C) :- R(A,B), S(B,C)";

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("hashmap", "rocksdb")) {
            // Domains of the other variables keep the hot key's part of the result (and the oracle's search) small.
            out.add(Arguments.of(EX10, "A", Map.of("B", 4, "C", 10, "D", 3, "E", 3, "F", 3, "G", 3, "H", 3), backend));
            out.add(Arguments.of(STAR, "A", Map.of("B", 5, "C", 5, "D", 3), backend));
            out.add(Arguments.of(PATH, "B", Map.of("A", 40, "C", 40), backend));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, hot {1}, {3}")
    @MethodSource("cases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void halfOfAllInsertsOnOneKey(
            String query, String hot, Map<String, Integer> domains, String backend, @TempDir Path dir)
            throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), K);
        assertThat(plan.kind()).isEqualTo(query.equals(PATH) ? PlanKind.FALLBACK_DELTA_JOIN : PlanKind.P_HIERARCHICAL);
        List<Insert<Long>> stream = skewed(plan.query(), hot, domains, new Random(query.hashCode()), INSERTS);
        assertThat(hotShare(plan.query(), hot, stream))
                .as("share of the inserts on the hot key")
                .isBetween(0.48, 0.52);

        Configuration c = IvmTestJobs.checkpointed(backend, PARALLELISM, dir);
        c.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        IvmTestJobs.Partitioned<Long> input = IvmTestJobs.Partitioned.roundRobin(stream, PARALLELISM);
        IvmJob<Long> job = FlinkIvm.maintain(
                IvmTestJobs.source(
                        env, input, FlinkIvm.inputType(K), RateLimiterStrategy.perCheckpoint(PER_CHECKPOINT)),
                plan,
                K,
                IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY / PARALLELISM));
        List<ResultRecord<Long>> collected = new ArrayList<>();
        long start = System.nanoTime();
        try (CloseableIterator<ResultRecord<Long>> it = job.results().executeAndCollect("skew " + query)) {
            it.forEachRemaining(collected::add);
        }
        long millis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
        System.out.printf(
                "skew %s (hot %s), %s, parallelism %d: %d inserts in %d ms (%d inserts/s, with at least %d "
                        + "checkpoints)%n",
                query,
                hot,
                backend,
                PARALLELISM,
                INSERTS,
                millis,
                INSERTS * 1000L / millis,
                INSERTS / PER_CHECKPOINT - 1);

        TreeMap<Long, Map<Tuple, Long>> snapshots =
                Snapshots.byId(collected, job.results().getParallelism());
        // Both partitions hold INSERTS / 2 inserts: every epoch ends at the same count on both.
        Set<Long> ids = new TreeSet<>();
        for (long n = SNAPSHOT_EVERY; n <= INSERTS; n += SNAPSHOT_EVERY) {
            ids.add(n);
        }
        assertThat(snapshots.keySet()).isEqualTo(ids);
        assertThat(snapshots)
                .as("snapshots vs the core engine over their cuts")
                .isEqualTo(IvmTestJobs.overCuts(plan, K, input, Snapshots.cuts(collected)));
        Map<Tuple, Long> oracle = IvmTestJobs.oracle(plan, K, stream);
        assertThat(snapshots.get((long) INSERTS))
                .as("final snapshot vs the naive oracle")
                .isEqualTo(oracle);
        assertThat(oracle.keySet()).as("the hot key's results").anyMatch(t -> isHot(plan.query(), hot, t));
    }

    /**
     * Inserts of which half (at random) go to an atom with the hot variable and give it the hot
     * value; the others go to any atom with a cold value (1 to {@value #COLD_KEYS}) for the hot
     * variable. Other variables take values 0 to domain - 1; payloads are 1 to 3.
     */
    static List<Insert<Long>> skewed(ConjunctiveQuery q, String hot, Map<String, Integer> domains, Random r, int n) {
        List<Atom> withHot =
                q.body().stream().filter(a -> a.variables().contains(hot)).toList();
        List<Insert<Long>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            boolean isHot = r.nextBoolean();
            List<Atom> atoms = isHot ? withHot : q.body();
            Atom a = atoms.get(r.nextInt(atoms.size()));
            Object[] values = new Object[a.arity()];
            for (int p = 0; p < values.length; p++) {
                String v = ((Variable) a.terms().get(p)).name();
                values[p] =
                        v.equals(hot) ? (isHot ? HOT : 1L + r.nextInt(COLD_KEYS)) : (long) r.nextInt(domains.get(v));
            }
            out.add(new Insert<>(a.relation(), Tuple.of(values), 1L + r.nextInt(3)));
        }
        return out;
    }

    private static double hotShare(ConjunctiveQuery q, String hot, List<Insert<Long>> stream) {
        long count = 0;
        for (Insert<Long> i : stream) {
            Atom a = q.body().stream()
                    .filter(x -> x.relation().equals(i.relation()))
                    .findFirst()
                    .orElseThrow();
            int p = position(a.terms(), hot);
            if (p >= 0 && i.tuple().get(p).equals(HOT)) {
                count++;
            }
        }
        return (double) count / stream.size();
    }

    /** Whether a result tuple has the hot value (the path query's hot variable is bound: then any tuple). */
    private static boolean isHot(ConjunctiveQuery q, String hot, Tuple t) {
        int p = q.head().indexOf(hot);
        return p < 0 || t.get(p).equals(HOT);
    }

    private static int position(List<Term> terms, String variable) {
        for (int p = 0; p < terms.size(); p++) {
            if (terms.get(p) instanceof Variable v && v.name().equals(variable)) {
                return p;
            }
        }
        return -1;
    }
}
