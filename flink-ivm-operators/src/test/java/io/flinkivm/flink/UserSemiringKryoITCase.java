package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.usersemiring.BottleneckSemiring;
import io.flinkivm.flink.usersemiring.Capacity;
import io.flinkivm.flink.usersemiring.CapacityKryoSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.typeutils.GenericTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A user's semiring whose payload is a plain Java class: Flink falls back to Kryo for it, with the
 * Kryo serializer registered by configuration ({@code pipeline.serialization-config}); the job's
 * snapshots equal the oracle's. With {@code pipeline.generic-types: false} the same job is refused
 * while the job graph is built, naming the class: such a payload needs a registration or its own
 * TypeInformation.
 */
class UserSemiringKryoITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final BottleneckSemiring K = BottleneckSemiring.INSTANCE;
    /** Widest path A → B → C → D through links R, S, T, with the last hop grouped by its end. */
    static final String QUERY = "Q(A,D) :- R(A,B), S(A,B,C), T(A,D)";

    static final int INSERTS = 300;

    static List<Insert<Capacity>> stream() {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), K);
        return RandomStreams.generate(
                plan.query(),
                K,
                new Random(11),
                INSERTS,
                new RandomStreams.Domain(5, RandomStreams.ValueType.LONG),
                r -> new Capacity(r.nextInt(10)));
    }

    static List<InputRecord<Capacity>> records(List<Insert<Capacity>> stream) {
        List<InputRecord<Capacity>> out = new ArrayList<>();
        for (Insert<Capacity> i : stream) {
            out.add(InputRecord.insert(i.relation(), i.tuple(), i.payload()));
        }
        return out;
    }

    static Configuration config(boolean genericTypes) {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("parallelism.default", "2");
        c.set(PipelineOptions.GENERIC_TYPES, genericTypes);
        c.set(
                PipelineOptions.SERIALIZATION_CONFIG,
                List.of(Capacity.class.getName() + ": {type: kryo, kryo-type: registered, class: "
                        + CapacityKryoSerializer.class.getName() + "}"));
        return c;
    }

    @Test
    void thePlanIsPHierarchicalAndThePayloadTypeIsGeneric() {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), K);
        assertThat(plan.kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        assertThat(PayloadTypes.of(K))
                .isInstanceOf(GenericTypeInfo.class)
                .extracting(t -> t.getTypeClass())
                .isEqualTo(Capacity.class);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aKryoRegisteredPayloadRunsAndMatchesTheOracle() throws Exception {
        List<Insert<Capacity>> stream = stream();
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), K);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config(true));
        assertThat(env.getConfig().getSerializerConfig().getRegisteredTypesWithKryoSerializerClasses())
                .containsEntry(Capacity.class, CapacityKryoSerializer.class);
        IvmTestJobs.Partitioned<Capacity> input = IvmTestJobs.Partitioned.roundRobin(stream, 2);
        IvmJob<Capacity> job = FlinkIvm.maintain(
                IvmTestJobs.source(env, input, FlinkIvm.inputType(K), RateLimiterStrategy.noOp()),
                plan,
                K,
                IvmOptions.defaults().withSnapshotEvery(25));
        long writesBefore = CapacityKryoSerializer.WRITES.get();
        List<ResultRecord<Capacity>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<Capacity>> it = job.results().executeAndCollect("bottleneck")) {
            it.forEachRemaining(collected::add);
        }
        assertThat(CapacityKryoSerializer.WRITES.get())
                .as("capacities written by the registered serializer")
                .isGreaterThan(writesBefore);

        TreeMap<Long, Map<Tuple, Capacity>> snapshots = IvmTestJobs.checkSnapshots(
                plan, K, input, collected, job.results().getParallelism(), "bottleneck");
        assertThat(snapshots).containsOnlyKeys(50L, 100L, 150L, 200L, 250L, 300L);
        assertThat(snapshots.lastEntry().getValue()).isNotEmpty();
    }

    @Test
    void withoutGenericTypesTheJobIsRefusedWhenTheGraphIsBuilt() {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), K);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config(false));
        // A source that creates no serializer up front: the refusal comes from flink-ivm's own operators.
        DataStream<InputRecord<Capacity>> inserts = env.fromSource(
                new DataGeneratorSource<>(new Generated(), 100, FlinkIvm.inputType(K)),
                WatermarkStrategy.noWatermarks(),
                "generated");
        IvmJob<Capacity> job = FlinkIvm.maintain(inserts, plan, K, IvmOptions.defaults());
        assertThatThrownBy(() -> job.results().executeAndCollect("refused").close())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Generic types have been disabled")
                .hasMessageContaining(Capacity.class.getName());
        // A source that serializes its elements when it is defined refuses them at once.
        StreamExecutionEnvironment fresh = StreamExecutionEnvironment.getExecutionEnvironment(config(false));
        assertThatThrownBy(() -> fresh.fromData(records(stream()), FlinkIvm.inputType(K)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining(Capacity.class.getName());
    }

    /** R(i mod 5, i mod 3) with capacity i mod 10; Capacity is not java.io.Serializable, so no list. */
    static final class Generated implements GeneratorFunction<Long, InputRecord<Capacity>> {
        private static final long serialVersionUID = 1L;

        @Override
        public InputRecord<Capacity> map(Long i) {
            return InputRecord.insert("R", Tuple.of(i % 5, i % 3), new Capacity(i % 10));
        }
    }
}
