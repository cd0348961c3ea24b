package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomQueries;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import io.flinkivm.flink.IvmTestJobs.Emitted;
import io.flinkivm.flink.IvmTestJobs.Fault;
import io.flinkivm.flink.IvmTestJobs.FaultKind;
import io.flinkivm.flink.IvmTestJobs.Fired;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Randomized fault injection on a MiniCluster, checkpoints every 100 ms (incremental on RocksDB),
 * RocksDB or the heap backend (where the view trees and the sink keep their state in their own hash
 * maps, written to raw keyed state) and parallelism 1, 2 or 4, both by seed (the input in as many
 * partitions, subtask i reads partition i).
 * Each case is drawn from its seed: a random query (even seeds p-hierarchical, from
 * {@link RandomQueries#pHierarchical}, with a sink keyed by a shared variable or a join view
 * ({@link Shape}); odd seeds not p-hierarchical, run by the fallback plan), a
 * semiring (natural, min-plus, max-plus, Boolean), a random stream of {@value #INSERTS} inserts, and
 * a schedule of {@value #FAULTS} failures, one per attempt ({@link FaultKind}): at a random record
 * between the source and flink-ivm, in {@code snapshotState} of a random checkpoint (a checkpoint in
 * flight: the operators before the injector have taken their part), in
 * {@code notifyCheckpointComplete} of a random checkpoint, and right after the sink emitted a random
 * snapshot. Every schedule has a checkpoint fault and a snapshot fault. The source lets
 * {@value #PER_CHECKPOINT} inserts through per completed checkpoint, so checkpoints fall in the
 * middle of the stream and every fault comes before its end.
 *
 * <p>After recovery, every snapshot delivered by the exactly-once collect sink equals the run without
 * failures, whose snapshots each equal the core engine's result over the inserts their cut claims,
 * and the last one equals the naive oracle's. Across all attempts (the recorder sees every emitted record), every snapshot that was
 * emitted completely has the reference's contents, so no snapshot id is emitted twice with
 * different contents; the snapshot after which a failure was injected was emitted completely again.
 *
 * <p>A failing case prints its seed; rerun it alone with {@code -Dflinkivm.faults.seed=S}. The
 * number of cases (default 6, two per parallelism, about 10 s each on an idle machine) is {@code -Dflinkivm.faults.cases=N}, e.g.
 * {@code mvn -o -pl flink-ivm-operators -am verify -Dtest=FaultInjectionITCase
 * -Dsurefire.failIfNoSpecifiedTests=false -Dflinkivm.faults.cases=40} for a longer run.
 */
class FaultInjectionITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final int INSERTS = 1000;
    static final int PER_CHECKPOINT = 150;
    static final long SNAPSHOT_EVERY = 20;
    static final int[] PARALLELISMS = {1, 2, 4};
    static final int FAULTS = 3;
    static final long FIRST_SEED = 7000;
    static final List<String> SEMIRINGS = List.of("natural", "min-plus", "max-plus", "boolean");

    static Stream<Long> seeds() {
        String one = System.getProperty("flinkivm.faults.seed");
        if (one != null && !one.isBlank()) {
            return Stream.of(Long.parseLong(one.trim()));
        }
        int cases = Integer.getInteger("flinkivm.faults.cases", 6);
        return LongStream.range(FIRST_SEED, FIRST_SEED + cases).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void recoveryFromRandomFaultsChangesNoSnapshot(long seed, @TempDir Path dir) throws Exception {
        // Four successive seeds cover the four semirings; the next four pair them with the other plan.
        Semiring<?> k = TestSemirings.byName(SEMIRINGS.get((int) Math.floorMod(seed + seed / 4, 4L)));
        check(seed, new Random(seed), k, dir);
    }

    private static <T> void check(long seed, Random r, Semiring<T> k, Path dir) throws Exception {
        long start = System.nanoTime();
        int parallelism = PARALLELISMS[(int) Math.floorMod(seed / 2, 3L)];
        String backend = Math.floorMod(seed, 4L) < 2 ? "hashmap" : "rocksdb";
        Case<T> c = Case.generate(Shape.of(seed), r, k);
        IvmTestJobs.Partitioned<T> input = IvmTestJobs.Partitioned.roundRobin(c.stream(), parallelism);
        long generated = System.nanoTime();
        List<Fault> faults = schedule(r, parallelism);
        String run = "faults seed " + seed;
        String context = "seed " + seed + " (rerun with -Dflinkivm.faults.seed=" + seed + "): " + k.name() + ", "
                + c.plan().kind() + " plan of " + c.plan().query() + ", " + backend + ", parallelism " + parallelism
                + ", faults " + faults;
        try {
            int parts = FlinkIvmITCase.sinkParts(c.plan(), parallelism);
            List<ResultRecord<T>> referenceRecords = run(
                    run + " reference",
                    c,
                    input,
                    k,
                    backend,
                    List.of(),
                    RateLimiterStrategy.noOp(),
                    Files.createDirectories(dir.resolve("reference")));
            TreeMap<Long, Map<Tuple, T>> reference = Snapshots.byId(referenceRecords, parts);
            TreeMap<Long, long[]> cuts = Snapshots.cuts(referenceRecords);
            assertThat(reference.keySet())
                    .as("snapshots of the run without failures")
                    .isEqualTo(cuts.keySet())
                    .contains((long) INSERTS);
            assertThat(reference)
                    .as("run without failures vs the core engine over each cut")
                    .isEqualTo(IvmTestJobs.overCuts(c.plan(), k, input, cuts));
            assertThat(reference.get((long) INSERTS))
                    .as("final snapshot vs the naive oracle")
                    .isEqualTo(IvmTestJobs.oracle(c.plan(), k, c.stream()));

            long referenced = System.nanoTime();
            TreeMap<Long, Map<Tuple, T>> recovered = Snapshots.byId(
                    run(
                            run,
                            c,
                            input,
                            k,
                            backend,
                            faults,
                            RateLimiterStrategy.perCheckpoint(PER_CHECKPOINT),
                            Files.createDirectories(dir.resolve("faults"))),
                    parts);
            List<Fired> fired = IvmTestJobs.fired(run);
            context += "\nfired: " + fired;
            System.out.printf(
                    "fault injection seed %d: %s, %s plan (%s) of %s on %s at parallelism %d; case %d ms,"
                            + " reference run %d ms, run with faults %d ms; fired: %s%n",
                    seed,
                    k.name(),
                    c.plan().kind(),
                    Shape.of(seed),
                    c.plan().query(),
                    backend,
                    parallelism,
                    (generated - start) / 1_000_000,
                    (referenced - generated) / 1_000_000,
                    (System.nanoTime() - referenced) / 1_000_000,
                    fired);
            assertThat(fired).as("failures thrown").hasSize(faults.size());
            assertThat(recovered)
                    .as("snapshots after recovery vs the run without failures")
                    .isEqualTo(reference);
            Emitted emitted = IvmTestJobs.checkEmittedSnapshots(run, reference, parts);
            for (Fired f : fired) {
                if (f.fault().kind() == FaultKind.AFTER_SNAPSHOT) {
                    assertThat(emitted.completeIn().get(f.snapshot()))
                            .as("attempts that emitted snapshot %d completely (a failure followed it)", f.snapshot())
                            .isGreaterThanOrEqualTo(2);
                }
            }
        } catch (AssertionError | Exception e) {
            throw new AssertionError(context + "\n" + e.getMessage(), e);
        }
    }

    /**
     * {@value #FAULTS} faults in random order: one during or at the end of a checkpoint, one right
     * after a snapshot, one of any kind. Each lets the stream advance by at most two checkpoints'
     * worth of inserts (at-record faults count the records of one of {@code parallelism} subtasks),
     * or three snapshots', so that the last one still comes before the end.
     */
    static List<Fault> schedule(Random r, int parallelism) {
        List<FaultKind> kinds = new ArrayList<>();
        kinds.add(r.nextBoolean() ? FaultKind.IN_CHECKPOINT : FaultKind.ON_CHECKPOINT_COMPLETE);
        kinds.add(FaultKind.AFTER_SNAPSHOT);
        while (kinds.size() < FAULTS) {
            kinds.add(FaultKind.values()[r.nextInt(FaultKind.values().length)]);
        }
        Collections.shuffle(kinds, r);
        List<Fault> out = new ArrayList<>();
        for (FaultKind kind : kinds) {
            out.add(
                    switch (kind) {
                        case AT_RECORD -> new Fault(kind, true, 1 + r.nextInt(2 * PER_CHECKPOINT / parallelism));
                        case IN_CHECKPOINT, ON_CHECKPOINT_COMPLETE ->
                            new Fault(kind, r.nextBoolean(), 1 + r.nextInt(2));
                        case AFTER_SNAPSHOT -> new Fault(kind, false, 1 + r.nextInt(3));
                    });
        }
        return out;
    }

    /** Runs the job (with the faults injected) and returns the records the collect sink delivered. */
    private static <T> List<ResultRecord<T>> run(
            String run,
            Case<T> c,
            IvmTestJobs.Partitioned<T> input,
            Semiring<T> k,
            String backend,
            List<Fault> faults,
            RateLimiterStrategy<?> rate,
            Path checkpoints)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                IvmTestJobs.checkpointed(backend, input.parallelism(), checkpoints));
        DataStream<InputRecord<T>> inserts =
                IvmTestJobs.injectFaults(IvmTestJobs.source(env, input, FlinkIvm.inputType(k), rate), run, faults);
        IvmJob<T> job =
                FlinkIvm.maintain(inserts, c.plan(), k, IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY));
        IvmTestJobs.record(job.results(), run, faults, job.results().getParallelism());
        List<ResultRecord<T>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> it = job.results().executeAndCollect(run)) {
            it.forEachRemaining(collected::add);
        }
        return collected;
    }

    /** What a case's plan must have. */
    enum Shape {
        /** P-hierarchical, the sink keyed by a variable of every root view. */
        PARALLEL_SINK,
        /** P-hierarchical, with a join view below a root view. */
        JOIN_VIEW,
        /** Not p-hierarchical: the fallback plan. */
        FALLBACK;

        static Shape of(long seed) {
            return seed % 2 != 0 ? FALLBACK : seed % 4 == 0 ? PARALLEL_SINK : JOIN_VIEW;
        }
    }

    /** A random query, its plan and a stream, drawn until the case has its shape and is small enough to check quickly. */
    record Case<T>(MaintenancePlan plan, List<Insert<T>> stream) {

        /** Largest result checked (rows per snapshot). */
        static final int MAX_ROWS = 300;
        /** Most atoms in a query (the fallback's delta joins over six atoms take long on RocksDB). */
        static final int MAX_ATOMS = 5;
        /** Bound on the naive oracle's work: the product of the atoms' relation sizes. */
        static final double MAX_SEARCH = 1e6;

        static <T> Case<T> generate(Shape shape, Random r, Semiring<T> k) {
            boolean pHierarchical = shape != Shape.FALLBACK;
            while (true) {
                ConjunctiveQuery q = pHierarchical ? RandomQueries.pHierarchical(r) : RandomQueries.notPHierarchical(r);
                RandomStreams.Domain domain = RandomStreams.Domain.random(r);
                List<Insert<T>> stream = RandomStreams.generate(q, k, r, INSERTS, domain, TestSemirings.payloads(k));
                if (q.body().size() < 2 || q.body().size() > MAX_ATOMS || search(q, stream) > MAX_SEARCH) {
                    continue;
                }
                MaintenancePlan plan = Planner.plan(q, k);
                if ((plan instanceof PHierarchicalPlan) != pHierarchical) {
                    continue;
                }
                // Operators whose input has several channels (they hold records back in their state
                // across checkpoints): a sink keyed by a shared variable, or a join view below a root.
                if ((shape == Shape.PARALLEL_SINK && FlinkJobLayout.of(plan, 2).hashVariable() == null)
                        || (shape == Shape.JOIN_VIEW
                                && plan instanceof ViewTreePlan trees
                                && trees.statefulNodes().isEmpty())) {
                    continue;
                }
                Map<Tuple, T> result = IvmTestJobs.coreSnapshots(plan, k, stream, Set.of((long) INSERTS))
                        .get((long) INSERTS);
                if (!result.isEmpty() && result.size() <= MAX_ROWS) {
                    return new Case<>(plan, stream);
                }
            }
        }

        /** The product over the atoms of the number of distinct tuples of their relation. */
        private static <T> double search(ConjunctiveQuery q, List<Insert<T>> stream) {
            Map<String, Set<Tuple>> distinct = new HashMap<>();
            for (Insert<T> i : stream) {
                distinct.computeIfAbsent(i.relation(), x -> new HashSet<>()).add(i.tuple());
            }
            double product = 1;
            for (Atom a : q.body()) {
                product *= distinct.getOrDefault(a.relation(), Set.of()).size();
            }
            return product;
        }
    }
}
