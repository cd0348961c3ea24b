package io.flinkivm.examples.bench;

import io.flinkivm.examples.jobs.FlinkSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.transformations.UnionTransformation;
import org.apache.flink.util.Collector;

/**
 * How the bench runs Flink jobs: on one local MiniCluster per JVM (one task manager with as many slots
 * as the largest parallelism asked for so far, each slot with the memory a 1-slot cluster has), started
 * on first use and shut down by {@link #shutdown()}, so that a measurement does not include a cluster's
 * start. Each job comes from its own environment at its parallelism P with a job-level state backend
 * and no checkpoints. Its time is what {@code env.execute} does on a running cluster: building the
 * stream and job graph, submission, scheduling, the run and the result. A job still running at the cap
 * is cancelled. CPU time is the process's over the same span, less the {@link TaskThreadSampler}'s own,
 * which reads the task threads' CPU meanwhile. Sinks count what reaches them in accumulators (summed
 * over subtasks) and keep nothing; they run at the parallelism of their input, chained to it.
 */
final class FlinkRuns {
    /** Managed memory per slot: what Flink gives a local 1-slot cluster (RocksDB lives in it). */
    static final int MANAGED_MB_PER_SLOT = 128;
    /** Network memory per slot: a local cluster's default for one slot. */
    static final int NETWORK_MB_PER_SLOT = 64;

    private static MiniCluster cluster;
    private static int clusterSlots;
    private static long jobs;

    private static java.util.Map<String, Long> states(String job) {
        java.util.Map<String, Long> totals = StateSizeReporter.totals(job);
        StateSizeReporter.forget(job);
        return totals;
    }

    private FlinkRuns() {}

