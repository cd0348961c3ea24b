package io.flinkivm.flink.runtime;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * Operator test harnesses for flink-ivm's operators: scripts of records and watermarks, played
 * straight through or with a snapshot, a fresh operator and a restore in the middle, on the heap
 * and RocksDB backends.
 */
final class Harnesses {
    private Harnesses() {
    }

    /** The state backends the harness tests run on. */
    enum Backend {
        HEAP, ROCKSDB;

        StateBackend create() {
            return this == HEAP ? new HashMapStateBackend() : new EmbeddedRocksDBStateBackend();
        }
    }

    /** One input event of a script: a record with its timestamp, or a watermark. */
    sealed interface Step<IN> permits Element, Mark {
    }

    record Element<IN>(IN value, long timestamp) implements Step<IN> {
    }

    record Mark<IN>(long watermark) implements Step<IN> {
    }

    static <IN> Step<IN> element(IN value, long timestamp) {
        return new Element<>(value, timestamp);
    }

    static <IN> Step<IN> mark(long watermark) {
        return new Mark<>(watermark);
    }

    /** Feeds {@code steps} to {@code harness}. */
    static <IN> void play(OneInputStreamOperatorTestHarness<IN, ?> harness, List<Step<IN>> steps) throws Exception {
        for (Step<IN> s : steps) {
            if (s instanceof Element<IN> e) {
                harness.processElement(e.value(), e.timestamp());
            } else {
                harness.processWatermark(((Mark<IN>) s).watermark());
            }
        }
    }

    /** Keys a delta by its view key (as the job does). */
    static <T> KeySelector<Delta<T>, Tuple> byDeltaKey() {
        return Delta::key;
    }

    /** Keys a root update by the values at {@code positions[tree]} of its tuple. */
    static <T> KeySelector<RootUpdate<T>, Tuple> byPositions(int[][] positions) {
        return u -> u.tuple().project(positions[u.tree()]);
    }

    /** Everything a harness emitted: main output (records and watermarks) and one side output. */
    record Outputs(List<Object> main, List<Object> side) {
        Outputs append(Outputs later) {
            List<Object> m = new ArrayList<>(main);
            m.addAll(later.main);
            List<Object> s = new ArrayList<>(side);
            s.addAll(later.side);
            return new Outputs(m, s);
        }

        /**
         * The same outputs with each run of records between two watermarks turned into a multiset:
         * the order in which one watermark releases several keys is not part of the contract.
         */
        Outputs normalized() {
            return new Outputs(segments(main), segments(side));
        }

        private static List<Object> segments(List<Object> output) {
            List<Object> out = new ArrayList<>();
            Map<Object, Integer> run = null;
            for (Object o : output) {
                if (o instanceof StreamRecord<?>) {
                    if (run == null) {
                        run = new HashMap<>();
                        out.add(run);
                    }
                    run.merge(o, 1, Integer::sum);
                } else {
                    run = null;
                    out.add(o);
                }
            }
            return out;
        }

        /** The values of the main output's records, without watermarks. */
        List<Object> values() {
            List<Object> out = new ArrayList<>();
            for (Object o : main) {
                if (o instanceof StreamRecord<?> r) {
                    out.add(r.getValue());
                }
            }
            return out;
        }
    }

    /** Opens a harness around a fresh operator, from {@code restored} state unless it is null. */
    @FunctionalInterface
    interface HarnessFactory<IN> {
        OneInputStreamOperatorTestHarness<IN, ?> open(OperatorSubtaskState restored) throws Exception;
    }

    static Outputs outputs(OneInputStreamOperatorTestHarness<?, ?> harness, OutputTag<?> side) {
        List<Object> s = new ArrayList<>();
        if (side != null && harness.getSideOutput(side) != null) {
            s.addAll(harness.getSideOutput(side));
        }
        return new Outputs(new ArrayList<>(harness.getOutput()), s);
    }

    /**
     * A keyed harness around a fresh operator from {@code operators}, opened on {@code backend},
     * from {@code restored} state if it is not null.
     */
    static <IN, OUT> KeyedOneInputStreamOperatorTestHarness<Tuple, IN, OUT> keyed(
            Supplier<? extends OneInputStreamOperator<IN, OUT>> operators,
            KeySelector<IN, Tuple> keys, Backend backend, OperatorSubtaskState restored) throws Exception {
        KeyedOneInputStreamOperatorTestHarness<Tuple, IN, OUT> h = new KeyedOneInputStreamOperatorTestHarness<>(
                operators.get(), keys, TupleTypeInfo.INSTANCE);
        return open(h, backend, restored);
    }

    static <H extends OneInputStreamOperatorTestHarness<?, ?>> H open(H h, Backend backend,
            OperatorSubtaskState restored) throws Exception {
        h.setStateBackend(backend.create());
        if (restored != null) {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    /**
     * Plays {@code before} and {@code after} on one harness; then plays {@code before} on a second,
     * snapshots it, restores the snapshot into a third around a fresh operator and plays
     * {@code after} there. Returns both outputs (straight, restored) for comparison.
     */
    static <IN> Outputs[] straightAndRestored(
            HarnessFactory<IN> harnesses,
            OutputTag<?> side, List<Step<IN>> before, List<Step<IN>> after) throws Exception {
        Outputs straight;
        try (OneInputStreamOperatorTestHarness<IN, ?> h = harnesses.open(null)) {
            play(h, before);
            play(h, after);
            straight = outputs(h, side);
        }
        Outputs first;
        OperatorSubtaskState snapshot;
        try (OneInputStreamOperatorTestHarness<IN, ?> h = harnesses.open(null)) {
            play(h, before);
            first = outputs(h, side);
            snapshot = h.snapshot(1L, 100L);
        }
        Outputs second;
        try (OneInputStreamOperatorTestHarness<IN, ?> h = harnesses.open(snapshot)) {
            play(h, after);
            second = outputs(h, side);
        }
        return new Outputs[] {straight, first.append(second)};
    }
}
