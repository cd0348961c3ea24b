package io.flinkivm.bench;

import io.flinkivm.bench.state.EndGate;
import io.flinkivm.examples.tables.NormalizedRows;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.WindowEmit;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.SqlView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * A system that maintains a {@link SqlDataset}'s query from its text, on one state backend: flink-ivm
 * ({@code FlinkIvmSql.sql}, plan AUTO, default options with the tables' sizes as relation rates: one
 * trigger at the end of the input, or one after every {@code --sql-trigger-every} rows of each ingest
 * subtask; the view's changelog read with {@code toChangelogStream} in its own mode) or Flink SQL
 * ({@code sqlQuery}, plain or with {@link FlinkSqlSystem#MINI_BATCH}, its changelog read with
 * {@code toChangelogStream}). Both read the same tables, registered with their primary keys
 * from one source of the stream's rows at the environment's parallelism, split by table
 * ({@link PrebuiltTables}). The changelog's rows are counted and checksummed at the parallelism of their
 * input ({@link NormalizedRows#hash}: equal results give equal sums whatever the engine), so the bench
 * can check every system against the first.
 */
final class SqlSystem {
    static final String SIZE = "sql-result-size";
    static final String CHECKSUM = "sql-result-checksum";
    static final String CHANGES = "sql-changelog-rows";
    static final String DEAD_LETTERS = "sql-dead-letters";

    private final boolean ivm;
    private final boolean miniBatch;
    private final String backend;

    private SqlSystem(boolean ivm, boolean miniBatch, String backend) {
        this.ivm = ivm;
        this.miniBatch = miniBatch;
        this.backend = backend;
    }

    /** flink-ivm on heap and RocksDB; Flink SQL plain and with mini-batch, on heap and on RocksDB. */
    static List<SqlSystem> all() {
        return List.of(
                new SqlSystem(true, false, "hashmap"),
                new SqlSystem(true, false, "rocksdb"),
                new SqlSystem(false, false, "hashmap"),
                new SqlSystem(false, true, "hashmap"),
                new SqlSystem(false, false, "rocksdb"),
                new SqlSystem(false, true, "rocksdb"));
    }

    /** The name of the system in results.csv: the same as the datalog workloads' systems. */
    String name() {
        String base = ivm ? "flink-ivm" : miniBatch ? "flink-sql-minibatch" : "flink-sql";
        return ivm && backend.equals("hashmap")
                ? base + "-heap"
                : backend.equals("hashmap") ? base : base + "-" + backend;
    }

    boolean isIvm() {
        return ivm;
    }

    String label(int parallelism) {
        return parallelism == 1 ? name() : name() + " P=" + parallelism;
    }

    /** What the system runs, with a trigger after every {@code triggerEvery} rows (flink-ivm; 0: one at the end). */
    String describe(long triggerEvery) {
        String what = ivm
                ? "FlinkIvmSql.sql on the query's text, plan AUTO, IvmOptions.defaults() with the tables' sizes as"
                        + " relation rates, "
                        + (triggerEvery == 0
                                ? "one trigger at the end"
                                : "a trigger after every " + triggerEvery + " rows of each ingest subtask")
                        + " (windowed datasets: WindowEmit.FINAL, each window's groups once it closed)"
                        + ", the view's table read with toChangelogStream"
                : "tEnv.sqlQuery on the query's text"
                        + (miniBatch
                                ? ", "
                                        + String.join(
                                                ", ",
                                                FlinkSqlSystem.MINI_BATCH.stream()
                                                        .map(e -> e.getKey() + " = " + e.getValue())
                                                        .toList())
                                : ", default table configuration")
                        + ", its changelog read with toChangelogStream";
        return name() + ": " + what + ", state.backend.type " + backend
                + ", the environment's parallelism P; wall time of the job (submission included)";
    }

    /** The plan the system runs: systems of one kind run one plan, on other state backends. */
    String planKind() {
        return ivm ? "flink-ivm" : miniBatch ? "flink-sql-minibatch" : "flink-sql";
    }

    /**
     * The plan this system runs {@code dataset}'s query with, planned over {@code sample}'s tables as a run
     * plans it, for the report: flink-ivm's closure under the keys, plan line and Flink job (its operators
     * and exchanges); Flink SQL's optimized physical plan ({@code Table.explain()}).
     */
    List<String> plan(SqlDataset dataset, SqlStream sample) {
        StreamExecutionEnvironment env = FlinkRuns.environment(backend, 1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (miniBatch) {
            FlinkSqlSystem.MINI_BATCH.forEach(e -> tEnv.getConfig().set(e.getKey(), e.getValue()));
        }
        try (PrebuiltTables tables = PrebuiltTables.of(sample)) {
            tables.register(tEnv, env, "rows");
            if (ivm) {
                SqlView view = FlinkIvmSql.sql(
                        tEnv, dataset.sql(), IvmOptions.defaults().withRelationRates(rates(dataset)));
                return ivmPlan(view.explain());
            }
            return physicalPlan(tEnv.sqlQuery(dataset.sql()).explain());
        }
    }

    /** From flink-ivm's explain text: the closure's line, the plan line, and the Flink job's lines. */
    static List<String> ivmPlan(String explain) {
        List<String> out = new ArrayList<>();
        boolean job = false;
        for (String line : explain.split("\n")) {
            job = line.equals("Flink job:") || (job && line.startsWith("  "));
            if (job || line.startsWith("Closure under the keys") || line.startsWith("Plan: ")) {
                out.add(line);
            }
        }
        return out;
    }

    /** From Flink's explain text: the optimized physical plan's lines. */
    static List<String> physicalPlan(String explain) {
        List<String> out = new ArrayList<>();
        boolean inside = false;
        for (String line : explain.split("\n")) {
            if (line.startsWith("== ")) {
                inside = line.equals("== Optimized Physical Plan ==");
            } else if (inside && !line.isBlank()) {
                out.add(line);
            }
        }
        return out;
    }

    /**
     * Runs the query over the stream once at {@code parallelism}; stopped at {@code cap}; flink-ivm with a
     * trigger after every {@code triggerEvery} rows of each ingest subtask (0: one at the end).
     */
    RunResult run(SqlDataset dataset, SqlStream stream, Duration cap, int parallelism, long triggerEvery)
            throws Exception {
        StreamExecutionEnvironment env = FlinkRuns.environment(backend, parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        if (miniBatch) {
            FlinkSqlSystem.MINI_BATCH.forEach(e -> tEnv.getConfig().set(e.getKey(), e.getValue()));
        }
        FlinkRuns.Execution e;
        try (PrebuiltTables tables = PrebuiltTables.of(stream)) {
            tables.register(tEnv, env, "rows");
            DataStream<Row> changelog;
            if (ivm) {
                // A windowed dataset's groups are emitted once, final, as Flink SQL's window aggregate emits them.
                IvmOptions options = IvmOptions.defaults()
                        .withRelationRates(rates(dataset))
                        .withSnapshotEvery(triggerEvery)
                        .withWindowEmit(dataset.eventTime() == null ? WindowEmit.CHANGES : WindowEmit.FINAL);
                SqlView view = FlinkIvmSql.sql(tEnv, dataset.sql(), options);
                changelog = tEnv.toChangelogStream(view.table(), Schema.derived(), mode(view));
                FlinkRuns.count(view.deadLetters(), DEAD_LETTERS);
            } else {
                changelog = tEnv.toChangelogStream(tEnv.sqlQuery(dataset.sql()));
            }
            int p = FlinkRuns.parallelism(changelog);
            EndGate.process(changelog, new CountRows(), Types.VOID, p)
                    .name("count changelog")
                    .sinkTo(new DiscardingSink<>())
                    .name("discard changelog")
                    .setParallelism(p);
            e = FlinkRuns.execute(env, "bench " + name() + " " + dataset.name() + " n=" + stream.size(), cap);
        }
        if (!e.completed()) {
            return e.toResult(stream.size(), -1, 0, "cancelled at the cap", "");
        }
        if (ivm && e.counter(DEAD_LETTERS) != 0) {
            throw new IllegalStateException(name() + " on " + dataset.name() + " rejected " + e.counter(DEAD_LETTERS)
                    + " rows of generated tables whose keys hold");
        }
        return e.toResult(
                stream.size(), e.counter(SIZE), e.counter(CHECKSUM), e.counter(CHANGES) + " changelog rows", "");
    }

    /**
     * The relation rates of flink-ivm's job: each table's share of the stream (TPC-H's sizes per scale
     * factor, Nexmark's proportions), where every relation of the query is a table (no self-join).
     */
    static Map<String, Double> rates(SqlDataset dataset) {
        Map<String, Double> shares = dataset.proportions();
        Map<String, Double> rates = new LinkedHashMap<>();
        for (String relation : dataset.translation().query().relations()) {
            Double share = shares.get(relation);
            if (share == null) {
                return Map.of();
            }
            rates.put(relation, Math.max(share, 1.0));
        }
        return rates;
    }

    /** The view's changelog as its table declares it: insert-only (a bag), upsert (a key) or with retractions. */
    private static ChangelogMode mode(SqlView view) {
        if (view.translation().isBag()) {
            return ChangelogMode.insertOnly();
        }
        return view.table().getResolvedSchema().getPrimaryKey().isPresent()
                ? ChangelogMode.upsert()
                : ChangelogMode.all();
    }

    /** Counts the changelog's rows and keeps the result's size and checksum (accumulators summed over subtasks). */
    static final class CountRows extends ProcessFunction<Row, Void> {
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
            int sign = NormalizedRows.sign(row);
            changes.add(1L);
            size.add(sign);
            checksum.add(sign * NormalizedRows.hash(row));
        }
    }
}
