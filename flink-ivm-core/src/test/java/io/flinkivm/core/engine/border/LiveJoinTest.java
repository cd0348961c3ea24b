package io.flinkivm.core.engine.border;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.TestLayout;
import io.flinkivm.core.query.Tuple;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The join above the border on a hand-made chain layout: waiting tuples wake in cascades across
 * levels, far wider than the work stack's first size, the full join enumerates every combination
 * once, and the changelog anchored at a changed tuple walks up and down the chain.
 */
class LiveJoinTest {

    @Test
    void aLeafWakesACascadeWiderThanTheWorkStack() {
        TestLayout chain = TestLayout.chain(3);
        LiveJoin<Long> join = new LiveJoin<>(chain, false);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(chain, 0);
        int roots = 100;
        int middles = 40;
        for (long r = 0; r < roots; r++) {
            assertThat(insert(join, store, 0, r, 0L))
                    .as("a root waits for its middle")
                    .isZero();
        }
        for (long m = 0; m < middles; m++) {
            assertThat(insert(join, store, 1, 0L, m))
                    .as("a middle waits for its leaf")
                    .isZero();
        }
        assertThat(join.enumerate(store).hasNext()).isFalse();
        // The first leaf makes its middle live, the first at key (0): every root wakes.
        assertThat(insert(join, store, 2, 0L, 7L)).isEqualTo(1 + 1 + roots);
        assertThat(count(join, store)).isEqualTo(roots);
        for (long m = 1; m < middles; m++) {
            assertThat(insert(join, store, 2, m, 7L))
                    .as("the roots are live already")
                    .isEqualTo(2);
        }
        assertThat(insert(join, store, 2, 3L, 8L))
                .as("a second leaf at a live key")
                .isEqualTo(1);
        assertThat(count(join, store)).isEqualTo(roots * (middles + 1));
        // The same object goes on working after the stack grew: a second, independent cascade.
        for (long r = 0; r < roots; r++) {
            insert(join, store, 0, r, 1L);
        }
        insert(join, store, 1, 1L, 99L);
        assertThat(insert(join, store, 2, 99L, 0L)).isEqualTo(1 + 1 + roots);
        assertThat(count(join, store)).isEqualTo(roots * (middles + 1) + roots);
    }

    @Test
    void theChangesOfATupleAreTheResultsThatContainItUpAndDownTheChain() {
        TestLayout chain = TestLayout.chain(4);
        LiveJoin<Long> join = new LiveJoin<>(chain, true);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(chain, 0);
        // Two roots over middle key 5, two middles (5, 6) and (5, 9), grandchildren under 6 only.
        insert(join, store, 0, 1L, 5L);
        insert(join, store, 0, 2L, 5L);
        insert(join, store, 1, 5L, 6L);
        insert(join, store, 1, 5L, 9L);
        insert(join, store, 2, 6L, 3L);
        insert(join, store, 2, 9L, 4L);
        assertThat(count(join, store)).isZero();
        insert(join, store, 3, 3L, 0L);
        assertThat(count(join, store)).isEqualTo(2);
        // Anchored at the grandchild (6, 3): up to its middle, up to both roots, down to the leaf.
        JoinRecord<Long> grandchild = store.get(2, Tuple.of(6L, 3L));
        assertThat(grandchild.inJoin).isTrue();
        grandchild.dirty = JoinRecord.NEW;
        Set<Tuple> around = new HashSet<>();
        join.changes(store, io.flinkivm.core.semiring.NaturalSemiring.INSTANCE, 2, Tuple.of(6L, 3L), grandchild, null)
                .forEachRemaining(c -> assertThat(around.add(c.tuple())).isTrue());
        assertThat(around)
                .containsExactlyInAnyOrder(
                        Tuple.of(1L, 5L, 5L, 6L, 6L, 3L, 3L, 0L), Tuple.of(2L, 5L, 5L, 6L, 6L, 3L, 3L, 0L));
        // The other middle's subtree is not in the join: no results through it.
        JoinRecord<Long> other = store.get(2, Tuple.of(9L, 4L));
        assertThat(other.isLive()).isFalse();
        assertThat(other.inJoin).isFalse();
    }

    private static int insert(LiveJoin<Long> join, MemoryJoinRecordStore<Long> store, int node, long x, long y) {
        return join.insert(store, node, Tuple.of(x, y), new JoinRecord<>(1L));
    }

    private static int count(LiveJoin<Long> join, MemoryJoinRecordStore<Long> store) {
        Set<Tuple> seen = new HashSet<>();
        int n = 0;
        for (Iterator<Tuple> it = join.enumerate(store); it.hasNext(); ) {
            Tuple head = it.next();
            for (int i = 1; i < head.arity() / 2; i++) {
                assertThat(head.get(2 * i)).isEqualTo(head.get(2 * i - 1));
            }
            assertThat(seen.add(head)).as("each result once").isTrue();
            n++;
        }
        return n;
    }
}
