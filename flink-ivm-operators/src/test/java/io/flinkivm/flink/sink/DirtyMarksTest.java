package io.flinkivm.flink.sink;

import static io.flinkivm.flink.common.Harnesses.element;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link DirtyMarks} in a keyed operator on each backend (here, for the harness): the marks held in
 * memory, spilled to the state beyond their bound and at a snapshot, are each visited once by the next
 * trigger and gone after it, also across a restore.
 */
class DirtyMarksTest {
    /** Held in memory before a spill. */
    static final int MOST = 3;

    /** Marks (node 0) each tuple under its first value; a watermark is a trigger that emits "key tuple" lines. */
    static final class Marking extends AbstractStreamOperator<String> implements OneInputStreamOperator<Tuple, String> {
        private transient DirtyMarks marks;

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            marks = new DirtyMarks(context.getKeyedStateStore(), "marks", this, MOST);
        }

        @Override
        public void processElement(StreamRecord<Tuple> element) {
            marks.mark(0, element.getValue());
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            TreeSet<String> visited = new TreeSet<>();
            for (Object key : marks.keys(getKeyedStateBackend())) {
                setCurrentKey(key);
                marks.forEach((node, tuple) -> assertThat(visited.add(key + " " + tuple))
                        .as("visited once: %s", tuple)
                        .isTrue());
                marks.clear();
            }
            output.collect(new StreamRecord<>(String.join("; ", visited)));
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            marks.spill();
        }
    }

    /** Writes each tuple as a mark the way flink-ivm did before commit 526379f: an entry of a map state. */
    static final class MapMarking extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<Tuple, String> {
        private transient MapState<TaggedTuple, Boolean> marks;

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            marks = context.getKeyedStateStore()
                    .getMapState(new MapStateDescriptor<>(
                            "marks", TaggedTupleSerializer.INSTANCE, BooleanSerializer.INSTANCE));
        }

        @Override
        public void processElement(StreamRecord<Tuple> element) throws Exception {
            marks.put(new TaggedTuple(0, element.getValue()), Boolean.TRUE);
        }
    }

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Tuple, String> harness(
            Backend backend, OperatorSubtaskState restored) throws Exception {
        return Harnesses.keyed(Marking::new, t -> t.project(new int[] {0}), backend, restored);
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

    @ParameterizedTest
    @EnumSource(Backend.class)
    void marksBeyondTheBoundAreSpilledAndEachVisitedOnce(Backend backend) throws Exception {
        try (var h = harness(backend, null)) {
            List<Tuple> first =
                    List.of(Tuple.of(1L, 1L), Tuple.of(2L, 1L), Tuple.of(1L, 2L), Tuple.of(1L, 3L), Tuple.of(2L, 2L));
            Harnesses.play(h, first.stream().map(Harnesses::<Tuple>element).toList());
            h.processWatermark(1);
            h.processWatermark(2);
            Harnesses.play(h, List.of(element(Tuple.of(2L, 3L)), element(Tuple.of(1L, 1L))));
            h.processWatermark(3);

            assertThat(triggers(h))
                    .containsExactly(
                            "(1) (1, 1); (1) (1, 2); (1) (1, 3); (2) (2, 1); (2) (2, 2)", "", "(1) (1, 1); (2) (2, 3)");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aMarkSpilledTwiceOrSpilledAndHeldAgainIsVisitedOnce(Backend backend) throws Exception {
        try (var h = harness(backend, null)) {
            // The fourth mark spills all four; (1, 1) is marked again and spilled with the next four,
            // then marked once more and held.
            Harnesses.play(
                    h,
                    List.of(
                            element(Tuple.of(1L, 1L)),
                            element(Tuple.of(1L, 2L)),
                            element(Tuple.of(2L, 1L)),
                            element(Tuple.of(2L, 2L)),
                            element(Tuple.of(1L, 1L)),
                            element(Tuple.of(1L, 3L)),
                            element(Tuple.of(2L, 1L)),
                            element(Tuple.of(2L, 3L)),
                            element(Tuple.of(1L, 1L))));
            h.processWatermark(1);
            h.processWatermark(2);

            assertThat(triggers(h))
                    .containsExactly("(1) (1, 1); (1) (1, 2); (1) (1, 3); (2) (2, 1); (2) (2, 2); (2) (2, 3)", "");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void marksStoredAsAMapAreRefused(Backend backend) throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = Harnesses.keyed(MapMarking::new, t -> t.project(new int[] {0}), backend, null)) {
            Harnesses.play(h, List.of(element(Tuple.of(1L, 1L))));
            snapshot = h.snapshot(1L, 100L);
        }
        assertThatThrownBy(() -> harness(backend, snapshot).close())
                .hasStackTraceContaining("marks")
                .hasStackTraceContaining("MAP");
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void heldMarksSurviveASnapshotAndRestore(Backend backend) throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(backend, null)) {
            Harnesses.play(h, List.of(element(Tuple.of(1L, 1L)), element(Tuple.of(2L, 1L))));
            snapshot = h.snapshot(1L, 100L);
        }
        try (var h = harness(backend, snapshot)) {
            Harnesses.play(h, List.of(element(Tuple.of(1L, 2L))));
            h.processWatermark(1);
            h.processWatermark(2);

            assertThat(triggers(h)).containsExactly("(1) (1, 1); (1) (1, 2); (2) (2, 1)", "");
        }
    }
}
