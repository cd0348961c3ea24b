package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import io.flinkivm.core.testing.DifferentialCase;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.TestSemirings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential tests: after every few inserts of a random stream, each engine's result equals the
 * {@link io.flinkivm.core.oracle.NaiveEvaluator}'s over the same inserts. Every case runs the plan
 * that {@link Planner.Strategy#AUTO} picks and, where that is the p-hierarchical plan, the
 * {@link AblationEngine} on it and the forced {@link Planner.Strategy#FALLBACK} plan. A failure
 * names the semiring and seed (to be kept in {@code regressions/engine-seeds.txt}), the query, the
 * stream, the differences, and a shrunk stream.
 */
class EngineDifferentialTest {

    /**
     * Cases per semiring (fewer for provenance, whose polynomials make the oracle slow); seeds are
     * {@code 1_000_000 * (index + 1) + i}, or {@code 50_000_000 * (index + 1) + i} for the
     * non-positive ones. {@code -Ddifferential.scale=10} runs ten times as many, for a soak.
     */
    private static final int SCALE = Integer.getInteger("differential.scale", 1);

    private static final int CASES = 2000 * SCALE;
    private static final int PROVENANCE_CASES = 600 * SCALE;
    private static final int NON_POSITIVE_CASES = 1200 * SCALE;
    private static final String REGRESSIONS = "/regressions/engine-seeds.txt";

    static Stream<String> builtIns() {
        return TestSemirings.BUILT_INS.stream();
    }

    static Stream<String> nonPositive() {
        return TestSemirings.NON_POSITIVE.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIns")
    void enginesAgreeWithTheOracle(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        long base = 1_000_000L * (TestSemirings.BUILT_INS.indexOf(name) + 1);
        int cases = name.equals("provenance") ? PROVENANCE_CASES : CASES;
        Stats stats = new Stats();
        long cpu = cpuNanos();
        for (int i = 0; i < cases; i++) {
            check(k, base + i, stats);
        }
        System.out.printf("EngineDifferentialTest %s: %s; %.1f s CPU%n", name, stats, (cpuNanos() - cpu) / 1e9);
        // The generators must exercise the p-hierarchical engine a good deal, not only the fallback.
        assertThat(stats.pHierarchicalRuns).as("p-hierarchical runs").isGreaterThan(cases / 2);
        assertThat(stats.fallbackOnlyCases)
                .as("cases where AUTO took the fallback")
                .isGreaterThan(cases / 5);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nonPositive")
    void nonPositiveSemiringsTakeTheFallbackAndAgreeWithTheOracle(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        assertThat(k.has(SemiringProperty.POSITIVE)).isFalse();
        long base = 50_000_000L * (TestSemirings.NON_POSITIVE.indexOf(name) + 1);
        Stats stats = new Stats();
        long cpu = cpuNanos();
        for (int i = 0; i < NON_POSITIVE_CASES; i++) {
            check(k, base + i, stats);
        }
        System.out.printf("EngineDifferentialTest %s: %s; %.1f s CPU%n", name, stats, (cpuNanos() - cpu) / 1e9);
        assertThat(stats.pHierarchicalRuns).isZero();
        assertThat(stats.pHierarchicalQueries).as("p-hierarchical queries seen").isGreaterThan(NON_POSITIVE_CASES / 3);
    }

    @Test
    void fourBitSetsRefuseTheBorderAndSayWhy() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B), S(A)");
        MaintenancePlan plan = Planner.plan(q, TestSemirings.byName("four-bit"));
        assertThat(plan).isInstanceOf(FallbackPlan.class);
        assertThat(String.join("; ", ((FallbackPlan) plan).reasons())).contains("not positive");
        assertThatThrownBy(() -> Planner.plan(q, TestSemirings.byName("four-bit"), Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("not positive");
    }

    static Stream<Arguments> regressions() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (InputStream in = EngineDifferentialTest.class.getResourceAsStream(REGRESSIONS)) {
            assertThat(in).as(REGRESSIONS + " on the test class path").isNotNull();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                String text = line.replaceFirst("#.*", "").trim();
                if (text.isEmpty()) {
                    continue;
                }
                String[] parts = text.split("\\s+");
                if (parts.length != 2) {
                    throw new IllegalArgumentException(REGRESSIONS + " line " + lineNumber
                            + ": expected \"<semiring> <seed>\", got \"" + line + "\"");
                }
                out.add(Arguments.of(parts[0], Long.parseLong(parts[1])));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("regressions")
    void regressionSeedsStayFixed(String semiring, long seed) {
        check(TestSemirings.byName(semiring), seed, new Stats());
    }

    /** Runs case {@code seed} over {@code k} with every applicable plan. */
    private static <T> void check(Semiring<T> k, long seed, Stats stats) {
        DifferentialCase<T> c = DifferentialCase.generate(k, seed);
        Classification cl = QueryClassifier.classify(c.query());
        boolean pHierarchical = cl.pHierarchical().holds();
        boolean positive = k.has(SemiringProperty.POSITIVE);
        MaintenancePlan auto = plan(c, Planner.Strategy.AUTO);
        if (pHierarchical && positive && cl.alphaAcyclic().holds()) {
            expect(
                    c,
                    auto.kind() == PlanKind.P_HIERARCHICAL,
                    "AUTO must pick the p-hierarchical plan for an α-acyclic p-hierarchical query over a positive"
                            + " semiring, got:\n" + auto.explain());
        }
        if (!pHierarchical || !positive) {
            expect(c, auto.kind() == PlanKind.FALLBACK_DELTA_JOIN, "AUTO must fall back, got:\n" + auto.explain());
            try {
                Planner.plan(c.query(), k, Planner.Strategy.P_HIERARCHICAL);
                expect(c, false, "Strategy.P_HIERARCHICAL must be refused");
            } catch (UnsupportedPlanException expected) {
                // refused, as it must be
            }
        }
        List<Runtime> runtimes = new ArrayList<>();
        runtimes.add(new Runtime(auto.kind() + " engine", auto, false));
        if (auto.kind() == PlanKind.P_HIERARCHICAL) {
            runtimes.add(new Runtime("ablation engine (same semiring above the border)", auto, true));
            MaintenancePlan fallback = plan(c, Planner.Strategy.FALLBACK);
            expect(c, fallback.kind() == PlanKind.FALLBACK_DELTA_JOIN, "FALLBACK must give the fallback plan");
            runtimes.add(new Runtime("forced FALLBACK engine", fallback, false));
        }
        List<Map<Tuple, T>> expected = c.expected();
        for (Runtime runtime : runtimes) {
            String failure = run(c, runtime, expected);
            if (failure != null) {
                throw new AssertionError(failure + shrink(c, runtime));
            }
        }
        stats.cases++;
        stats.engineRuns += runtimes.size();
        stats.checkpoints += c.checkpoints().size() * runtimes.size();
        stats.inserts += c.stream().size() * runtimes.size();
        if (pHierarchical) {
            stats.pHierarchicalQueries++;
        }
        if (auto.kind() == PlanKind.P_HIERARCHICAL) {
            stats.pHierarchicalRuns++;
        } else {
            stats.fallbackOnlyCases++;
        }
        stats.fallbackRuns++;
        for (Map<Tuple, T> m : expected) {
            stats.resultTuples += m.size();
        }
    }

    private static <T> MaintenancePlan plan(DifferentialCase<T> c, Planner.Strategy strategy) {
        try {
            MaintenancePlan p = Planner.plan(c.query(), c.semiring(), strategy);
            p.validate();
            p.explain();
            return p;
        } catch (RuntimeException e) {
            throw new AssertionError("planning with " + strategy + " failed: " + e + "\n" + c.describe(0), e);
        }
    }

    private static void expect(DifferentialCase<?> c, boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what + "\n" + c.describe(0));
        }
    }

    /**
     * Feeds the case's stream to a new engine of {@code runtime}, comparing at each checkpoint; returns
     * null if all agree, else a failure message.
     */
    private static <T> String run(DifferentialCase<T> c, Runtime runtime, List<Map<Tuple, T>> expected) {
        Semiring<T> k = c.semiring();
        IvmEngine<T> engine;
        try {
            engine = runtime.create(k);
        } catch (RuntimeException e) {
            return failure(c, runtime, 0, "engine creation threw " + stackTrace(e));
        }
        Random lookups = new Random(c.seed() ^ 0x5DEECE66DL);
        int applied = 0;
        for (int cp = 0; cp < c.checkpoints().size(); cp++) {
            int checkpoint = c.checkpoints().get(cp);
            Map<Tuple, T> want = expected.get(cp);
            try {
                for (; applied < checkpoint; applied++) {
                    Insert<T> i = c.stream().get(applied);
                    engine.insert(i.relation(), i.tuple(), i.payload());
                }
                // The cursor reads the iterator's rows in its order; every other time it reads first,
                // right after the inserts.
                List<Map.Entry<Tuple, T>> read = cp % 2 == 0 ? read(engine) : null;
                List<Map.Entry<Tuple, T>> got = enumerate(engine, cp % 2 == 1);
                if (read == null) {
                    read = read(engine);
                }
                if (!read.equals(got)) {
                    return failure(c, runtime, applied, "cursor() read\n" + read + "\nwhere enumerate() gave\n" + got);
                }
                String diff = ResultDiff.compare(k, want, got);
                if (!diff.isEmpty()) {
                    return failure(
                            c,
                            runtime,
                            applied,
                            "enumerate() differs from the oracle:\n" + diff + "\nexpected:\n"
                                    + ResultDiff.format(want));
                }
                if (engine.insertCount() != applied) {
                    return failure(
                            c, runtime, applied, "insertCount() is " + engine.insertCount() + ", expected " + applied);
                }
                String lookupDiff = checkLookups(c, engine, want, lookups);
                if (lookupDiff != null) {
                    return failure(c, runtime, applied, lookupDiff);
                }
            } catch (RuntimeException e) {
                return failure(
                        c, runtime, Math.min(applied + 1, c.stream().size()), "the engine threw " + stackTrace(e));
            }
        }
        return null;
    }

    /**
     * The engine's result in enumeration order; {@code probe} calls hasNext() twice before each
     * next() and checks that next() past the end throws NoSuchElementException.
     */
    private static <T> List<Map.Entry<Tuple, T>> enumerate(IvmEngine<T> engine, boolean probe) {
        List<Map.Entry<Tuple, T>> got = new ArrayList<>();
        Iterator<ResultTuple<T>> it = engine.enumerate();
        while (it.hasNext() && (!probe || it.hasNext())) {
            ResultTuple<T> t = it.next();
            got.add(Map.entry(t.tuple(), t.payload()));
        }
        if (probe) {
            try {
                it.next();
                throw new IllegalStateException(
                        "next() after the end returned instead of throwing NoSuchElementException");
            } catch (NoSuchElementException expected) {
                // as the Iterator contract says
            }
        }
        return got;
    }

    /** The engine's result read with its cursor, in order. */
    private static <T> List<Map.Entry<Tuple, T>> read(IvmEngine<T> engine) {
        List<Map.Entry<Tuple, T>> read = new ArrayList<>();
        for (ResultCursor<T> c = engine.cursor(); c.next(); ) {
            read.add(Map.entry(c.tuple(), c.payload()));
        }
        return read;
    }

    private static <T> String checkLookups(DifferentialCase<T> c, IvmEngine<T> engine, Map<Tuple, T> want, Random r) {
        Semiring<T> k = c.semiring();
        for (Map.Entry<Tuple, T> e : want.entrySet()) {
            T got = engine.lookup(e.getKey());
            if (!e.getValue().equals(got)) {
                return "lookup" + e.getKey() + " is " + got + ", expected " + e.getValue();
            }
        }
        int arity = c.query().head().size();
        for (int i = 0; i < 3; i++) {
            Tuple t = c.domain().tuple(r, arity);
            if (!want.containsKey(t)) {
                T got = engine.lookup(t);
                if (!k.isZero(got)) {
                    return "lookup" + t + " of a tuple not in the result is " + got + ", expected zero";
                }
            }
        }
        return null;
    }

    private static String failure(DifferentialCase<?> c, Runtime runtime, int inserts, String what) {
        return runtime.name() + ": " + what + "\n" + c.describe(inserts) + "plan:\n"
                + runtime.plan().explain();
    }

    /** Greedily drops inserts while the run still fails at the end; reports the shrunk stream. */
    private static <T> String shrink(DifferentialCase<T> c, Runtime runtime) {
        List<Insert<T>> stream = new ArrayList<>(c.stream());
        String last = null;
        // The shortest failing prefix first, then single inserts.
        for (int n = 1; n <= stream.size(); n++) {
            DifferentialCase<T> prefix = c.withStream(stream.subList(0, n));
            last = run(prefix, runtime, prefix.expected());
            if (last != null) {
                stream = new ArrayList<>(stream.subList(0, n));
                break;
            }
        }
        if (last == null) {
            return "\n(shrinking found no failing sub-stream checked at its end)";
        }
        for (int i = stream.size() - 1; i >= 0; i--) {
            List<Insert<T>> shorter = new ArrayList<>(stream);
            shorter.remove(i);
            if (shorter.isEmpty()) {
                continue;
            }
            DifferentialCase<T> candidate = c.withStream(shorter);
            String f = run(candidate, runtime, candidate.expected());
            if (f != null) {
                stream = shorter;
                last = f;
            }
        }
        return "\n\nSHRUNK to " + stream.size() + " inserts:\n" + last;
    }

    private static long cpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    private static String stackTrace(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** One engine under test: the engine {@link Engines} makes for a plan, or the ablation. */
    private record Runtime(String name, MaintenancePlan plan, boolean ablation) {
        <T> IvmEngine<T> create(Semiring<T> k) {
            return ablation ? new AblationEngine<>((PHierarchicalPlan) plan, k) : Engines.create(plan, k);
        }
    }

    private static final class Stats {
        int cases;
        int pHierarchicalQueries;
        int pHierarchicalRuns;
        int fallbackOnlyCases;
        int fallbackRuns;
        int engineRuns;
        long checkpoints;
        long inserts;
        long resultTuples;

        @Override
        public String toString() {
            return cases + " cases (" + pHierarchicalQueries + " p-hierarchical queries), " + pHierarchicalRuns
                    + " p-hierarchical engine runs (and as many ablation runs), " + fallbackRuns + " fallback runs ("
                    + fallbackOnlyCases + " chosen by AUTO), " + engineRuns + " engine runs in all, " + inserts
                    + " inserts, " + checkpoints + " checkpoints, " + resultTuples
                    + " expected result tuples";
        }
    }
}
