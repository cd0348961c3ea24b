package io.flinkivm.flink.common;

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
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * Operator test harnesses for flink-ivm's operators: scripts of records and watermarks (epochs are
 * in the records, {@link Epochs}), played straight through or with a snapshot, a fresh operator and a
 * restore in the middle, on the heap and RocksDB backends.
 */
public final class Harnesses {
    private Harnesses() {}

    /** Key groups of the keyed harnesses (as a job's default). */
    public static final int MAX_PARALLELISM = 128;

    /** The state backends the harness tests run on. */
    public enum Backend {
        HEAP,
        ROCKSDB;

        public StateBackend create() {
            return this == HEAP ? new HashMapStateBackend() : new EmbeddedRocksDBStateBackend();
        }
    }

    /** One input event of a script: a record (of the first or second input), or a watermark (to every input). */
    public sealed interface Step<IN> permits Element, Second, Mark {}

    public record Element<IN>(IN value) implements Step<IN> {}

    public record Second<IN>(Object value) implements Step<IN> {}

    public record Mark<IN>(long watermark) implements Step<IN> {}

    public static <IN> Step<IN> element(IN value) {
        return new Element<>(value);
    }

    /** A record of a two-input operator's second input. */
    public static <IN> Step<IN> second(Object value) {
        return new Second<>(value);
    }

    public static <IN> Step<IN> mark(long watermark) {
        return new Mark<>(watermark);
    }

    /**
     * Epoch {@code k} of a script whose every epoch end may ask for a snapshot: the last number of major
     * {@code k - 1} ({@link Epochs}), under which such an end reports its epoch; {@code major(0)} is
     * below the first epoch.
     */
    public static long major(long k) {
        return k * (Epochs.endOfMajor(0) + 1) - 1;
    }

    /** Feeds {@code steps} to a one-input {@code harness}. */
    public static <IN> void play(OneInputStreamOperatorTestHarness<IN, ?> harness, List<Step<IN>> steps)
            throws Exception {
        for (Step<IN> s : steps) {
            if (s instanceof Element<IN> e) {
                harness.processElement(new StreamRecord<>(e.value()));
            } else if (s instanceof Mark<IN> m) {
                harness.processWatermark(m.watermark());
            } else {
                throw new IllegalArgumentException("a one-input harness has no second input: " + s);
            }
        }
    }

    /** Feeds {@code steps} to a two-input {@code harness}; a watermark goes to both inputs. */
    @SuppressWarnings("unchecked")
    public static <IN, IN2> void playTwo(TwoInputStreamOperatorTestHarness<IN, IN2, ?> harness, List<Step<IN>> steps)
            throws Exception {
        for (Step<IN> s : steps) {
            if (s instanceof Element<IN> e) {
                harness.processElement1(new StreamRecord<>(e.value()));
            } else if (s instanceof Second<IN> e) {
                harness.processElement2(new StreamRecord<>((IN2) e.value()));
            } else {
                long w = ((Mark<IN>) s).watermark();
                harness.processWatermark1(new Watermark(w));
                harness.processWatermark2(new Watermark(w));
            }
        }
    }

    /** Everything a harness emitted: main output (records and watermarks) and one side output. */
    public record Outputs(List<Object> main, List<Object> side) {
        public Outputs append(Outputs later) {
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
        public Outputs normalized() {
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
        public List<Object> values() {
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
    public interface HarnessFactory<H extends AbstractStreamOperatorTestHarness<?>> {
        H open(OperatorSubtaskState restored) throws Exception;
    }

    /** Plays a script on a harness. */
    @FunctionalInterface
    public interface Player<H, IN> {
        void play(H harness, List<Step<IN>> steps) throws Exception;
    }

    public static Outputs outputs(AbstractStreamOperatorTestHarness<?> harness, OutputTag<?> side) {
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
    public static <IN, OUT> KeyedOneInputStreamOperatorTestHarness<Tuple, IN, OUT> keyed(
            Supplier<? extends OneInputStreamOperator<IN, OUT>> operators,
            KeySelector<IN, Tuple> keys,
            Backend backend,
            OperatorSubtaskState restored)
            throws Exception {
        KeyedOneInputStreamOperatorTestHarness<Tuple, IN, OUT> h = new KeyedOneInputStreamOperatorTestHarness<>(
                operators.get(), keys, TupleTypeInfo.INSTANCE, MAX_PARALLELISM, 1, 0);
        return open(h, backend, restored);
    }

    /**
     * A keyed two-input harness: input 1 keyed by {@code keys}, input 2 (broadcast in the job) under
     * one constant key, which the operators never use.
     */
    public static <IN, IN2, OUT> KeyedTwoInputStreamOperatorTestHarness<Tuple, IN, IN2, OUT> keyedTwo(
            Supplier<? extends TwoInputStreamOperator<IN, IN2, OUT>> operators,
            KeySelector<IN, Tuple> keys,
            Backend backend,
            OperatorSubtaskState restored)
            throws Exception {
        KeyedTwoInputStreamOperatorTestHarness<Tuple, IN, IN2, OUT> h = new KeyedTwoInputStreamOperatorTestHarness<>(
                operators.get(), keys, x -> Tuple.EMPTY, TupleTypeInfo.INSTANCE, MAX_PARALLELISM, 1, 0);
        return open(h, backend, restored);
    }

    public static <H extends AbstractStreamOperatorTestHarness<?>> H open(
            H h, Backend backend, OperatorSubtaskState restored) throws Exception {
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
    public static <H extends AbstractStreamOperatorTestHarness<?>, IN> Outputs[] straightAndRestored(
            HarnessFactory<H> harnesses,
            Player<H, IN> player,
            OutputTag<?> side,
            List<Step<IN>> before,
            List<Step<IN>> after)
            throws Exception {
        Outputs straight;
        try (H h = harnesses.open(null)) {
            player.play(h, before);
            player.play(h, after);
            straight = outputs(h, side);
        }
        Outputs first;
        OperatorSubtaskState snapshot;
        try (H h = harnesses.open(null)) {
            player.play(h, before);
            first = outputs(h, side);
            snapshot = h.snapshot(1L, 100L);
        }
        Outputs second;
        try (H h = harnesses.open(snapshot)) {
            player.play(h, after);
            second = outputs(h, side);
        }
        return new Outputs[] {straight, first.append(second)};
    }
}
