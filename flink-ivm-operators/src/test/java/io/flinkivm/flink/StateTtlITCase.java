package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job with a state TTL on a MiniCluster, heap and RocksDB: the input pauses for three TTLs of wall
 * clock between two phases (Flink's TTL and the sink's timers run on processing time, which a
 * MiniCluster job cannot fake), so every entry of the first phase expires, and the rows of the second
 * phase no longer join it; on the view-tree plan (Flink's TTL in the view tree, whole keys in the sink)
 * and on the fallback (whole keys).
 */
class StateTtlITCase {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(1)
            .build());

    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    /** A stateful join view V[A] = Σ_B R(A,B)·U(A,B) below the border, the sink keyed by A. */
    static final ConjunctiveQuery Q = QueryParser.parse("Q(A,C) :- R(A,B), U(A,B), S(A,C)");

    static final Duration TTL = Duration.ofSeconds(2);
    static final long PAUSE_MILLIS = 3 * TTL.toMillis();

    static final List<InputRecord<Long>> FIRST = List.of(
            InputRecord.insert("R", Tuple.of(1L, 1L), 2L),
            InputRecord.insert("U", Tuple.of(1L, 1L), 3L),
            InputRecord.insert("S", Tuple.of(1L, 10L), 1L),
            InputRecord.insert("R", Tuple.of(2L, 1L), 1L),
            InputRecord.insert("U", Tuple.of(2L, 1L), 1L));
    /** Rows that would join the first phase's (S(1,11), S(2,20), U(1,1)), and a group of their own (A = 3). */
    static final List<InputRecord<Long>> SECOND = List.of(
            InputRecord.insert("S", Tuple.of(1L, 11L), 1L),
            InputRecord.insert("S", Tuple.of(2L, 20L), 1L),
            InputRecord.insert("U", Tuple.of(1L, 1L), 1L),
            InputRecord.insert("R", Tuple.of(3L, 1L), 5L),
            InputRecord.insert("U", Tuple.of(3L, 1L), 1L),
            InputRecord.insert("S", Tuple.of(3L, 30L), 2L));

    @ParameterizedTest
    @CsvSource({"hashmap, AUTO", "rocksdb, AUTO", "hashmap, FALLBACK", "rocksdb, FALLBACK"})
    void rowsAfterTheTtlNoLongerJoinExpiredState(String backend, Planner.Strategy strategy) throws Exception {
        Configuration c = new Configuration();
        c.setString("state.backend.type", backend);
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", "1");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        List<InputRecord<Long>> all = new ArrayList<>(FIRST);
        all.addAll(SECOND);
        DataStream<InputRecord<Long>> input = env.fromData(all, FlinkIvm.inputType(K))
                .map(new PauseBefore(FIRST.size(), PAUSE_MILLIS))
                .returns(FlinkIvm.inputType(K));
        IvmOptions options =
                IvmOptions.defaults().withSnapshotEvery(FIRST.size()).withStateTtl(TTL);
        IvmJob<Long> job = FlinkIvm.maintain(input, Planner.plan(Q, K, strategy), K, options);
        assertThat(job.layout().explain()).contains("state TTL 2 s: entries of views, key stages and row checks");
        List<ResultRecord<Long>> records = new ArrayList<>();
        try (CloseableIterator<ResultRecord<Long>> it = job.results().executeAndCollect("state ttl " + backend)) {
            it.forEachRemaining(records::add);
        }
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(records, 1);
        // Before the pause: the first phase's result, (1,10) = 2 · 3 · 1.
        assertThat(snapshots.get((long) FIRST.size()))
                .isEqualTo(evaluate(FIRST))
                .isEqualTo(Map.of(Tuple.of(1L, 10L), 6L));
        // After it: the second phase's rows alone, (3,30) = 5 · 1 · 2; without the TTL (1,10), (1,11) and
        // (2,20) would be there too.
        assertThat(snapshots.lastEntry().getKey()).isEqualTo((long) all.size());
        assertThat(snapshots.lastEntry().getValue())
                .isEqualTo(evaluate(SECOND))
                .isEqualTo(Map.of(Tuple.of(3L, 30L), 10L))
                .isNotEqualTo(evaluate(all));
    }

    private static Map<Tuple, Long> evaluate(List<InputRecord<Long>> rows) {
        KDatabase<Long> db = new KDatabase<>(K);
        for (InputRecord<Long> r : rows) {
            db.insert(r.relation(), r.tuple(), r.payload());
        }
        return NaiveEvaluator.evaluate(Q, K, db.relations());
    }

    /** Passes records on, sleeping before the one at index {@code at} (a single subtask). */
    static final class PauseBefore implements MapFunction<InputRecord<Long>, InputRecord<Long>> {
        private final int at;
        private final long millis;
        private int seen;

        PauseBefore(int at, long millis) {
            this.at = at;
            this.millis = millis;
        }

        @Override
        public InputRecord<Long> map(InputRecord<Long> r) throws InterruptedException {
            if (seen++ == at) {
                Thread.sleep(millis);
            }
            return r;
        }
    }
}
