package io.flinkivm.core.engine.join;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The walk plans over hand-made layouts: their steps, sources, slots and head step. */
class WalkTest {

    @Test
    void aFullWalkGoesDownTheLayoutsOrderFromTheRootsLiveTuples() {
        Walk w = Walk.full(TestLayout.chain(3));
        assertThat(w.node).containsExactly(0, 1, 2);
        assertThat(w.how).containsExactly(Walk.ROOTS, Walk.DOWN, Walk.DOWN);
        assertThat(w.source).containsExactly(-1, 0, 1);
        assertThat(w.orderPosition).containsExactly(0, 1, 2);
        assertThat(w.slot).containsOnly(-1);
        assertThat(w.slots).isZero();
        assertThat(w.headStep).isEqualTo(-1);
        assertThat(w.isFlat()).isFalse();
    }

    @Test
    void aStepHasASlotWhenItsOneCandidateFollowsFromTheRootTuple() {
        // 0 has children 1 and 3; 1 has 2, 3 has 4. Nodes 1, 2 and 4 are keyed by their whole tuple,
        // but 4 hangs below 3, whose candidates are a list.
        TestLayout layout =
                TestLayout.of(new int[] {-1, 0, 1, 0, 3}, new boolean[] {false, true, true, false, true}, -1);
        Walk w = Walk.full(layout);
        assertThat(w.node).containsExactly(0, 1, 2, 3, 4);
        assertThat(w.source).containsExactly(-1, 0, 1, 0, 3);
        assertThat(w.slot).containsExactly(-1, 0, 1, -1, -1);
        assertThat(w.slots).isEqualTo(2);
        assertThat(w.isFlat()).isFalse();
    }

    @Test
    void aFullWalkOverOnlyWholeKeyChildrenIsFlat() {
        Walk w = Walk.full(TestLayout.star(2, 0));
        assertThat(w.slot).containsExactly(-1, 0, 1);
        assertThat(w.slots).isEqualTo(2);
        assertThat(w.isFlat()).isTrue();
        assertThat(w.headStep).as("the root's tuple is the head").isZero();
    }

    @Test
    void anAnchoredWalkGoesBreadthFirstChildrenDownThenTheParentUp() {
        Walk w = Walk.anchored(TestLayout.chain(4), 2);
        assertThat(w.node).containsExactly(2, 3, 1, 0);
        assertThat(w.how).containsExactly(Walk.FIXED, Walk.DOWN, Walk.UP, Walk.UP);
        assertThat(w.source).containsExactly(-1, 0, 0, 2);
        assertThat(w.orderPosition).containsExactly(2, 3, 1, 0);
        assertThat(w.slots).isZero();
        assertThat(w.isFlat()).isFalse();
    }

    @Test
    void anAnchoredWalkFindsTheHeadNodesStep() {
        Walk w = Walk.anchored(TestLayout.star(2, 0), 2);
        assertThat(w.node).containsExactly(2, 0, 1);
        assertThat(w.how).containsExactly(Walk.FIXED, Walk.UP, Walk.DOWN);
        assertThat(w.headStep).isEqualTo(1);
        assertThat(w.slot).as("slots are for full walks").containsOnly(-1);
    }
}
