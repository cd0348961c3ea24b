package io.flinkivm.bench;

import io.flinkivm.bench.state.EndGate;
import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Duration;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * The flink-ivm job (p-hierarchical plan where it applies) on one state backend, built by
 * {@code FlinkIvm.maintain} on an input at the environment's parallelism P: a source of the stream's
 * indices ({@link IndexedInput}; a changelog's by row, so that one row's changes keep their order) and,
 * chained to it, the lookup of each index's input record, built before the job
 * ({@link InsertStream#inputRecords()}), as the Flink SQL peers read their tables' rows; with
 * default options: one snapshot at the end of the input, an end marker from each of the sink's parts
 * ({@code job.results().getParallelism()} of them). The snapshot's rows are counted and their payloads
 * summed, at the sink's parallelism and chained to it, so the bench can check them against the core engine. On RocksDB the state size is what RocksDB's native
 * gauges said after the final checkpoint flushed the memtables ({@link FlinkRuns#execute}): the bytes
 * of all SST files plus all memtables, over every operator and state, with RocksDB's estimate of its
 * keys in the note. A workload with deletes ({@link Workload#hasDeletes()}) is planned with every relation
 * a changelog over the integer ring, and its changes go through the row check (the default options).
 */
final class FlinkIvmSystem implements FlinkSystem {
    static final String ROWS = "ivm-rows";
    static final String CHECKSUM = "ivm-checksum";
    static final String SNAPSHOTS = "ivm-snapshots";
    static final String DEAD_LETTERS = "ivm-dead-letters";

    /**
     * The unit of RocksDB state sizes: the native gauges' SST files plus memtables, over all operators,
     * after the final checkpoint flushed the memtables ({@link FlinkRuns#execute}).
     */
    static final String ROCKSDB_BYTES = "bytes (RocksDB SST files + memtables after the final checkpoint)";

    private final String backend;

    FlinkIvmSystem(String backend) {
        this.backend = backend;
    }

    @Override
    public String name() {
        return "flink-ivm-" + (backend.equals("hashmap") ? "heap" : backend);
    }

    @Override
    public String describe(Workload workload) {
        return name() + ": FlinkIvm.maintain, plan AUTO"
                + (workload.hasDeletes()
                        ? " over the integer ring with every relation a changelog ("
                                + plan(workload).kind() + " plan, row check on)"
                        : "")
                + ", " + options(workload) + ", state.backend.type " + backend
                + ", the environment's parallelism P, one snapshot at the end; wall time of the job (submission included)";
    }

    /** Default options, with the workload's relation rates where it has them. */
    private static String options(Workload workload) {
        return workload.relationRates().isEmpty()
                ? "IvmOptions.defaults()"
                : "IvmOptions.defaults().withRelationRates(" + new RelationRates(workload.relationRates()).describe()
                        + ")";
    }

    /**
     * The plan AUTO picks for the workload's query: over the natural numbers, or for a workload with
     * deletes over the integer ring with every relation a changelog.
     */
    static MaintenancePlan plan(Workload workload) {
        ConjunctiveQuery q = QueryParser.parse(workload.query());
        return workload.hasDeletes()
                ? Planner.plan(q, IntegerRing.INSTANCE, Planner.Strategy.AUTO, Inputs.changelog(q.relations()))
                : Planner.plan(q, NaturalSemiring.INSTANCE, Planner.Strategy.AUTO);
    }

    /** The payloads' semiring of {@link #plan}: the integers for a workload with deletes, else the naturals. */
    static Semiring<Long> semiring(Workload workload) {
        return workload.hasDeletes() ? IntegerRing.INSTANCE : NaturalSemiring.INSTANCE;
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap, int parallelism) throws Exception {
        MaintenancePlan plan = plan(workload);
        Semiring<Long> semiring = semiring(workload);
        StreamExecutionEnvironment env = FlinkRuns.environment(backend, parallelism);
        FlinkRuns.Execution e;
        int parts;
        try (IndexedInput<Long> indices = IndexedInput.of(IndexedInput.indices(stream.size()), stream, parallelism);
                IndexedInput<InputRecord<Long>> records = IndexedInput.of(stream.inputRecords())) {
            DataStream<InputRecord<Long>> input = records.at(
                    indices.source(env, Types.LONG, "inserts"), FlinkIvm.inputType(semiring), "input records");
            IvmJob<Long> job = FlinkIvm.maintain(
                    input, plan, semiring, IvmOptions.defaults().withRelationRates(workload.relationRates()));
            parts = FlinkRuns.parallelism(job.results());
            EndGate.process(job.results(), new CountResults(), Types.VOID, parts)
                    .name("count result rows")
                    .sinkTo(new DiscardingSink<>())
                    .name("discard result rows")
                    .setParallelism(parts);
            FlinkRuns.count(job.deadLetters(), DEAD_LETTERS);
            e = FlinkRuns.execute(env, "bench " + name() + " " + workload.name() + " n=" + stream.size(), cap);
        }
        String keys = e.rocksDbKeys() < 0 ? "" : "RocksDB estimate-num-keys " + e.rocksDbKeys();
        if (!e.completed()) {
            return e.toResult(stream.size(), -1, 0, "cancelled at the cap" + (keys.isEmpty() ? "" : "; " + keys), "");
        }
        long deadLetters = e.counter(DEAD_LETTERS);
        long snapshots = e.counter(SNAPSHOTS);
        if (deadLetters != 0 || snapshots != parts) {
            throw new IllegalStateException(name() + " at parallelism " + parallelism + " produced " + deadLetters
                    + " dead letters and " + snapshots + " snapshot end markers; expected none and one per sink part ("
                    + parts + ")");
        }
        return e.toResult(stream.size(), e.counter(ROWS), e.counter(CHECKSUM), keys, "");
    }

    /** Counts the rows and end markers of the snapshots and sums the rows' payloads (accumulators summed over subtasks). */
    static final class CountResults extends ProcessFunction<ResultRecord<Long>, Void> {
        private static final long serialVersionUID = 1L;
        private transient LongCounter rows;
        private transient LongCounter checksum;
        private transient LongCounter snapshots;

        @Override
        public void open(OpenContext context) {
            rows = getRuntimeContext().getLongCounter(ROWS);
            checksum = getRuntimeContext().getLongCounter(CHECKSUM);
            snapshots = getRuntimeContext().getLongCounter(SNAPSHOTS);
        }

        @Override
        public void processElement(ResultRecord<Long> r, Context ctx, Collector<Void> out) {
            if (r.isEnd()) {
                snapshots.add(1L);
            } else {
                rows.add(1L);
                checksum.add(r.payload());
            }
        }
    }
}
