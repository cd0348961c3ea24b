package io.flinkivm.bench;

import io.flinkivm.bench.state.CheckpointStats;
import io.flinkivm.bench.state.EndGate;
import io.flinkivm.bench.state.StateCallReporter;
import io.flinkivm.bench.state.StateReport;
import io.flinkivm.bench.state.StateSizeReporter;
import io.flinkivm.bench.state.ThreadCpu;
import io.flinkivm.flink.RocksDbTuning;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
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
import org.apache.flink.util.FileUtils;

/**
 * How the bench runs Flink jobs: on one local MiniCluster per JVM (one task manager with as many slots
 * as the largest parallelism asked for so far, each slot with the memory a 1-slot cluster has), started
 * on first use and shut down by {@link #shutdown()}, so that a measurement does not include a cluster's
 * start. Each job comes from its own environment at its parallelism P with a job-level state backend
 * and no checkpoints. Its time is what {@code env.execute} does on a running cluster: building the
 * stream and job graph, submission, scheduling, the run and the result. A job still running at the cap
 * is cancelled. CPU time is the process's over the same span, less the {@link TaskThreadSampler}'s own,
 * which reads the task threads' CPU meanwhile; the CPU of the process's other threads over that span
 * (JIT, GC, RocksDB's, Flink's) is kept by {@link ThreadCpu} group next to the task threads'. Sinks
 * count what reaches them in accumulators (summed over subtasks) and keep nothing; they run at the
 * parallelism of their input, chained to it.
 */
final class FlinkRuns {
    /** Managed memory per slot: what Flink gives a local 1-slot cluster (RocksDB lives in it). */
    static final int MANAGED_MB_PER_SLOT = 128;
    /** Network memory per slot: a local cluster's default for one slot. */
    static final int NETWORK_MB_PER_SLOT = 64;

    private static MiniCluster cluster;
    private static int clusterSlots;
    private static long jobs;

    private static volatile Map<String, String> overrides = Map.of();
    /** Flink's {@code pipeline.object-reuse} in every job's environment (the bench's {@code --object-reuse}). */
    private static volatile boolean objectReuse;
    /** Whether jobs track every keyed state access ({@link StateCallReporter#track}). */
    private static volatile boolean trackStateCalls;
    /** The state calls of the last job run with {@link #trackStateCalls}. */
    private static volatile List<StateCallReporter.Calls> lastStateCalls = List.of();

    private FlinkRuns() {}

    /** Configuration entries set over the bench's own in every job's environment (the bench's {@code --flink-conf}). */
    static void overrides(Map<String, String> entries) {
        overrides = Map.copyOf(entries);
    }

    /**
     * Whether the next jobs' environments reuse objects between chained operators
     * ({@code pipeline.object-reuse}; Flink's default: off, each record copied by its serializer), for
     * flink-ivm and its peers alike.
     */
    static void objectReuse(boolean on) {
        objectReuse = on;
    }

    /** Whether jobs reuse objects ({@link #objectReuse(boolean)}). */
    static boolean objectReuse() {
        return objectReuse;
    }

    /**
     * Whether the next jobs track every keyed state access (a counting run: the tracking costs time);
     * {@link #lastStateCalls()} then has what the last one did. The tracking is the cluster's setting:
     * a change restarts the cluster.
     */
    static synchronized void trackStateCalls(boolean on) throws Exception {
        if (on != trackStateCalls) {
            int slots = clusterSlots;
            shutdown();
            trackStateCalls = on;
            if (slots > 0) {
                cluster(slots);
            }
        }
    }

    /** The keyed state calls of the last job run while {@link #trackStateCalls} was on (empty if none). */
    static List<StateCallReporter.Calls> lastStateCalls() {
        return lastStateCalls;
    }

