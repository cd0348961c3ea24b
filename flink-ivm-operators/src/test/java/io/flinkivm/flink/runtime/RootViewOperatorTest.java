package io.flinkivm.flink.runtime;

import static io.flinkivm.flink.runtime.Harnesses.element;
import static io.flinkivm.flink.runtime.Harnesses.mark;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.runtime.Harnesses.Backend;
import io.flinkivm.flink.runtime.Harnesses.Outputs;
import io.flinkivm.flink.runtime.Harnesses.Step;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.DeltaTypeInfo;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Tree 1's root view V[A,C], keyed by (A,C), in a harness: payload sums and the one border crossing. */
class RootViewOperatorTest {
    static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("ivm-dead-letters", DeadLetterTypeInfo.INSTANCE);
    private static final int TREE = 1;

    static <T> KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<T>, RootUpdate<T>> harness(Semiring<T> k,
            Backend backend, OperatorSubtaskState restored) throws Exception {
        DeltaTypeInfo<T> deltaType = DeltaTypeInfo.of(k);
        return Harnesses.keyed(() -> new RootViewOperator<>(k, TREE, "V[A,C]", deltaType.payloadType(), deltaType,
                DEAD_LETTERS, false), Harnesses.byDeltaKey(), backend, restored);
    }

    private static <T> Delta<T> delta(long a, long c, T payload) {
        return new Delta<>(Delta.rootTarget(TREE), 0, Tuple.of(a, c), payload);
    }

    private static <T> StreamRecord<RootUpdate<T>> update(long a, long c, T payload, boolean isNew, long timestamp) {
        return new StreamRecord<>(new RootUpdate<>(TREE, Tuple.of(a, c), payload, isNew), timestamp);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void sendsEachNewPayloadAcrossTheBorderMarkedNewOnlyTheFirstTime(Backend backend) throws Exception {
        try (var h = harness(NaturalSemiring.INSTANCE, backend, null)) {
            h.processWatermark(1);
            h.processElement(delta(1, 1, 2L), 2);
            h.processElement(delta(2, 1, 1L), 2);
            h.processWatermark(2);
            h.processElement(delta(1, 1, 5L), 4);
            h.processWatermark(4);
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(
                    new RootUpdate<>(TREE, Tuple.of(1L, 1L), 2L, true),
                    new RootUpdate<>(TREE, Tuple.of(2L, 1L), 1L, true),
                    new RootUpdate<>(TREE, Tuple.of(1L, 1L), 7L, false));
            assertThat(h.getOutput()).endsWith(update(1, 1, 7L, false, 4), new Watermark(4));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void payloadsAndHeldBackDeltasSurviveSnapshotAndRestore(Backend backend) throws Exception {
        Semiring<Double> k = MinPlusSemiring.INSTANCE;
        List<Step<Delta<Double>>> before = List.of(
                mark(1),
                element(delta(1, 1, 4.0), 2),
                mark(2),
                element(delta(1, 1, 3.0), 6), // held back across the snapshot
                element(delta(1, 2, 9.5), 4));
        List<Step<Delta<Double>>> after = List.of(
                element(delta(1, 1, 5.0), 8),
                mark(4),
                mark(8),
                element(delta(1, 2, 1.25), 10),
                mark(10));
        Outputs[] runs = Harnesses.straightAndRestored(restored -> harness(k, backend, restored), DEAD_LETTERS,
                before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        assertThat(runs[0].main()).containsExactly(
                new Watermark(1), update(1, 1, 4.0, true, 2), new Watermark(2),
                update(1, 2, 9.5, true, 4), new Watermark(4),
                update(1, 1, 3.0, false, 6), update(1, 1, 3.0, false, 8), new Watermark(8),
                update(1, 2, 1.25, false, 10), new Watermark(10));
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anOverflowingSumBecomesADeadLetter(Backend backend) throws Exception {
        try (var h = harness(NaturalSemiring.INSTANCE, backend, null)) {
            h.processWatermark(1);
            h.processElement(delta(1, 1, Long.MAX_VALUE), 2);
            h.processElement(delta(1, 1, 1L), 4);
            h.processWatermark(4);
            assertThat(h.extractOutputValues()).containsExactly(new RootUpdate<>(TREE, Tuple.of(1L, 1L), Long.MAX_VALUE, true));
            assertThat(h.getSideOutput(DEAD_LETTERS)).singleElement().satisfies(d -> {
                assertThat(d.getTimestamp()).isEqualTo(4);
                assertThat(d.getValue().origin()).isEqualTo("insert 2");
                assertThat(d.getValue().reason()).startsWith("update of V[A,C] failed").contains("overflow");
            });
        }
    }
}
