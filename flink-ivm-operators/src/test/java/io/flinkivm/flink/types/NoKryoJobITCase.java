package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceSemiring;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tiny jobs with {@code pipeline.generic-types: false}: every record type, keyed state and Tuple
 * keys, on the heap and RocksDB backends, build and run, so nothing on the path falls back to Kryo.
 */
class NoKryoJobITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", DeadLetterTypeInfo.INSTANCE);

    static Stream<Arguments> semiringsAndBackends() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("hashmap", "rocksdb")) {
            out.add(Arguments.of("natural", backend));
            out.add(Arguments.of("boolean", backend));
            out.add(Arguments.of("min-plus", backend));
            out.add(Arguments.of("provenance", backend));
            out.add(Arguments.of("covariance:2", backend));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("semiringsAndBackends")
    void recordsStateAndKeysNeedNoKryo(String semiring, String backend) throws Exception {
        run(Semirings.byName(semiring), backend);
    }

    private static <T> void run(Semiring<T> k, String backend) throws Exception {
        IntFunction<T> payloadOf = payloads(k);
        List<InputRecord<T>> input = new ArrayList<>();
        Map<Tuple, T> expected = new HashMap<>();
        Map<Tuple, Integer> inserts = new HashMap<>();
        int bad = 0;
        for (int i = 0; i < 60; i++) {
            if (i % 17 == 16) {
                input.add(InputRecord.insert("BAD", Tuple.of(i), payloadOf.apply(i), "line " + i));
                bad++;
                continue;
            }
            Tuple key = Tuple.of(i % 2 == 0 ? "k" + (i % 5) : "ключ " + (i % 5), (long) (i % 3), i % 4 == 0);
            Tuple tuple = Tuple.of(key.get(0), key.get(1), key.get(2), 0.5 * i, i);
            T payload = payloadOf.apply(i);
            input.add(InputRecord.insert("R", tuple, payload, i % 3 == 0 ? null : "line " + i));
            expected.merge(key, payload, k::plus);
            inserts.merge(key, 1, Integer::sum);
            if (i == 30) {
                input.add(InputRecord.snapshotRequest());
            }
        }

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config(backend));
        env.setParallelism(2);
        SingleOutputStreamOperator<InputRecord<T>> valid =
                env.fromData(input, InputRecordTypeInfo.of(k)).process(new Validate<T>(), InputRecordTypeInfo.of(k));
        DataStream<ResultRecord<T>> results = valid.keyBy(
                        r -> r.tuple().project(new int[] {0, 1, 2}), TupleTypeInfo.INSTANCE)
                .process(new SumPerKey<>(k), DeltaTypeInfo.of(k))
                .keyBy(Delta::key, TupleTypeInfo.INSTANCE)
                .map(d -> RootUpdate.of(1, 0, d.key(), d.payload()), RootUpdateTypeInfo.of(k))
                .rebalance()
                .map(u -> ResultRecord.row(1, 0, u.tuple(), u.payload(), true), ResultRecordTypeInfo.of(k));
        CloseableIterator<ResultRecord<T>> rows = results.collectAsync();
        CloseableIterator<DeadLetter> deadLetters =
                valid.getSideOutput(DEAD_LETTERS).collectAsync();
        JobClient job = env.executeAsync("no-kryo " + k.name() + " on " + backend);

        Map<Tuple, List<T>> seen = new HashMap<>();
        rows.forEachRemaining(
                r -> seen.computeIfAbsent(r.tuple(), t -> new ArrayList<>()).add(r.payload()));
        List<DeadLetter> letters = new ArrayList<>();
        deadLetters.forEachRemaining(letters::add);
        job.getJobExecutionResult().get();

        assertThat(seen.keySet()).isEqualTo(expected.keySet());
        for (Map.Entry<Tuple, T> e : expected.entrySet()) {
            // One running sum per insert; the rebalance may reorder a key's sums, so look for the final one.
            assertThat(seen.get(e.getKey()))
                    .as("sums of %s", e.getKey())
                    .hasSize(inserts.get(e.getKey()))
                    .contains(e.getValue());
        }
        assertThat(letters).hasSize(bad).allSatisfy(l -> assertThat(l.reason()).isEqualTo("unknown relation BAD"));
    }

    @Test
    void aKryoPayloadFailsTheSameJobAtBuildTime() {
        BigNaturalSemiring k = new BigNaturalSemiring();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config("hashmap"));
        assertThatThrownBy(() -> {
                    env.fromData(
                                    List.of(InputRecord.insert("R", Tuple.of(1L), BigInteger.TWO)),
                                    InputRecordTypeInfo.of(k))
                            .keyBy(r -> r.tuple(), TupleTypeInfo.INSTANCE)
                            .process(new SumPerKey<>(k), DeltaTypeInfo.of(k))
                            .collectAsync();
                    env.execute("kryo");
                })
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Generic types have been disabled")
                .hasMessageContaining("java.math.BigInteger");
    }

    private static Configuration config(String backend) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(StateBackendOptions.STATE_BACKEND, backend);
        return conf;
    }

    @SuppressWarnings("unchecked")
    private static <T> IntFunction<T> payloads(Semiring<T> k) {
        Class<T> c = k.payloadClass();
        IntFunction<?> f;
        if (c == Long.class) {
            f = i -> (long) (i % 3 + 1);
        } else if (c == Boolean.class) {
            f = i -> i % 2 == 0;
        } else if (c == Double.class) {
            f = i -> (double) (i % 7);
        } else if (c == Polynomial.class) {
            f = i -> Polynomial.variable("r" + i);
        } else {
            int m = ((CovarianceSemiring) k).dimension();
            f = i -> CovarianceTriple.lift(m == 2 ? new double[] {i, -2.5 * i} : new double[m]);
        }
        return (IntFunction<T>) f;
    }

    /** Drops snapshot requests and sends inserts into unknown relations to the dead letters. */
    static final class Validate<T> extends ProcessFunction<InputRecord<T>, InputRecord<T>> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(InputRecord<T> r, Context ctx, Collector<InputRecord<T>> out) {
            if (r.isSnapshotRequest()) {
                return;
            }
            if (!r.relation().equals("R")) {
                ctx.output(DEAD_LETTERS, new DeadLetter(r.origin(), "unknown relation " + r.relation(), r.toString()));
                return;
            }
            out.collect(r);
        }
    }

    /** Keyed by a projection of the tuple: the running sum per key (value state) and per tuple (map state). */
    static final class SumPerKey<T> extends KeyedProcessFunction<Tuple, InputRecord<T>, Delta<T>> {
        private static final long serialVersionUID = 1L;

        private final Semiring<T> k;
        private transient ValueState<T> sum;
        private transient MapState<Tuple, T> perTuple;

        SumPerKey(Semiring<T> k) {
            this.k = k;
        }

        @Override
        public void open(OpenContext openContext) {
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", PayloadTypes.of(k)));
            perTuple = getRuntimeContext()
                    .getMapState(new MapStateDescriptor<>("per-tuple", TupleTypeInfo.INSTANCE, PayloadTypes.of(k)));
        }

        @Override
        public void processElement(InputRecord<T> r, Context ctx, Collector<Delta<T>> out) throws Exception {
            T old = sum.value();
            T now = old == null ? r.payload() : k.plus(old, r.payload());
            sum.update(now);
            T before = perTuple.get(r.tuple());
            perTuple.put(r.tuple(), before == null ? r.payload() : k.plus(before, r.payload()));
            out.collect(new Delta<>(1, 0, ctx.getCurrentKey(), now, 0, null));
        }
    }
}
