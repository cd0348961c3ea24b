package io.flinkivm.bench;

import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.FlinkJobLayout;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.time.Duration;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The engine's own limit: the same input records through as many keyBy hops as the flink-ivm job has
 * on the way of an insert (ingest → view tree → sink; ingest → sink when no tree has state below its
 * root, and for the fallback: one), each hop keyed by the insert's
 * tuple and doing nothing but forwarding, on the heap backend, with the source, every hop and the
 * counting sink at the environment's parallelism P. {@link #minimal()} ({@code trivial-keyed-minimal})
 * has exactly two hops whatever the query: source → keyBy → map → keyBy → map → counting sink.
 */
final class TrivialKeyedSystem implements FlinkSystem {
    static final String OUT = "trivial-out";
    /** The hops of {@link #minimal()}. */
    static final int MINIMAL_HOPS = 2;

    private final boolean minimal;

    TrivialKeyedSystem() {
        this(false);
    }

    private TrivialKeyedSystem(boolean minimal) {
        this.minimal = minimal;
    }

    /** Two keyBy hops of forwarding on every workload: the least a job with two shuffles pays per insert. */
    static TrivialKeyedSystem minimal() {
        return new TrivialKeyedSystem(true);
    }

    @Override
    public String name() {
        return minimal ? "trivial-keyed-minimal" : "trivial-keyed";
    }

    @Override
    public String describe(Workload workload) {
        if (minimal) {
            return name() + ": exactly " + MINIMAL_HOPS
                    + " keyBy hops of pure forwarding (source → keyBy → map → keyBy → map"
                    + " → counting sink), heap, the environment's parallelism P; wall time of the job (submission included)";
        }
        MaintenancePlan plan = FlinkIvmSystem.plan(workload);
        return name() + ": " + keyedHops(plan)
                + " keyBy hops of pure forwarding (as many as an insert crosses in flink-ivm: " + path(plan)
                + "), heap, the environment's parallelism P; wall time of the job (submission included)";
    }

    /**
     * The most keyBy hops an insert crosses in the flink-ivm job for {@code plan}
     * ({@link FlinkJobLayout#shufflesPerInsert()}): ingest to its view tree's operator and on to the
     * sink, or ingest straight to the sink (every tree without state below its root) or to the fallback.
     */
    static int keyedHops(MaintenancePlan plan) {
        return FlinkJobLayout.of(plan, 1).shufflesPerInsert();
    }

    private static String path(MaintenancePlan plan) {
        if (plan instanceof FallbackPlan) {
            return "ingest → fallback";
        }
        return keyedHops(plan) == 2 ? "ingest → view tree → sink" : "ingest → sink";
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap, int parallelism) throws Exception {
        int hops = minimal ? MINIMAL_HOPS : keyedHops(FlinkIvmSystem.plan(workload));
        TypeInformation<InputRecord<Long>> type = FlinkIvm.inputType(NaturalSemiring.INSTANCE);
        StreamExecutionEnvironment env = FlinkRuns.environment("hashmap", parallelism);
        FlinkRuns.Execution e;
        try (IndexedInput<Long> indices = IndexedInput.of(IndexedInput.indices(stream.size()), stream, parallelism);
                IndexedInput<InputRecord<Long>> records = IndexedInput.of(stream.inputRecords())) {
            DataStream<InputRecord<Long>> s =
                    records.at(indices.source(env, Types.LONG, "inserts"), type, "input records");
            for (int h = 0; h < hops; h++) {
                s = s.keyBy(new TupleKey(), TupleTypeInfo.INSTANCE)
                        .map(new Forward())
                        .returns(type)
                        .name("forward " + (h + 1));
            }
            FlinkRuns.count(s, OUT);
            e = FlinkRuns.execute(env, "bench " + name() + " " + workload.name() + " n=" + stream.size(), cap);
        }
        if (!e.completed()) {
            return e.toResult(-1, "cancelled at the cap");
        }
        long out = e.counter(OUT);
        if (out != stream.size()) {
            throw new IllegalStateException(name() + " forwarded " + out + " of " + stream.size() + " records");
        }
        return e.toResult(stream.size(), hops + " hops");
    }

    static final class TupleKey implements KeySelector<InputRecord<Long>, Tuple> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple getKey(InputRecord<Long> r) {
            return r.tuple();
        }
    }

    static final class Forward implements MapFunction<InputRecord<Long>, InputRecord<Long>> {
        private static final long serialVersionUID = 1L;

        @Override
        public InputRecord<Long> map(InputRecord<Long> r) {
            return r;
        }
    }
}
