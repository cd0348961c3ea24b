package io.flinkivm.core.engine.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.TestLayout;
import io.flinkivm.core.engine.join.Walk;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/**
 * The cursor over a root with two leaves keyed by their whole tuple: one result per live root tuple,
 * its tuple and payload read in place, and the leaves looked up once per root tuple over all cursors
 * of a store that remembers them.
 */
class FlatCursorTest {

    @Test
    void nothingIsCurrentBeforeTheFirstResultNorAfterTheLast() {
        TestLayout layout = TestLayout.star(2, -1);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        FlatCursor<Long> cursor = cursor(layout, store, NaturalSemiring.INSTANCE);
        assertThatThrownBy(cursor::tuple)
                .isInstanceOf(NoSuchElementException.class)
                .hasMessage("the cursor is not at a result tuple");
        assertThatThrownBy(cursor::payload).isInstanceOf(NoSuchElementException.class);
        assertThat(cursor.next()).isFalse();
        assertThatThrownBy(cursor::tuple).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void oneResultPerLiveRootTupleWithTheProductOfItsPayloads() {
        TestLayout layout = TestLayout.star(2, -1);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        join.insert(store, 0, Tuple.of(1L, 5L), new JoinRecord<>(2L));
        join.insert(store, 0, Tuple.of(2L, 5L), new JoinRecord<>(3L));
        join.insert(store, 0, Tuple.of(3L, 6L), new JoinRecord<>(1L));
        join.insert(store, 0, Tuple.of(4L, 9L), new JoinRecord<>(1L));
        join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(10L));
        join.insert(store, 1, Tuple.of(6L), new JoinRecord<>(20L));
        JoinRecord<Long> unboxed = new JoinRecord<>();
        unboxed.setUnboxedPayload(100L);
        join.insert(store, 2, Tuple.of(5L), unboxed);
        join.insert(store, 2, Tuple.of(6L), new JoinRecord<>(7L));
        assertThat(results(cursor(layout, store, NaturalSemiring.INSTANCE)))
                .as("(4, 9) waits for its leaves")
                .containsOnly(
                        Map.entry(Tuple.of(1L, 5L, 5L, 5L), 2000L),
                        Map.entry(Tuple.of(2L, 5L, 5L, 5L), 3000L),
                        Map.entry(Tuple.of(3L, 6L, 6L, 6L), 140L));
    }

    @Test
    void aSemiringWithoutAnUnboxedProductMultipliesTheBoxedPayloads() {
        TestLayout layout = TestLayout.star(2, -1);
        MemoryJoinRecordStore<Double> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Double> join = new LiveJoin<>(layout, false);
        join.insert(store, 0, Tuple.of(1L, 5L), new JoinRecord<>(2.0));
        join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(10.0));
        join.insert(store, 2, Tuple.of(5L), new JoinRecord<>(100.5));
        assertThat(results(cursor(layout, store, MinPlusSemiring.INSTANCE)))
                .containsOnly(Map.entry(Tuple.of(1L, 5L, 5L, 5L), 112.5));
    }

    @Test
    void theHeadNodesTupleIsTheResultTupleAsItIs() {
        for (int headNode : new int[] {0, 1}) {
            TestLayout layout = TestLayout.star(2, headNode);
            MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
            LiveJoin<Long> join = new LiveJoin<>(layout, false);
            join.insert(store, 0, Tuple.of(1L, 5L), new JoinRecord<>(1L));
            join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(1L));
            join.insert(store, 2, Tuple.of(5L), new JoinRecord<>(1L));
            Tuple expected = headNode == 0 ? Tuple.of(1L, 5L) : Tuple.of(5L);
            assertThat(results(cursor(layout, store, NaturalSemiring.INSTANCE))).containsOnly(Map.entry(expected, 1L));
        }
    }

    @Test
    void aCursorLooksUpTheLeavesOfOnlyTheRootTuplesLiveSinceTheLastOne() {
        TestLayout layout = TestLayout.star(2, -1);
        StateCounts counts = new StateCounts();
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0, MemoryMaps.countingInto(counts));
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(1L));
        join.insert(store, 2, Tuple.of(5L), new JoinRecord<>(1L));
        join.insert(store, 0, Tuple.of(1L, 5L), new JoinRecord<>(1L));
        join.insert(store, 0, Tuple.of(2L, 5L), new JoinRecord<>(1L));

        long before = reads(counts);
        assertThat(results(cursor(layout, store, NaturalSemiring.INSTANCE))).hasSize(2);
        assertThat(reads(counts) - before).as("two leaves per root tuple").isEqualTo(4);

        before = reads(counts);
        assertThat(results(cursor(layout, store, NaturalSemiring.INSTANCE))).hasSize(2);
        assertThat(reads(counts) - before).as("all remembered").isZero();

        join.insert(store, 0, Tuple.of(3L, 5L), new JoinRecord<>(1L));
        before = reads(counts);
        assertThat(results(cursor(layout, store, NaturalSemiring.INSTANCE))).hasSize(3);
        assertThat(reads(counts) - before).as("the new root tuple's leaves").isEqualTo(2);
    }

    private static <T> FlatCursor<T> cursor(TestLayout layout, JoinRecordStore<T> store, Semiring<T> semiring) {
        Walk walk = Walk.full(layout);
        assertThat(walk.isFlat()).isTrue();
        return new FlatCursor<>(layout, walk, store, semiring);
    }

    private static <T> Map<Tuple, T> results(FlatCursor<T> cursor) {
        Map<Tuple, T> out = new HashMap<>();
        while (cursor.next()) {
            assertThat(out.put(cursor.tuple(), cursor.payload()))
                    .as("each result once")
                    .isNull();
        }
        return out;
    }

    private static long reads(StateCounts counts) {
        return counts.reads(StateCounts.Role.ROOT_VIEW);
    }
}
