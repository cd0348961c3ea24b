package io.flinkivm.flink;

import io.flinkivm.core.engine.CyclicTriangleBenchmark;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.util.MiniClusterWithClientResource;
import org.apache.flink.util.CloseableIterator;

/**
 * The Flink figure of issue #8: per-insert cost against N for the triangle
 * {@code Q(A,B,C) :- R(A,B), S(B,C), T(A,C)} over the natural numbers as a Flink job, with the cyclic
 * p-hierarchical plan (the bags in the border sink) and with the fallback plan (delta joins in one
 * keyed operator) in the same run, and the exponent of ns/insert against N fitted on a log-log
 * scale. Thm. 1 predicts N^(fhtw-1) = N^0.5 for the cyclic plan. The streams are those of core's
 * {@link CyclicTriangleBenchmark} ("dense": Θ(N^1.5) triangles; "skewed": a hub where the fallback's
 * fixed join order scans Θ(N) per insert). A benchmark, not a test: run it by hand, e.g.
 * <pre>
 * mvn -o -q -pl flink-ivm-operators -am test-compile
 * mvn -o -q -pl flink-ivm-operators dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -Xmx3g -cp flink-ivm-operators/target/test-classes:flink-ivm-operators/target/classes:\
 * flink-ivm-core/target/test-classes:flink-ivm-core/target/classes:$(cat flink-ivm-operators/cp.txt) \
 *     io.flinkivm.flink.CyclicTriangleFlinkBenchmark [maxN] [repetitions] [maxN for the skewed stream]
 * </pre>
 * (the target directories come first, so they shadow any flink-ivm jars in the local repository).
 *
 * <p>Each job runs on one embedded MiniCluster (started once), heap state, parallelism 1, no
 * checkpoints, one snapshot at the end of the input (its rows are counted, and both plans must give
 * as many). Two figures per plan, each the best of {@code repetitions} runs, over N:
 * <ul>
 * <li><b>join op CPU</b>: CPU time of the task thread that holds the join (the border sink with the
 * bags for the cyclic plan, the delta-join operator for the fallback), sampled every 2 ms while it
 * runs, minus that of the same job over 3 inserts (the task's start-up): the join's own work, with the root-payload updates, the final enumeration (Θ(N^1.5) rows on
 * the dense stream, itself Θ(N^0.5) per insert) and Flink's per-record cost in that task;</li>
 * <li><b>job wall</b>: wall-clock time of the whole job minus that of the same job over 3 inserts
 * (submission, deployment, teardown). It adds every other operator's constant per-insert cost
 * (ingest, root views, serialization between tasks) and the neighbours on a shared machine, so its
 * exponent sits below the join's until the join's cost dominates.</li>
 * </ul>
 */
public final class CyclicTriangleFlinkBenchmark {
    private CyclicTriangleFlinkBenchmark() {}

