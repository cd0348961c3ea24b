package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Per-insert cost against N for the triangle {@code Q(A,B,C) :- R(A,B), S(B,C), T(A,C)} over the
 * natural numbers, with the cyclic p-hierarchical plan and with the fallback delta joins in the same
 * run, and the exponent of ns/insert against N fitted by least squares on a log-log scale. Thm. 1
 * predicts N^(fhtw-1) = N^0.5 for the cyclic plan. A benchmark, not a test: run it by hand, e.g.
 * <pre>
 * mvn -q -pl flink-ivm-core test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Xmx8g -cp flink-ivm-core/target/classes:flink-ivm-core/target/test-classes:$(cat flink-ivm-core/cp.txt) \
 *     io.flinkivm.core.engine.CyclicTriangleBenchmark [maxN] [repetitions] [maxN for the skewed stream]
 * </pre>
 *
 * <p>Two streams, each N inserts cycling through R, S, T, payload 1:
 * <ul>
 * <li><b>dense</b>: uniformly random edges over √N vertices, so each relation is about a quarter
 * full and the result has Θ(N^1.5) triangles, the worst case for any plan that lists them;</li>
 * <li><b>skewed</b>: a hub vertex h with S(h, c) for a growing set of c, edges R(a, h) for many a,
 * and sparse random T: an insert R(a, h) must meet T(a, ·) and S(h, ·), which the generic join does
 * by scanning the smaller list, while the fallback's fixed order scans S(h, ·).</li>
 * </ul>
 * Each figure is the best of {@code repetitions} runs on a fresh engine (default 3): CPU time of the
 * inserting thread plus garbage-collection time, over N;
 * {@code scans/ins} counts the candidate values the cyclic plan's delta joins scanned per insert, its
 * work independent of the machine.
 */
public final class CyclicTriangleBenchmark {
    public static final String QUERY = "Q(A,B,C) :- R(A,B), S(B,C), T(A,C)";

    private CyclicTriangleBenchmark() {}

    public static void main(String[] args) {
        int maxN = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        // The fallback costs Θ(N) per insert on the skewed stream: stop it earlier.
        int skewedMaxN = args.length > 2 ? Integer.parseInt(args[2]) : Math.min(maxN, 20_000);
        NaturalSemiring k = NaturalSemiring.INSTANCE;
        MaintenancePlan[] plans = plans();
        MaintenancePlan cyclic = plans[0];
        MaintenancePlan fallback = plans[1];
        System.out.println("query " + QUERY + ", fhtw = 1.5, Thm. 1: amortized O(N^0.5) per insert");

        // Warm-up, so that the first size is not measured with cold code.
        for (String stream : List.of("dense", "skewed")) {
            List<Object[]> warm = stream(stream, 20_000, 1);
            time(cyclic, k, warm);
            time(fallback, k, warm);
        }
        for (String stream : List.of("dense", "skewed")) {
            List<Integer> sizes = sizes(stream.equals("dense") ? maxN : skewedMaxN);
            System.out.println();
            System.out.println("stream " + stream);
            System.out.printf(
                    Locale.ROOT,
                    "%9s %10s %12s %15s %16s%n",
                    "N",
                    "results",
                    "scans/ins",
                    "cyclic ns/ins",
                    "fallback ns/ins");
            double[] logN = new double[sizes.size()];
            double[] logScans = new double[sizes.size()];
            double[] logCyclic = new double[sizes.size()];
            double[] logFallback = new double[sizes.size()];
            for (int i = 0; i < sizes.size(); i++) {
                int n = sizes.get(i);
                List<Object[]> inserts = stream(stream, n, 42 + n);
                double bestCyclic = Double.POSITIVE_INFINITY;
                double bestFallback = Double.POSITIVE_INFINITY;
                long results = 0;
                double scans = 0;
                for (int rep = 0; rep < repetitions; rep++) {
                    long[] c = time(cyclic, k, inserts);
                    long[] f = time(fallback, k, inserts);
                    if (c[1] != f[1]) {
                        throw new IllegalStateException("the plans disagree at N = " + n + ": " + c[1] + " vs " + f[1]);
                    }
                    results = c[1];
                    scans = (double) c[2] / n;
                    bestCyclic = Math.min(bestCyclic, (double) c[0] / n);
                    bestFallback = Math.min(bestFallback, (double) f[0] / n);
                }
                System.out.printf(
                        Locale.ROOT, "%9d %10d %12.1f %15.0f %16.0f%n", n, results, scans, bestCyclic, bestFallback);
                logN[i] = Math.log(n);
                logScans[i] = Math.log(Math.max(scans, 1e-3));
                logCyclic[i] = Math.log(bestCyclic);
                logFallback[i] = Math.log(bestFallback);
            }
            System.out.printf(
                    Locale.ROOT,
                    "fitted exponent vs N (%s): cyclic plan %.2f (ns/insert), %.2f (scans/insert);"
                            + " fallback %.2f (ns/insert)%n",
                    stream,
                    slope(logN, logCyclic),
                    slope(logN, logScans),
                    slope(logN, logFallback));
        }
    }