    /**
     * An environment for one job at {@code parallelism}, state backend {@code hashmap} or {@code rocksdb}
     * (with flink-ivm's RocksDB settings, as the command-line jobs use them, for flink-ivm and Flink SQL
     * alike), object reuse as {@link #objectReuse(boolean)} says. Its sources wait at the end of their input ({@link EndGate}, see {@link #execute}) so that
     * one checkpoint can be taken of the final state: checkpointing is on, incremental (on RocksDB it
     * flushes the memtables into SST files first), to a temporary directory, with no periodic checkpoint.
     */
    static StreamExecutionEnvironment environment(String backend, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
        }
        Configuration c = new Configuration();
        StateSizeReporter.configure(c);
        c.setString("state.backend.type", backend);
        if (backend.equals("rocksdb")) {
            RocksDbTuning.applyTo(c);
        }
        c.setString("parallelism.default", Integer.toString(parallelism));
        c.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        finalCheckpoint(c);
        overrides.forEach(c::setString);
        return new StreamExecutionEnvironment(c);
    }

    /** Checkpoints taken only when asked for, at the end, behind an {@link EndGate}. */
    private static void finalCheckpoint(Configuration c) {
        // Flink makes the directory when the job starts (an environment that only explains a plan leaves none).
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "flink-ivm-bench-checkpoints-" + UUID.randomUUID());
        c.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofDays(365));
        c.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        c.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        c.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.toUri().toString());
        // Tasks that finish do not wait for another checkpoint (there is none: the one at the end came before).
        c.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, false);
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        EndGate.create().configure(c);
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
            StateCallReporter.configure(config);
            if (trackStateCalls) {
                StateCallReporter.track(config);
            }
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
     * @param state the job's state at its end ({@link StateReport}): the final checkpoint by task and,
     *     on RocksDB, the column families after it; {@link StateReport#NONE} if the job was cancelled
     * @param parallelism the environment's parallelism
     * @param taskCpu the CPU of the job's task threads
     */
    record Execution(
            long elapsedNanos,
            long cpuNanos,
            JobExecutionResult result,
            StateReport state,
            int parallelism,
            TaskCpu taskCpu) {

        /** Bytes RocksDB holds after the final checkpoint: SST files plus memtables; -1 if not known. */
        long rocksDbBytes() {
            long sst = state.rocksDb(StateSizeReporter.SST);
            long mem = state.rocksDb(StateSizeReporter.MEMTABLES);
            return sst < 0 || mem < 0 ? -1 : sst + mem;
        }

        /** RocksDB's estimate of its keys (state entries); -1 if not known. */
        long rocksDbKeys() {
            return state.rocksDb(StateSizeReporter.KEYS);
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
                            taskCpu,
                            state)
                    : new RunResult(
                            elapsedNanos, cpuNanos, false, -1, bytes, unit, -1, 0, note, parallelism, taskCpu, state);
        }

        /** A run without a result to check: completed with {@code n} inserts, or stopped at the cap. */
        RunResult toResult(long n, String note) {
            return completed()
                    ? new RunResult(
                            elapsedNanos, cpuNanos, true, n, 0, "entries", -1, 0, note, parallelism, taskCpu, state)
                    : new RunResult(
                            elapsedNanos, cpuNanos, false, -1, -1, "", -1, 0, note, parallelism, taskCpu, state);
        }
    }

    /** How long the final checkpoint may take (it is not part of the measured time, nor of the cap). */
    static final Duration FINAL_CHECKPOINT_PATIENCE = Duration.ofMinutes(10);

    /**
     * Executes the environment's job on the shared cluster at the environment's parallelism; cancels it
     * when {@code cap} has passed. The job's time and CPU end when its results are complete: when every
     * end-aware sink ({@link EndGate#process}) has seen the end of its input while the sources wait at
     * their {@link EndGate}. Then one checkpoint is taken of the final state, the gate is released and
     * the job ends; its {@link StateReport} is the checkpoint by task and, on RocksDB, the column
     * families after it.
     */
    static Execution execute(StreamExecutionEnvironment env, String jobName, Duration cap) throws Exception {
        int parallelism = env.getParallelism();
        MiniCluster mc = cluster(parallelism);
        EndGate gate = EndGate.of(env.getConfiguration());
        Map<String, Long> threadsStart = ThreadCpu.sample();
        Map<String, Long> threadsEnd = Map.of();
        TaskThreadSampler sampler = TaskThreadSampler.start();
        TaskCpu tasks = null;
        long cpuStart = CpuClock.process();
        long start = System.nanoTime();
        long elapsed;
        long cpuEnd;
        JobExecutionResult r = null;
        CheckpointStats.Checkpoint checkpoint = null;
        String uniqueName = jobName + " #" + (++jobs);
        try {
            StreamGraph graph = env.getStreamGraph();
            graph.setJobName(uniqueName);
            JobID id = mc.submitJob(graph).get().getJobID();
            CompletableFuture<JobResult> result = mc.requestJobResult(id);
            CompletableFuture<?> end = gate == null ? result : CompletableFuture.anyOf(result, gate.done());
            long left = cap.toNanos() - (System.nanoTime() - start);
            try {
                end.get(Math.max(left, 1), TimeUnit.NANOSECONDS);
                elapsed = (gate != null && gate.isDone() ? gate.done().get() : System.nanoTime()) - start;
                cpuEnd = CpuClock.process();
                tasks = sampler.stop();
                threadsEnd = ThreadCpu.sample();
                if (gate != null && gate.isDone() && !result.isDone()) {
                    StateCallReporter.refresh(uniqueName);
                    checkpoint = finalCheckpoint(mc, id);
                    StateSizeReporter.refresh(uniqueName);
                    gate.release();
                }
                r = result.get(FINAL_CHECKPOINT_PATIENCE.toNanos(), TimeUnit.NANOSECONDS)
                        .toJobExecutionResult(FlinkRuns.class.getClassLoader());
            } catch (TimeoutException e) {
                elapsed = System.nanoTime() - start;
                cpuEnd = CpuClock.process();
                tasks = sampler.stop();
                threadsEnd = ThreadCpu.sample();
                mc.cancelJob(id).get(60, TimeUnit.SECONDS);
                mc.requestJobResult(id).get(60, TimeUnit.SECONDS);
            }
        } finally {
            if (tasks == null) {
                tasks = sampler.stop();
            }
            if (gate != null) {
                gate.close();
            }
            deleteCheckpoints(env);
        }
        long cpu = CpuClock.between(cpuStart, cpuEnd);
        if (cpu >= 0) {
            cpu = Math.max(0, cpu - sampler.ownCpuNanos());
        }
        StateReport state = new StateReport(checkpoint, StateSizeReporter.columnFamilies(uniqueName));
        StateSizeReporter.forget(uniqueName);
        lastStateCalls = StateCallReporter.take(uniqueName);
        return new Execution(
                elapsed, cpu, r, state, parallelism, tasks.withOthers(ThreadCpu.minus(threadsEnd, threadsStart)));
    }

    /** One checkpoint of the job's final state, while its sources wait at the gate; null if it failed. */
    private static CheckpointStats.Checkpoint finalCheckpoint(MiniCluster mc, JobID id) throws Exception {
        CheckpointStats stats = new CheckpointStats(mc.getRestAddress().get().toString());
        try {
            long checkpoint = stats.trigger(id, FINAL_CHECKPOINT_PATIENCE);
            return stats.completed(id, checkpoint, Duration.ofMinutes(1));
        } catch (IOException e) {
            System.err.println("(no final checkpoint of " + id + ": " + e.getMessage() + ")");
            return null;
        }
    }

    private static void deleteCheckpoints(StreamExecutionEnvironment env) {
        env.getConfiguration()
                .getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                .ifPresent(uri -> {
                    // Flink may still be disposing of a cancelled job's checkpoints: files vanish meanwhile.
                    FileUtils.deleteDirectoryQuietly(Path.of(URI.create(uri)).toFile());
                });
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
        EndGate.process(stream, new CountElements<T>(name), Types.VOID, parallelism)
                .name("count " + name)
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