    public static void main(String[] args) throws Exception {
        int maxN = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int skewedMaxN = args.length > 2 ? Integer.parseInt(args[2]) : Math.min(maxN, 20_000);
        MaintenancePlan[] plans = CyclicTriangleBenchmark.plans();
        MaintenancePlan cyclic = plans[0];
        MaintenancePlan fallback = plans[1];
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "hashmap");
        conf.setString("parallelism.default", "1");
        MiniClusterWithClientResource cluster =
                new MiniClusterWithClientResource(new MiniClusterResourceConfiguration.Builder()
                        .setConfiguration(conf)
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(1)
                        .build());
        cluster.before();
        try {
            System.out.println("query " + CyclicTriangleBenchmark.QUERY
                    + " on Flink (MiniCluster, heap, p=1), fhtw = 1.5," + " Thm. 1: amortized O(N^0.5) per insert");
            for (String stream : List.of("dense", "skewed")) {
                List<Object[]> warm = CyclicTriangleBenchmark.stream(stream, 5_000, 1);
                run(cyclic, warm);
                run(fallback, warm);
            }
            List<Object[]> tiny = CyclicTriangleBenchmark.stream("dense", 3, 1);
            // Fixed costs, {cyclic wall, cyclic join op CPU, fallback wall, fallback join op CPU}.
            long[] base = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
            for (int rep = 0; rep < Math.max(3, repetitions); rep++) {
                long[] c = run(cyclic, tiny);
                long[] f = run(fallback, tiny);
                base[0] = Math.min(base[0], c[0]);
                base[1] = Math.min(base[1], c[2]);
                base[2] = Math.min(base[2], f[0]);
                base[3] = Math.min(base[3], f[2]);
            }
            System.out.printf(
                    Locale.ROOT,
                    "fixed cost of a job (3 inserts), subtracted below: cyclic %.0f ms wall,"
                            + " %.1f ms join op CPU; fallback %.0f ms wall, %.1f ms join op CPU%n",
                    base[0] / 1e6,
                    base[1] / 1e6,
                    base[2] / 1e6,
                    base[3] / 1e6);
            for (String stream : List.of("dense", "skewed")) {
                List<Integer> sizes = new ArrayList<>();
                for (int n : CyclicTriangleBenchmark.sizes(stream.equals("dense") ? maxN : skewedMaxN)) {
                    if (n >= 2_000) {
                        sizes.add(n);
                    }
                }
                System.out.println();
                System.out.println("stream " + stream + " (ns/insert)");
                System.out.printf(
                        Locale.ROOT,
                        "%9s %10s %18s %14s %18s %14s%n",
                        "N",
                        "results",
                        "cyclic join op CPU",
                        "cyclic job wall",
                        "fallback join op CPU",
                        "fallback job wall");
                double[] logN = new double[sizes.size()];
                double[][] logs = new double[4][sizes.size()];
                for (int i = 0; i < sizes.size(); i++) {
                    int n = sizes.get(i);
                    List<Object[]> inserts = CyclicTriangleBenchmark.stream(stream, n, 42 + n);
                    long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
                    long results = 0;
                    for (int rep = 0; rep < repetitions; rep++) {
                        long[] c = run(cyclic, inserts);
                        long[] f = run(fallback, inserts);
                        if (c[1] != f[1]) {
                            throw new IllegalStateException(
                                    "the plans disagree at N = " + n + ": " + c[1] + " vs " + f[1]);
                        }
                        results = c[1];
                        best[0] = Math.min(best[0], c[2] - base[1]);
                        best[1] = Math.min(best[1], c[0] - base[0]);
                        best[2] = Math.min(best[2], f[2] - base[3]);
                        best[3] = Math.min(best[3], f[0] - base[2]);
                    }
                    double[] perInsert = new double[4];
                    for (int j = 0; j < 4; j++) {
                        perInsert[j] = Math.max(1.0, (double) best[j] / n);
                        logs[j][i] = Math.log(perInsert[j]);
                    }
                    System.out.printf(
                            Locale.ROOT,
                            "%9d %10d %18.0f %14.0f %18.0f %14.0f%n",
                            n,
                            results,
                            perInsert[0],
                            perInsert[1],
                            perInsert[2],
                            perInsert[3]);
                    logN[i] = Math.log(n);
                }
                System.out.printf(
                        Locale.ROOT,
                        "fitted exponent vs N (%s, Flink): cyclic plan %.2f (join op CPU), %.2f"
                                + " (job wall); fallback %.2f (join op CPU), %.2f (job wall)%n",
                        stream,
                        CyclicTriangleBenchmark.slope(logN, logs[0]),
                        CyclicTriangleBenchmark.slope(logN, logs[1]),
                        CyclicTriangleBenchmark.slope(logN, logs[2]),
                        CyclicTriangleBenchmark.slope(logN, logs[3]));
            }
        } finally {
            cluster.after();
        }
    }

    /** Name prefix of the task thread that holds the join. */
    private static String joinTask(MaintenancePlan plan) {
        return plan.kind() == PlanKind.CYCLIC_P_HIERARCHICAL ? "bags (worst-case-optimal" : "delta joins over";
    }

    /** {wall-clock ns of the whole job, rows of its final snapshot, CPU ns of the join's task thread}. */
    private static long[] run(MaintenancePlan plan, List<Object[]> inserts) throws Exception {
        NaturalSemiring k = NaturalSemiring.INSTANCE;
        List<InputRecord<Long>> records = new ArrayList<>(inserts.size());
        for (Object[] in : inserts) {
            records.add(InputRecord.insert((String) in[0], (Tuple) in[1], 1L));
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        IvmJob<Long> job =
                FlinkIvm.maintain(env.fromData(records, FlinkIvm.inputType(k)), plan, k, IvmOptions.defaults());
        long start = System.nanoTime();
        long rows = 0;
        try (ThreadCpu cpu = new ThreadCpu(joinTask(plan));
                CloseableIterator<ResultRecord<Long>> it =
                        job.results().executeAndCollect(plan.kind() + " N=" + records.size())) {
            while (it.hasNext()) {
                if (!it.next().isEnd()) {
                    rows++;
                }
            }
            long wall = System.nanoTime() - start;
            return new long[] {wall, rows, cpu.total()};
        }
    }

    /**
     * The CPU time of the live threads whose names start with a prefix, sampled every 2 ms (names
     * rescanned every 20 ms): for each thread its last sample, so a thread's last 2 ms may be missed.
     */
    private static final class ThreadCpu implements AutoCloseable {
        private final String prefix;
        private final Map<Long, Long> cpu = new ConcurrentHashMap<>();
        private final Thread sampler;
        private volatile boolean stop;

        ThreadCpu(String prefix) {
            this.prefix = prefix;
            sampler = new Thread(this::sample, "cpu-sampler");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void sample() {
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            for (long round = 0; !stop; round++) {
                if (round % 10 == 0 || cpu.isEmpty()) {
                    for (ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
                        if (info != null && info.getThreadName().startsWith(prefix)) {
                            cpu.putIfAbsent(info.getThreadId(), 0L);
                        }
                    }
                }
                for (Long id : cpu.keySet()) {
                    long t = mx.getThreadCpuTime(id);
                    if (t > 0) {
                        cpu.merge(id, t, Math::max);
                    }
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Total CPU ns of the matching threads, as last sampled. */
        long total() {
            long sum = 0;
            for (long v : cpu.values()) {
                sum += v;
            }
            return sum;
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            sampler.join();
        }
    }
}
