package io.flinkivm.examples.bench;

import io.flinkivm.examples.jobs.FlinkSettings;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.Collector;

/**
 * How the bench runs Flink jobs: on one local MiniCluster per JVM (one task manager, one slot), started
 * on first use and shut down by {@link #shutdown()}, so that a measurement does not include a cluster's
 * start. Each job comes from its own environment at parallelism 1 with a job-level state backend and no
 * checkpoints. Its time is what {@code env.execute} does on a running cluster: building the stream and
 * job graph, submission, scheduling, the run and the result. A job still running at the cap is
 * cancelled. CPU time is the process's over the same span. Sinks count what reaches them in accumulators and keep nothing.
 */
final class FlinkRuns {
    private static MiniCluster cluster;
    private static long jobs;

    private static java.util.Map<String, Long> states(String job) {
        java.util.Map<String, Long> totals = StateSizeReporter.totals(job);
        StateSizeReporter.forget(job);
        return totals;
    }

    private FlinkRuns() {
    }

    /**
     * An environment for one job: parallelism 1, state backend {@code hashmap} or {@code rocksdb} (with
     * bloom filters, as the command-line jobs use it, for flink-ivm and Flink SQL alike).
     */
    static StreamExecutionEnvironment environment(String backend) {
        Configuration c = new Configuration();
        StateSizeReporter.configure(c);
        c.setString("state.backend.type", backend);
        if (backend.equals("rocksdb")) {
            FlinkSettings.tuneRocksDb(c);
        }
        c.setString("parallelism.default", "1");
        return new StreamExecutionEnvironment(c);
    }

    private static synchronized MiniCluster cluster() throws Exception {
        if (cluster == null) {
            Configuration config = new Configuration();
            StateSizeReporter.configure(config);
            config.setString("rest.bind-port", "0"); // any free port: several benches (or tests) may run at once
            MiniCluster c = new MiniCluster(new MiniClusterConfiguration.Builder().setNumTaskManagers(1)
                    .setNumSlotsPerTaskManager(1).setConfiguration(config).build());
            c.start();
            cluster = c;
        }
        return cluster;
    }

    /** Stops the shared cluster, if it runs; the next job starts a new one. */
    static synchronized void shutdown() throws Exception {
        if (cluster != null) {
            MiniCluster c = cluster;
            cluster = null;
            c.close();
        }
    }

    /**
     * The result of one execution.
     *
     * @param result the job's result, or null if it was cancelled at the cap
     * @param rocksDb the job's RocksDB size gauges at its end, summed per property ({@link StateSizeReporter}); empty on heap
     */
    record Execution(long elapsedNanos, long cpuNanos, JobExecutionResult result, java.util.Map<String, Long> rocksDb) {

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
                    ? new RunResult(elapsedNanos, cpuNanos, true, n, bytes, unit, resultSize, checksum, note)
                    : new RunResult(elapsedNanos, cpuNanos, false, -1, bytes, unit, -1, 0, note);
        }
    }

    /** Executes the environment's job on the shared cluster; cancels it when {@code cap} has passed. */
    static Execution execute(StreamExecutionEnvironment env, String jobName, Duration cap) throws Exception {
        MiniCluster mc = cluster();
        long cpuStart = CpuClock.process();
        long start = System.nanoTime();
        StreamGraph graph = env.getStreamGraph();
        String uniqueName = jobName + " #" + (++jobs);
        graph.setJobName(uniqueName);
        JobID id = mc.submitJob(graph).get().getJobID();
        long left = cap.toNanos() - (System.nanoTime() - start);
        try {
            JobResult result = mc.requestJobResult(id).get(Math.max(left, 1), TimeUnit.NANOSECONDS);
            long elapsed = System.nanoTime() - start;
            long cpu = CpuClock.between(cpuStart, CpuClock.process());
            JobExecutionResult r = result.toJobExecutionResult(FlinkRuns.class.getClassLoader());
            return new Execution(elapsed, cpu, r, states(uniqueName));
        } catch (TimeoutException e) {
            long elapsed = System.nanoTime() - start;
            long cpu = CpuClock.between(cpuStart, CpuClock.process());
            mc.cancelJob(id).get(60, TimeUnit.SECONDS);
            mc.requestJobResult(id).get(60, TimeUnit.SECONDS);
            return new Execution(elapsed, cpu, null, states(uniqueName));
        }
    }

    /** Counts the elements of {@code stream} into accumulator {@code name}, then discards them. */
    static <T> void count(DataStream<T> stream, String name) {
        stream.process(new CountElements<T>(name)).name("count " + name).setParallelism(1)
                .sinkTo(new DiscardingSink<>()).name("discard " + name).setParallelism(1);
    }

    /** Counts elements into one accumulator. */
    static final class CountElements<T> extends ProcessFunction<T, Void> {
        private static final long serialVersionUID = 1L;
        private final String name;
        private transient LongCounter counter;

        CountElements(String name) {
            this.name = name;
        }

        @Override
        public void open(OpenContext context) {
            counter = new LongCounter();
            getRuntimeContext().addAccumulator(name, counter);
        }

        @Override
        public void processElement(T value, Context ctx, Collector<Void> out) {
            counter.add(1L);
        }
    }
}
