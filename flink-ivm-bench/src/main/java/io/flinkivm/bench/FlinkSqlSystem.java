package io.flinkivm.bench;

import io.flinkivm.bench.state.EndGate;
import io.flinkivm.core.query.QueryParser;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * The same query in Flink SQL ({@link QueryToSql}) over one table per relation ({@link RelationTables}:
 * the stream's records as binary rows built before the job, each table with the primary key the workload
 * declares), read at the environment's parallelism P as flink-ivm reads the stream ({@link PrebuiltTables}: a
 * source of the stream's indices, a changelog's by row, and the rows split by table, a changelog's
 * through {@code fromChangelogStream} with their kinds); regular joins and {@code SUM} of the payload
 * product grouped by the free variables, default table configuration (no mini-batch), heap state (or
 * RocksDB: {@code flink-sql-rocksdb}, with its state bytes). The changelog from {@code toChangelogStream}
 * is counted at its parallelism, not stored: the final result size is {@code +I − −D} and its payload
 * sum {@code Σ(+I,+U) − Σ(−U,−D)}. Planning happens before the timed {@code execute}.
 *
 * <p>The multi-way join variant sets {@link #MULTI_JOIN_OPTION} (Flink 2.1+): a chain of joins on a
 * common key becomes one {@code StreamingMultiJoinOperator} that keeps the inputs and no intermediate
 * join results. It is measured only for queries whose plan actually contains a {@code MultiJoin}
 * ({@link #appliesTo}).
 *
 * <p>The mini-batch variant ({@link #miniBatch()}) is Flink SQL tuned for throughput as its
 * documentation advises ({@link #MINI_BATCH}): operators buffer their input for up to
 * {@code allow-latency} or {@code size} records, and each key's state is then read and written once per
 * batch instead of once per record, with one changelog pair per key and batch; and the aggregation runs
 * in two phases, a local pre-aggregation of each batch before the shuffle and the global one after it.
 * At the end of the bounded input every buffer is flushed, so the final result is the same.
 */
final class FlinkSqlSystem implements FlinkSystem {
    static final String CHANGES = "sql-changelog-rows";
    static final String SIZE = "sql-result-size";
    static final String CHECKSUM = "sql-checksum";
    /** {@code OptimizerConfigOptions.TABLE_OPTIMIZER_MULTI_JOIN_ENABLED} in Flink 2.2.1. */
    static final String MULTI_JOIN_OPTION = "table.optimizer.multi-join.enabled";
    /**
     * {@code ExecutionConfigOptions.TABLE_EXEC_ASYNC_STATE_ENABLED}: the joins and aggregates that have an
     * asynchronous-state version use it (on ForSt; others ignore it).
     */
    static final String ASYNC_STATE_OPTION = "table.exec.async-state.enabled";

    /**
     * The mini-batch variant's table configuration: mini-batch on (it also turns the regular joins into
     * mini-batch joins), flushed every 2 s or every 5,000 records per operator, whichever comes first
     * (the jobs take seconds, so nearly every flush is one of 5,000), and the two-phase aggregation that
     * mini-batch makes possible.
     */
    static final List<Map.Entry<String, String>> MINI_BATCH = List.of(
            Map.entry("table.exec.mini-batch.enabled", "true"),
            Map.entry("table.exec.mini-batch.allow-latency", "2 s"),
            Map.entry("table.exec.mini-batch.size", "5000"),
            Map.entry("table.optimizer.agg-phase-strategy", "TWO_PHASE"));

    /** The records of the stream whose tables give the reported SQL text and plan its column types. */
    static final int REPORT_SAMPLE = 2_000;

    private final boolean multiJoin;
    private final boolean miniBatch;
    /** {@code state.backend.type}: hashmap, rocksdb or forst. */
    private final String backend;

    private final Map<String, Boolean> multiJoinPlans = new java.util.concurrent.ConcurrentHashMap<>();

    FlinkSqlSystem() {
        this(false);
    }

    FlinkSqlSystem(boolean multiJoin) {
        this(multiJoin, false, "hashmap");
    }

    private FlinkSqlSystem(boolean multiJoin, boolean miniBatch, String backend) {
        this.multiJoin = multiJoin;
        this.miniBatch = miniBatch;
        this.backend = backend;
    }

    /** Joins + GROUP BY on RocksDB state: the peer of {@code flink-ivm-rocksdb}, with its state in bytes. */
    static FlinkSqlSystem onRocksDb() {
        return new FlinkSqlSystem(false, false, "rocksdb");
    }

    /**
     * The multi-way join on RocksDB state: the peer of {@code flink-ivm-rocksdb} in state bytes where
     * Flink SQL makes a MultiJoin.
     */
    static FlinkSqlSystem multiJoinOnRocksDb() {
        return new FlinkSqlSystem(true, false, "rocksdb");
    }

    /**
     * Joins + GROUP BY on ForSt state with Flink SQL's asynchronous state operators
     * ({@link #ASYNC_STATE_OPTION}): the peer of {@code flink-ivm-forst}.
     */
    static FlinkSqlSystem onForSt() {
        return new FlinkSqlSystem(false, false, "forst");
    }

    /** Joins + GROUP BY with {@link #MINI_BATCH}, on heap: Flink SQL as tuned for throughput. */
    static FlinkSqlSystem miniBatch() {
        return new FlinkSqlSystem(false, true, "hashmap");
    }

    /** {@link #miniBatch()} on RocksDB state: Flink SQL tuned for throughput, the peer of {@code flink-ivm-rocksdb}. */
    static FlinkSqlSystem miniBatchOnRocksDb() {
        return new FlinkSqlSystem(false, true, "rocksdb");
    }

    @Override
    public String name() {
        return (multiJoin ? "flink-sql-multijoin" : miniBatch ? "flink-sql-minibatch" : "flink-sql")
                + (backend.equals("hashmap") ? "" : "-" + backend);
    }

    @Override
    public String describe(Workload workload) {
        String options = multiJoin ? ", " + MULTI_JOIN_OPTION + " = true" : "";
        if (miniBatch) {
            List<String> set = new ArrayList<>();
            for (Map.Entry<String, String> e : MINI_BATCH) {
                set.add(e.getKey() + " = " + e.getValue());
            }
            options = ", " + String.join(", ", set) + " (each key's state touched once per batch, local pre-aggregation"
                    + " before the shuffle)";
        }
        return name() + ": Table API, joins + GROUP BY SUM" + options
                + ", " + keys(workload)
                + (backend.equals("hashmap") ? ", heap" : ", " + backend)
                + (backend.equals("forst") ? " with " + ASYNC_STATE_OPTION + " = true" : "")
                + ", the environment's parallelism P, changelog counted via toChangelogStream; wall time of the job"
                + " (submission included)";
    }

    /** The multi-way join variant applies when the optimized plan of the query has a MultiJoin node. */
    @Override
    public boolean appliesTo(Workload workload) {
        if (!multiJoin) {
            return true;
        }
        return multiJoinPlans.computeIfAbsent(
                workload.name(), k -> explain(workload).contains("MultiJoin"));
    }

    /** The tables' primary keys as the peers declare them, for the report. */
    static String keys(Workload workload) {
        if (workload.primaryKeys().isEmpty()) {
            return "no primary keys (the generator may repeat a relation's tuple)";
        }
        List<String> keys = new ArrayList<>();
        for (String r : QueryParser.parse(workload.query()).relations()) {
            List<Integer> key = workload.primaryKeys().get(r);
            if (key != null) {
                keys.add(r + "("
                        + String.join(
                                ", ", key.stream().map(RelationTables::column).toList()) + ")");
            }
        }
        return "primary keys " + String.join(", ", keys);
    }

    /** The SQL text that is run (the column types of a sample of the workload's stream), for the report. */
    static String sql(Workload workload) {
        return new QueryToSql(sample(workload, REPORT_SAMPLE)).select();
    }

    /** The tables of a stream of {@code n} records of the workload (seed 1, its first distribution). */
    private static RelationTables sample(Workload workload, int n) {
        InsertStream s = workload.generate(
                n, workload.distributions(List.of(Distribution.UNIFORM)).get(0), 1);
        return RelationTables.of(QueryParser.parse(workload.query()), s, workload.primaryKeys());
    }

    /** The optimized plan of the query over a tiny stream of the workload, as {@code Table.explain()} prints it. */
    String explain(Workload workload) {
        RelationTables tables = sample(workload, REPORT_SAMPLE);
        try (Prepared p = prepare(tables, tables.stream(), 1)) {
            return p.result.explain();
        }
    }

    /** A planned query over its registered input (released on close). */
    private record Prepared(
            StreamExecutionEnvironment env, StreamTableEnvironment tEnv, Table result, PrebuiltTables input)
            implements AutoCloseable {
        @Override
        public void close() {
            input.close();
        }
    }

    private Prepared prepare(RelationTables tables, InsertStream stream, int parallelism) {
        StreamExecutionEnvironment env = FlinkRuns.environment(backend, parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (multiJoin) {
            tEnv.getConfig().set(MULTI_JOIN_OPTION, "true");
        }
        if (backend.equals("forst")) {
            tEnv.getConfig().set(ASYNC_STATE_OPTION, "true");
        }
        if (miniBatch) {
            for (Map.Entry<String, String> e : MINI_BATCH) {
                tEnv.getConfig().set(e.getKey(), e.getValue());
            }
        }
        PrebuiltTables input = PrebuiltTables.of(tables, stream, parallelism);
        input.register(tEnv, env, "inserts");
        return new Prepared(env, tEnv, tEnv.sqlQuery(new QueryToSql(tables).select()), input);
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap, int parallelism) throws Exception {
        FlinkRuns.Execution e;
        try (Prepared p = prepare(RelationTables.of(workload, stream), stream, parallelism)) {
            DataStream<Row> changelog = p.tEnv.toChangelogStream(p.result);
            int sinkParallelism = FlinkRuns.parallelism(changelog);
            EndGate.process(changelog, new CountChangelog(), Types.VOID, sinkParallelism)
                    .name("count changelog")
                    .sinkTo(new DiscardingSink<>())
                    .name("discard changelog")
                    .setParallelism(sinkParallelism);
            e = FlinkRuns.execute(p.env, "bench " + name() + " " + workload.name() + " n=" + stream.size(), cap);
        }
        if (!e.completed()) {
            return e.toResult(stream.size(), -1, 0, "cancelled at the cap", "n/a");
        }
        return e.toResult(
                stream.size(), e.counter(SIZE), e.counter(CHECKSUM), e.counter(CHANGES) + " changelog rows", "n/a");
    }

    /**
     * Counts changelog rows and keeps the running result size and payload sum (accumulators summed over
     * subtasks); the payload is the last field.
     */
    static final class CountChangelog extends ProcessFunction<Row, Void> {
        private static final long serialVersionUID = 1L;
        private transient LongCounter changes;
        private transient LongCounter size;
        private transient LongCounter checksum;

        @Override
        public void open(OpenContext context) {
            changes = getRuntimeContext().getLongCounter(CHANGES);
            size = getRuntimeContext().getLongCounter(SIZE);
            checksum = getRuntimeContext().getLongCounter(CHECKSUM);
        }

        @Override
        public void processElement(Row row, Context ctx, Collector<Void> out) {
            changes.add(1L);
            Object last = row.getField(row.getArity() - 1);
            long payload = last == null ? 0 : ((Number) last).longValue();
            switch (row.getKind()) {
                case INSERT -> {
                    size.add(1L);
                    checksum.add(payload);
                }
                case UPDATE_AFTER -> checksum.add(payload);
                case UPDATE_BEFORE -> checksum.add(-payload);
                case DELETE -> {
                    size.add(-1L);
                    checksum.add(-payload);
                }
                default -> throw new IllegalStateException("unexpected row kind " + row.getKind());
            }
        }
    }
}
