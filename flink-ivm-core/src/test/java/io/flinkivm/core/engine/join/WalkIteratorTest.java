package io.flinkivm.core.engine.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/**
 * Backtracking over walks of hand-made layouts: each combination once, the steps holding the
 * current one, and an anchored walk skipping the dirty tuples of nodes numbered below its anchor.
 */
class WalkIteratorTest {

    @Test
    void hasNextStaysAtTheResultAndNextPastTheEndThrows() {
        TestLayout layout = TestLayout.chain(2);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        WalkIterator<Long> empty = full(layout, store);
        assertThat(empty.hasNext()).isFalse();
        assertThatThrownBy(empty::next).isInstanceOf(NoSuchElementException.class);

        insert(join, store, 0, 1L, 5L);
        insert(join, store, 1, 5L, 6L);
        WalkIterator<Long> it = full(layout, store);
        assertThat(it.hasNext()).isTrue();
        assertThat(it.hasNext()).as("a second call does not move").isTrue();
        it.next();
        assertThat(it.head()).isEqualTo(Tuple.of(1L, 5L, 5L, 6L));
        assertThat(it.hasNext()).isFalse();
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void eachCombinationOnceWithTheStepsHoldingTheCurrentOne() {
        TestLayout layout = TestLayout.chain(2);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        insert(join, store, 0, 1L, 5L);
        insert(join, store, 0, 2L, 5L);
        insert(join, store, 0, 3L, 8L);
        insert(join, store, 1, 5L, 6L);
        insert(join, store, 1, 5L, 7L);
        List<Tuple> heads = new ArrayList<>();
        WalkIterator<Long> it = full(layout, store);
        while (it.hasNext()) {
            it.next();
            assertThat(it.records[0]).isSameAs(store.get(0, it.tuples[0]));
            assertThat(it.records[1]).isSameAs(store.get(1, it.tuples[1]));
            heads.add(it.head());
        }
        assertThat(heads)
                .containsExactlyInAnyOrder(
                        Tuple.of(1L, 5L, 5L, 6L),
                        Tuple.of(1L, 5L, 5L, 7L),
                        Tuple.of(2L, 5L, 5L, 6L),
                        Tuple.of(2L, 5L, 5L, 7L));
    }

    @Test
    void anAnchoredWalkSkipsTheDirtyTuplesOfNodesNumberedBelowTheAnchor() {
        TestLayout layout = TestLayout.chain(3);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, true);
        insert(join, store, 0, 1L, 5L);
        insert(join, store, 0, 2L, 5L);
        insert(join, store, 1, 5L, 6L);
        insert(join, store, 2, 6L, 0L);
        insert(join, store, 2, 6L, 1L);
        store.get(0, Tuple.of(1L, 5L)).dirty = JoinRecord.NEW;
        store.get(2, Tuple.of(6L, 1L)).dirty = JoinRecord.NEW;
        Tuple middle = Tuple.of(5L, 6L);
        WalkIterator<Long> it = anchored(layout, store, 1, middle);
        assertThat(heads(it))
                .as("the dirty root is below the anchor, the dirty leaf above it")
                .containsExactlyInAnyOrder(Tuple.of(2L, 5L, 5L, 6L, 6L, 0L), Tuple.of(2L, 5L, 5L, 6L, 6L, 1L));
    }

    @Test
    void anAnchoredWalkSkipsADirtyWholeKeyChildBelowTheAnchor() {
        TestLayout layout = TestLayout.star(2, -1);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, true);
        insert(join, store, 0, 1L, 5L);
        join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(1L));
        join.insert(store, 2, Tuple.of(5L), new JoinRecord<>(1L));
        assertThat(heads(anchored(layout, store, 2, Tuple.of(5L)))).containsExactly(Tuple.of(1L, 5L, 5L, 5L));
        store.get(1, Tuple.of(5L)).dirty = JoinRecord.CHANGED;
        assertThat(heads(anchored(layout, store, 2, Tuple.of(5L)))).isEmpty();
    }

    @Test
    void theHeadIsTheHeadNodesTupleAsItIs() {
        TestLayout layout = TestLayout.star(1, 0);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        insert(join, store, 0, 1L, 5L);
        join.insert(store, 1, Tuple.of(5L), new JoinRecord<>(1L));
        assertThat(heads(full(layout, store))).as("not assembled").containsExactly(Tuple.of(1L, 5L));
    }

    @Test
    void aJoinListHoldingATupleWithoutALiveRecordIsAnInternalError() {
        TestLayout layout = TestLayout.chain(2);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(layout, 0);
        LiveJoin<Long> join = new LiveJoin<>(layout, false);
        insert(join, store, 0, 1L, 5L);
        insert(join, store, 1, 5L, 6L);
        store.setLiveHead(1, Tuple.of(5L), Tuple.of(5L, 99L));
        assertThatThrownBy(full(layout, store)::hasNext)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("join list of node 1 holds (5, 99) without a live record");
    }

    private static WalkIterator<Long> full(TestLayout layout, JoinRecordStore<Long> store) {
        return new WalkIterator<>(layout, wholeKey(layout), store, Walk.full(layout), null, null, -1);
    }

    private static WalkIterator<Long> anchored(TestLayout layout, JoinRecordStore<Long> store, int node, Tuple tuple) {
        Walk walk = Walk.anchored(layout, node);
        return new WalkIterator<>(layout, wholeKey(layout), store, walk, tuple, store.get(node, tuple), node);
    }

    private static boolean[] wholeKey(TestLayout layout) {
        boolean[] whole = new boolean[layout.nodeCount()];
        for (int n = 0; n < whole.length; n++) {
            whole[n] = layout.keyIsTuple(n);
        }
        return whole;
    }

    private static List<Tuple> heads(WalkIterator<Long> it) {
        List<Tuple> heads = new ArrayList<>();
        while (it.hasNext()) {
            it.next();
            heads.add(it.head());
        }
        return heads;
    }

    private static void insert(LiveJoin<Long> join, JoinRecordStore<Long> store, int node, long x, long y) {
        join.insert(store, node, Tuple.of(x, y), new JoinRecord<>(1L));
    }
}
