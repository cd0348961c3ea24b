package io.flinkivm.core.engine.border;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.TestLayout;
import io.flinkivm.core.engine.join.Walk;
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
        Joined chain = new Joined(TestLayout.chain(2), false);
        WalkIterator<Long> empty = chain.full();
        assertThat(empty.hasNext()).isFalse();
        assertThatThrownBy(empty::next).isInstanceOf(NoSuchElementException.class);

        WalkIterator<Long> it = chain.with(0, 1L, 5L).with(1, 5L, 6L).full();
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
        Joined chain = new Joined(TestLayout.chain(2), false)
                .with(0, 1L, 5L)
                .with(0, 2L, 5L)
                .with(0, 3L, 8L)
                .with(1, 5L, 6L)
                .with(1, 5L, 7L);
        List<Tuple> heads = new ArrayList<>();
        WalkIterator<Long> it = chain.full();
        while (it.hasNext()) {
            it.next();
            assertThat(it.records[0]).isSameAs(chain.store.get(0, it.tuples[0]));
            assertThat(it.records[1]).isSameAs(chain.store.get(1, it.tuples[1]));
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
        Joined chain = new Joined(TestLayout.chain(3), true)
                .with(0, 1L, 5L)
                .with(0, 2L, 5L)
                .with(1, 5L, 6L)
                .with(2, 6L, 0L)
                .with(2, 6L, 1L);
        chain.store.get(0, Tuple.of(1L, 5L)).dirty = JoinRecord.NEW;
        chain.store.get(2, Tuple.of(6L, 1L)).dirty = JoinRecord.NEW;
        assertThat(heads(chain.anchored(1, Tuple.of(5L, 6L))))
                .as("the dirty root is below the anchor, the dirty leaf above it")
                .containsExactlyInAnyOrder(Tuple.of(2L, 5L, 5L, 6L, 6L, 0L), Tuple.of(2L, 5L, 5L, 6L, 6L, 1L));
    }

    @Test
    void anAnchoredWalkSkipsADirtyWholeKeyChildBelowTheAnchor() {
        Joined star = new Joined(TestLayout.star(2, -1), true)
                .with(0, 1L, 5L)
                .with(1, 5L)
                .with(2, 5L);
        assertThat(heads(star.anchored(2, Tuple.of(5L)))).containsExactly(Tuple.of(1L, 5L, 5L, 5L));
        star.store.get(1, Tuple.of(5L)).dirty = JoinRecord.CHANGED;
        assertThat(heads(star.anchored(2, Tuple.of(5L)))).isEmpty();
    }

    @Test
    void theHeadIsTheHeadNodesTupleAsItIs() {
        Joined star = new Joined(TestLayout.star(1, 0), false).with(0, 1L, 5L).with(1, 5L);
        assertThat(heads(star.full())).as("not assembled").containsExactly(Tuple.of(1L, 5L));
    }

    @Test
    void aJoinListHoldingATupleWithoutALiveRecordIsAnInternalError() {
        Joined chain = new Joined(TestLayout.chain(2), false).with(0, 1L, 5L).with(1, 5L, 6L);
        chain.store.setLiveHead(1, Tuple.of(5L), Tuple.of(5L, 99L));
        assertThatThrownBy(chain.full()::hasNext)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("join list of node 1 holds (5, 99) without a live record");
    }

    private static List<Tuple> heads(WalkIterator<Long> it) {
        List<Tuple> heads = new ArrayList<>();
        while (it.hasNext()) {
            it.next();
            heads.add(it.head());
        }
        return heads;
    }

    /** A layout's join in a store, filled by {@link #with}, and walks over it. */
    private static final class Joined {
        final TestLayout layout;
        final MemoryJoinRecordStore<Long> store;
        final LiveJoin<Long> join;
        final boolean[] wholeKey;

        Joined(TestLayout layout, boolean changelog) {
            this.layout = layout;
            store = new MemoryJoinRecordStore<>(layout, 0);
            join = new LiveJoin<>(layout, changelog);
            wholeKey = new boolean[layout.nodeCount()];
            for (int n = 0; n < wholeKey.length; n++) {
                wholeKey[n] = layout.keyIsTuple(n);
            }
        }

        /** Inserts a tuple of {@code values} at {@code node}, with payload 1. */
        Joined with(int node, Object... values) {
            join.insert(store, node, Tuple.of(values), new JoinRecord<>(1L));
            return this;
        }

        WalkIterator<Long> full() {
            return new WalkIterator<>(layout, wholeKey, store, Walk.full(layout), null, null, -1);
        }

        WalkIterator<Long> anchored(int node, Tuple tuple) {
            Walk walk = Walk.anchored(layout, node);
            return new WalkIterator<>(layout, wholeKey, store, walk, tuple, store.get(node, tuple), node);
        }
    }
}
