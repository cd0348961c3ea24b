package io.flinkivm.core.engine.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Boolean join on a hand-made chain layout: waiting tuples wake in cascades across levels, far
 * wider than the work stack's first size, and the full join enumerates every combination once.
 */
class BooleanJoinTest {

    /**
     * A chain of {@code depth} nodes, node 0 the root: each tuple is (x, y); a child's x joins its
     * parent's y; the root's x is free. The head is every node's tuple, concatenated.
     */
    private record Chain(int depth) implements JoinLayout {
        @Override
        public int nodeCount() {
            return depth;
        }

        @Override
        public int[] joinChildren(int node) {
            return node + 1 < depth ? new int[] {node + 1} : new int[0];
        }

        @Override
        public int childIndexInParent(int node) {
            return node == 0 ? -1 : 0;
        }

        @Override
        public int joinParent(int node) {
            return node - 1;
        }

        @Override
        public Tuple keyToParent(int node, Tuple tuple) {
            return node == 0 ? Tuple.EMPTY : Tuple.of(tuple.get(0));
        }

        @Override
        public Tuple keyOfChild(int child, Tuple parentTuple) {
            return Tuple.of(parentTuple.get(1));
        }

        @Override
        public int[] order() {
            int[] order = new int[depth];
            for (int i = 0; i < depth; i++) {
                order[i] = i;
            }
            return order;
        }

        @Override
        public int[] orderParentPosition() {
            int[] parents = new int[depth];
            for (int i = 0; i < depth; i++) {
                parents[i] = i - 1;
            }
            return parents;
        }

        @Override
        public Tuple assembleHead(Tuple[] byOrderPosition) {
            Object[] out = new Object[2 * depth];
            for (int i = 0; i < depth; i++) {
                out[2 * i] = byOrderPosition[i].get(0);
                out[2 * i + 1] = byOrderPosition[i].get(1);
            }
            return Tuple.wrap(out);
        }
    }

    @Test
    void aLeafWakesACascadeWiderThanTheWorkStack() {
        Chain chain = new Chain(3);
        BooleanJoin join = new BooleanJoin(chain);
        MemoryBooleanJoinStore store = new MemoryBooleanJoinStore(chain);
        int roots = 100;
        int middles = 40;
        for (long r = 0; r < roots; r++) {
            assertThat(join.insert(store, 0, Tuple.of(r, 0L))).as("a root waits for its middle").isZero();
        }
        for (long m = 0; m < middles; m++) {
            assertThat(join.insert(store, 1, Tuple.of(0L, m))).as("a middle waits for its leaf").isZero();
        }
        assertThat(join.enumerate(store).hasNext()).isFalse();
        // The first leaf makes its middle live, the first at key (0): every root wakes.
        assertThat(join.insert(store, 2, Tuple.of(0L, 7L))).isEqualTo(1 + 1 + roots);
        assertThat(count(join, store)).isEqualTo(roots);
        for (long m = 1; m < middles; m++) {
            assertThat(join.insert(store, 2, Tuple.of(m, 7L))).as("the roots are live already").isEqualTo(2);
        }
        assertThat(join.insert(store, 2, Tuple.of(3L, 8L))).as("a second leaf at a live key").isEqualTo(1);
        assertThat(count(join, store)).isEqualTo(roots * (middles + 1));
        // The same object goes on working after the stack grew: a second, independent cascade.
        for (long r = 0; r < roots; r++) {
            join.insert(store, 0, Tuple.of(r, 1L));
        }
        join.insert(store, 1, Tuple.of(1L, 99L));
        assertThat(join.insert(store, 2, Tuple.of(99L, 0L))).isEqualTo(1 + 1 + roots);
        assertThat(count(join, store)).isEqualTo(roots * (middles + 1) + roots);
    }

    private static int count(BooleanJoin join, MemoryBooleanJoinStore store) {
        Set<Tuple> seen = new HashSet<>();
        int n = 0;
        for (Iterator<Tuple[]> it = join.enumerate(store); it.hasNext(); ) {
            Tuple[] row = it.next();
            assertThat(row[1].get(0)).isEqualTo(row[0].get(1));
            assertThat(row[2].get(0)).isEqualTo(row[1].get(1));
            assertThat(seen.add(new Chain(3).assembleHead(row))).as("each result once").isTrue();
            n++;
        }
        return n;
    }
}