    /**
     * An environment for one job at {@code parallelism}, state backend {@code hashmap} or {@code rocksdb}
     * (with flink-ivm's RocksDB settings, as the command-line jobs use them, for flink-ivm and Flink SQL alike).
     */
    static StreamExecutionEnvironment environment(String backend, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
        }
        Configuration c = new Configuration();
        StateSizeReporter.configure(c);
        c.setString("state.backend.type", backend);
        if (backend.equals("rocksdb")) {
            FlinkSettings.tuneRocksDb(c);
        }
        c.setString("parallelism.default", Integer.toString(parallelism));
        return new StreamExecutionEnvironment(c);
    }

    /**
     * The shared cluster with at least {@code slots} slots: started on first use, restarted with more
     * slots when a job needs them (the suite asks for its largest parallelism before it measures).
     */
    static synchronized MiniCluster cluster(int slots) throws Exception {
        if (cluster != null && clusterSlots < slots) {
            shutdown();
        }
        if (cluster == null) {
            Configuration config = new Configuration();
            StateSizeReporter.configure(config);
            config.setString("rest.bind-port", "0"); // any free port: several benches (or tests) may run at once
            config.setString("taskmanager.memory.managed.size", MANAGED_MB_PER_SLOT * slots + "m");
            config.setString("taskmanager.memory.network.min", NETWORK_MB_PER_SLOT * slots + "m");
            config.setString("taskmanager.memory.network.max", NETWORK_MB_PER_SLOT * slots + "m");
            MiniCluster c = new MiniCluster(new MiniClusterConfiguration.Builder()
                    .setNumTaskManagers(1)
                    .setNumSlotsPerTaskManager(slots)
                    .setConfiguration(config)
                    .build());
            c.start();
            cluster = c;
            clusterSlots = slots;
        }
        return cluster;
    }

    /** Stops the shared cluster, if it runs; the next job starts a new one. */
    static synchronized void shutdown() throws Exception {
        if (cluster != null) {
            MiniCluster c = cluster;
            cluster = null;
            clusterSlots = 0;
            c.close();
        }
    }

    /**
     * The result of one execution.
     *
     * @param result the job's result, or null if it was cancelled at the cap
     * @param rocksDb the job's RocksDB size gauges at its end, summed per property ({@link StateSizeReporter}); empty on heap
     * @param parallelism the environment's parallelism
     * @param taskCpu the CPU of the job's task threads
     */
    record Execution(
            long elapsedNanos,
            long cpuNanos,
            JobExecutionResult result,
            java.util.Map<String, Long> rocksDb,
            int parallelism,
            TaskCpu taskCpu) {

        /** Bytes RocksDB holds: SST files plus memtables; -1 if not known. */
        long rocksDbBytes() {
            Long sst = rocksDb.get("total-sst-files-size");
            Long mem = rocksDb.get("size-all-mem-tables");
            return sst == null || mem == null ? -1 : sst + mem;
        }

        /** RocksDB's estimate of its keys (state entries); -1 if not known. */
        long rocksDbKeys() {
            Long keys = rocksDb.get("estimate-num-keys");
            return keys == null ? -1 : keys;
        }

        boolean completed() {
            return result != null;
        }

        long counter(String name) {
            Long v = result.getAccumulatorResult(name);
            return v == null ? 0 : v;
        }

        /**
         * This run as a {@link RunResult} whose state is its RocksDB bytes ("at the cap" if it was
         * cancelled), or -1 in {@code noStateUnit} without RocksDB. A cancelled run keeps only its
         * times, state and {@code note}; the result figures count for completed runs.
         */
        RunResult toResult(long n, long resultSize, long checksum, String note, String noStateUnit) {
            long bytes = rocksDbBytes();
            String unit = bytes < 0 ? noStateUnit : FlinkIvmSystem.ROCKSDB_BYTES + (completed() ? "" : " at the cap");
            return completed()
                    ? new RunResult(
                            elapsedNanos,
                            cpuNanos,
                            true,
                            n,
                            bytes,
                            unit,
                            resultSize,
                            checksum,
                            note,
                            parallelism,
                            taskCpu)
                    : new RunResult(elapsedNanos, cpuNanos, false, -1, bytes, unit, -1, 0, note, parallelism, taskCpu);
        }

        /** A run without a result to check: completed with {@code n} inserts, or stopped at the cap. */
        RunResult toResult(long n, String note) {
            return completed()
                    ? new RunResult(elapsedNanos, cpuNanos, true, n, 0, "entries", -1, 0, note, parallelism, taskCpu)
                    : new RunResult(elapsedNanos, cpuNanos, false, -1, -1, "", -1, 0, note, parallelism, taskCpu);
        }
    }

    /**
     * Executes the environment's job on the shared cluster at the environment's parallelism; cancels it
     * when {@code cap} has passed.
     */
    static Execution execute(StreamExecutionEnvironment env, String jobName, Duration cap) throws Exception {
        int parallelism = env.getParallelism();
        MiniCluster mc = cluster(parallelism);
        TaskThreadSampler sampler = TaskThreadSampler.start();
        TaskCpu tasks;
        long cpuStart = CpuClock.process();
        long start = System.nanoTime();
        long elapsed;
        long cpuEnd;
        JobExecutionResult r = null;
        String uniqueName = jobName + " #" + (++jobs);
        try {
            StreamGraph graph = env.getStreamGraph();
            graph.setJobName(uniqueName);
            JobID id = mc.submitJob(graph).get().getJobID();
            long left = cap.toNanos() - (System.nanoTime() - start);
            try {
                JobResult result = mc.requestJobResult(id).get(Math.max(left, 1), TimeUnit.NANOSECONDS);
                elapsed = System.nanoTime() - start;
                cpuEnd = CpuClock.process();
                r = result.toJobExecutionResult(FlinkRuns.class.getClassLoader());
            } catch (TimeoutException e) {
                elapsed = System.nanoTime() - start;
                cpuEnd = CpuClock.process();
                mc.cancelJob(id).get(60, TimeUnit.SECONDS);
                mc.requestJobResult(id).get(60, TimeUnit.SECONDS);
            }
        } finally {
            tasks = sampler.stop();
        }
        long cpu = CpuClock.between(cpuStart, cpuEnd);
        if (cpu >= 0) {
            cpu = Math.max(0, cpu - sampler.ownCpuNanos());
        }
        return new Execution(elapsed, cpu, r, states(uniqueName), parallelism, tasks);
    }

    /**
     * Counts the elements of {@code stream} into accumulator {@code name}, then discards them, at the
     * stream's parallelism and chained to it. A union is counted input by input (a task with more than
     * one input is never chained), all into the same accumulator.
     */
    static <T> void count(DataStream<T> stream, String name) {
        if (stream.getTransformation() instanceof UnionTransformation<T> union) {
            for (Transformation<?> input : union.getInputs()) {
                count(stream(stream.getExecutionEnvironment(), input), name);
            }
            return;
        }
        int parallelism = parallelism(stream);
        stream.process(new CountElements<T>(name))
                .name("count " + name)
                .setParallelism(parallelism)
                .sinkTo(new DiscardingSink<>())
                .name("discard " + name)
                .setParallelism(parallelism);
    }

    private static <X> DataStream<X> stream(StreamExecutionEnvironment env, Transformation<X> transformation) {
        return new DataStream<>(env, transformation);
    }

    /** The parallelism a stream's last operator runs at (the environment's if it has none of its own). */
    static int parallelism(DataStream<?> stream) {
        int p = stream.getParallelism();
        return p > 0 ? p : stream.getExecutionEnvironment().getParallelism();
    }

    /** Counts elements into one accumulator (shared by the counters of one name in a task, summed over tasks). */
    static final class CountElements<T> extends ProcessFunction<T, Void> {
        private static final long serialVersionUID = 1L;
        private final String name;
        private transient LongCounter counter;

        CountElements(String name) {
            this.name = name;
        }

        @Override
        public void open(OpenContext context) {
            counter = getRuntimeContext().getLongCounter(name);
        }

        @Override
        public void processElement(T value, Context ctx, Collector<Void> out) {
            counter.add(1L);
        }
    }
}
