package io.flinkivm.flink.border;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.BorderJoin;
import io.flinkivm.core.engine.border.MemoryJoinRecordStore;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.JoinRecordSerializer;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link FlinkJoinRecordStore} under the border join's changelog, on each backend, holding few or no
 * records and heads in memory: random inserts with a trigger now and then, keys dropped now and then
 * (as a TTL or closed windows drop them), and a checkpoint and restore in the middle, give the same
 * changes as the join over an in-memory store per key.
 */
class FlinkJoinRecordStoreTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    /** Root views V[A] (R, S) and V[A,C] (T); keyed by A, so each key has a join of its own. */
    static final ViewTreePlan PLAN =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)"), K);

    /**
     * Adds each (tree, a[, c], delta) to the join; a watermark is a trigger that emits one line per
     * change, "tree tuple now then", sorted.
     */
    static final class Joining extends AbstractStreamOperator<String> implements OneInputStreamOperator<Tuple, String> {
        private final int most;
        private transient BorderJoin<Long> border;
        private transient FlinkJoinRecordStore<Long> store;

        Joining(int most) {
            this.most = most;
        }

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            border = new BorderJoin<>(PLAN, K, true);
            store = new FlinkJoinRecordStore<>(
                    context.getKeyedStateStore(), border.layout(), LongSerializer.INSTANCE, this, true, most);
            if (context.isRestored()) {
                StateLayout.forEachStoredKey(
                        getKeyedStateBackend(),
                        List.of(StateNames.JOIN_RECORDS, StateNames.JOIN_HEADS),
                        this,
                        store::rememberStoredKeys);
            }
        }

        @Override
        public void processElement(StreamRecord<Tuple> element) throws Exception {
            Tuple u = element.getValue();
            if (tree(u) == DROP) {
                // As a sink drops a key (a TTL's expiry, closed windows): its states cleared, then the store told.
                getKeyedStateStore()
                        .getMapState(new MapStateDescriptor<>(
                                StateNames.JOIN_RECORDS,
                                TaggedTupleSerializer.INSTANCE,
                                new JoinRecordSerializer<>(LongSerializer.INSTANCE)))
                        .clear();
                getKeyedStateStore()
                        .getMapState(new MapStateDescriptor<>(
                                StateNames.JOIN_HEADS, TaggedTupleSerializer.INSTANCE, TupleSerializer.INSTANCE))
                        .clear();
                store.forgetCurrentKey();
                store.dirtyMarks().clear();
                return;
            }
            border.add(store, null, tree(u), root(u), delta(u));
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            TreeSet<String> lines = new TreeSet<>();
            for (Object key : store.dirtyMarks().keys(getKeyedStateBackend())) {
                setCurrentKey(key);
                border.trigger(store, c -> lines.add(line(c)));
            }
            output.collect(new StreamRecord<>(String.join("; ", lines)));
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            store.flush();
            store.dirtyMarks().spill();
        }
    }

    /** The "tree" of an event that drops its key. */
    static final int DROP = 2;

    static int tree(Tuple u) {
        return ((Long) u.get(0)).intValue();
    }

    static Tuple root(Tuple u) {
        return tree(u) == 0 ? Tuple.of(u.get(1)) : Tuple.of(u.get(1), u.get(2));
    }

    static long delta(Tuple u) {
        return (Long) u.get(u.arity() - 1);
    }

    static String line(ResultChange<Long> c) {
        return c.tuple() + " " + c.payload() + " " + c.previous();
    }

    /** A script: inserts of both trees over few keys, with a trigger (null) now and then. */
    static List<Tuple> script(long seed, int length) {
        Random random = new Random(seed);
        List<Tuple> out = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            if (random.nextInt(7) == 0) {
                out.add(null);
            }
            long a = random.nextInt(4);
            long delta = 1 + random.nextInt(3);
            if (random.nextInt(25) == 0) {
                out.add(Tuple.of((long) DROP, a));
                continue;
            }
            out.add(random.nextInt(3) == 0 ? Tuple.of(0L, a, delta) : Tuple.of(1L, a, (long) random.nextInt(6), delta));
        }
        out.add(null);
        return out;
    }

    /** The triggers' lines of the border join over an in-memory store per key. */
    static List<String> expected(List<Tuple> script) {
        BorderJoin<Long> border = new BorderJoin<>(PLAN, K, true);
        Map<Object, MemoryJoinRecordStore<Long>> stores = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (Tuple u : script) {
            if (u == null) {
                TreeSet<String> lines = new TreeSet<>();
                for (MemoryJoinRecordStore<Long> s : stores.values()) {
                    border.trigger(s, c -> lines.add(line(c)));
                }
                out.add(String.join("; ", lines));
            } else {
                if (tree(u) == DROP) {
                    stores.remove(u.get(1));
                    continue;
                }
                MemoryJoinRecordStore<Long> s = stores.computeIfAbsent(
                        u.get(1), k -> new MemoryJoinRecordStore<>(border.layout(), border.extraIds()));
                border.add(s, null, tree(u), root(u), delta(u));
            }
        }
        return out;
    }

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Tuple, String> harness(
            int most, Backend backend, OperatorSubtaskState restored) throws Exception {
        return Harnesses.keyed(() -> new Joining(most), u -> Tuple.of(u.get(1)), backend, restored);
    }

    /** Plays {@code script} from {@code from} to {@code to}, a trigger at each null; {@code watermark} is the last. */
    static long play(
            KeyedOneInputStreamOperatorTestHarness<Tuple, Tuple, String> h,
            List<Tuple> script,
            int from,
            int to,
            long watermark)
            throws Exception {
        for (int i = from; i < to; i++) {
            if (script.get(i) == null) {
                h.processWatermark(++watermark);
            } else {
                h.processElement(new StreamRecord<>(script.get(i)));
            }
        }
        return watermark;
    }

    static List<String> triggers(KeyedOneInputStreamOperatorTestHarness<Tuple, Tuple, String> h) {
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                out.add((String) r.getValue());
            }
        }
        return out;
    }

    static List<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Backend backend : Backend.values()) {
            for (int most : new int[] {0, 1, 3, FlinkJoinRecordStore.HELD}) {
                out.add(Arguments.of(backend, most));
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void heldRecordsAndHeadsGiveTheChangesOfTheJoinAcrossARestore(Backend backend, int most) throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            List<Tuple> script = script(seed, 120);
            int half = script.size() / 2;
            List<String> got = new ArrayList<>();
            OperatorSubtaskState checkpoint;
            long watermark;
            try (var h = harness(most, backend, null)) {
                watermark = play(h, script, 0, half, 0);
                checkpoint = h.snapshot(1, 1);
                got.addAll(triggers(h));
            }
            try (var h = harness(most, backend, checkpoint)) {
                play(h, script, half, script.size(), watermark);
                got.addAll(triggers(h));
            }
            assertThat(got).as("seed %d", seed).isEqualTo(expected(script));
        }
    }
}