    /** {the cyclic p-hierarchical plan, the fallback plan} of {@link #QUERY} over the natural numbers. */
    public static MaintenancePlan[] plans() {
        ConjunctiveQuery q = QueryParser.parse(QUERY);
        MaintenancePlan cyclic = Planner.plan(q, NaturalSemiring.INSTANCE);
        if (cyclic.kind() != PlanKind.CYCLIC_P_HIERARCHICAL) {
            throw new IllegalStateException("expected the cyclic plan, got:\n" + cyclic.explain());
        }
        return new MaintenancePlan[] {cyclic, Planner.plan(q, NaturalSemiring.INSTANCE, Planner.Strategy.FALLBACK)};
    }

    /** N = 1000, 2000, 5000, 10000, ... up to {@code max}. */
    public static List<Integer> sizes(int max) {
        List<Integer> sizes = new ArrayList<>();
        for (int decade = 1_000; decade <= max; decade *= 10) {
            for (int step : new int[] {1, 2, 5}) {
                if (decade * step <= max) {
                    sizes.add(decade * step);
                }
            }
        }
        return sizes;
    }

    /**
     * Inserts as {relation, tuple}, cycling through R, S, T: {@code kind} "dense" or "skewed" (see
     * the class comment). Also the streams of the Flink figure (operators' CyclicTriangleFlinkBenchmark).
     */
    public static List<Object[]> stream(String kind, int n, long seed) {
        Random r = new Random(seed);
        String[] relations = {"R", "S", "T"};
        int vertices = (int) Math.ceil(Math.sqrt(n));
        List<Object[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String rel = relations[i % 3];
            long u;
            long v;
            if (kind.equals("dense")) {
                u = r.nextInt(vertices);
                v = r.nextInt(vertices);
            } else {
                // Hub 0: S(0, c) and R(a, 0) for fresh a and c; T sparse over n vertices.
                long fresh = 1 + i / 3;
                switch (rel) {
                    case "R" -> {
                        u = fresh;
                        v = 0;
                    }
                    case "S" -> {
                        u = 0;
                        v = fresh;
                    }
                    default -> {
                        u = 1 + r.nextInt(n);
                        v = 1 + r.nextInt(n);
                    }
                }
            }
            out.add(new Object[] {rel, Tuple.of(u, v)});
        }
        return out;
    }

    /**
     * {ns for all inserts, result size, candidate values scanned by the cyclic plan's delta joins}. The
     * time is this thread's CPU time plus the collectors' time: on a shared machine, wall-clock time
     * mostly measures the neighbours.
     */
    private static long[] time(MaintenancePlan plan, NaturalSemiring k, List<Object[]> inserts) {
        IvmEngine<Long> engine = Engines.create(plan, k);
        Long one = 1L;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long gcBefore = gcMillis();
        long start = threads.getCurrentThreadCpuTime();
        for (Object[] in : inserts) {
            engine.insert((String) in[0], (Tuple) in[1], one);
        }
        long elapsed = threads.getCurrentThreadCpuTime() - start + 1_000_000L * (gcMillis() - gcBefore);
        long results = 0;
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); it.next()) {
            results++;
        }
        long scans = engine instanceof PHierarchicalEngine<Long> c ? c.bagJoinScans() : 0;
        return new long[] {elapsed, results, scans};
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** Least-squares slope of y against x. */
    public static double slope(double[] x, double[] y) {
        double mx = Arrays.stream(x).average().orElse(0);
        double my = Arrays.stream(y).average().orElse(0);
        double num = 0;
        double den = 0;
        for (int i = 0; i < x.length; i++) {
            num += (x[i] - mx) * (y[i] - my);
            den += (x[i] - mx) * (x[i] - mx);
        }
        return num / den;
    }
}
