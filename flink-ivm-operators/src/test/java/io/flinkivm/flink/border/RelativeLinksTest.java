package io.flinkivm.flink.border;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.types.JoinRecordSerializer;
import io.flinkivm.flink.types.VarLongSerializer;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class RelativeLinksTest {
    /** TPC-H's revenue query: (order, customer) records wait for their customer in lists keyed by it. */
    private static final ViewTreePlan PLAN = (ViewTreePlan) Planner.plan(
            QueryParser.parse("Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)"),
            NaturalSemiring.INSTANCE);

    private static final CompiledPlan LAYOUT = new CompiledPlan(PLAN);

    private static int arity(int node) {
        return PLAN.viewTrees().get(node).schema().size();
    }

    /** A tuple of {@code node} whose values are all different from {@code base}'s. */
    private static Tuple tuple(int node, long base) {
        Object[] v = new Object[arity(node)];
        for (int i = 0; i < v.length; i++) {
            v[i] = base + i;
        }
        return Tuple.wrap(v);
    }

    /** {@code other}, with {@code own}'s values at the positions {@code key}: a tuple of the same list. */
    private static Tuple sameKey(Tuple own, Tuple other, int[] key) {
        Object[] v = new Object[own.arity()];
        for (int i = 0; i < v.length; i++) {
            v[i] = other.get(i);
        }
        for (int p : key) {
            v[p] = own.get(p);
        }
        return Tuple.wrap(v);
    }

    @Test
    void linksAreStoredWithoutTheirListsKeyAndReadBackWhole() throws IOException {
        RelativeLinks links = new RelativeLinks(LAYOUT);
        JoinRecordSerializer<Long> serializer = new JoinRecordSerializer<>(VarLongSerializer.INSTANCE);
        int checked = 0;
        for (int node = 0; node < LAYOUT.nodeCount(); node++) {
            int[] kids = LAYOUT.joinChildren(node);
            Tuple own = tuple(node, 1_000);
            JoinRecord<Long> r = new JoinRecord<>(7L);
            r.shape(kids.length, true);
            if (LAYOUT.joinParent(node) >= 0) {
                r.liveNext = sameKey(own, tuple(node, 2_000), LAYOUT.keyToParentPositions(node));
            }
            for (int c = 0; c < kids.length; c++) {
                int[] key = LAYOUT.keyOfChildPositions(kids[c]);
                r.waitNext[c] = sameKey(own, tuple(node, 3_000), key);
                r.upNext[c] = sameKey(own, tuple(node, 4_000), key);
            }
            if (!r.hasLinks()) {
                continue;
            }
            Tuple live = r.liveNext;
            Tuple[] wait = r.waitNext.clone();
            Tuple[] up = r.upNext.clone();

            JoinRecord<Long> stored = links.stored(node, r);
            JoinRecord<Long> back = links.whole(node, own, stored);

            assertThat(stored).isNotSameAs(r);
            assertThat(r.liveNext).isSameAs(live);
            assertThat(r.waitNext).containsExactly(wait);
            assertThat(r.upNext).containsExactly(up);
            for (int c = 0; c < kids.length; c++) {
                assertThat(stored.waitNext[c].arity())
                        .isEqualTo(arity(node) - LAYOUT.keyOfChildPositions(kids[c]).length);
            }
            assertThat(back.liveNext).isEqualTo(live);
            assertThat(back.waitNext).containsExactly(wait);
            assertThat(back.upNext).containsExactly(up);
            assertThat(back.payload()).isEqualTo(7L);
            assertThat(size(serializer, stored)).isLessThan(size(serializer, r));
            checked++;
        }
        assertThat(checked).as("nodes with join children or a parent").isPositive();
    }

    @Test
    void aRecordWithoutLinksOrOutsideTheJoinTreeIsStoredAsItIs() {
        RelativeLinks links = new RelativeLinks(LAYOUT);
        JoinRecord<Long> plain = new JoinRecord<>(3L);
        plain.shape(2, false);
        assertThat(links.stored(0, plain)).isSameAs(plain);
        assertThat(links.whole(0, tuple(0, 1), plain)).isSameAs(plain);

        JoinRecord<Long> extra = new JoinRecord<>(3L);
        extra.liveNext = Tuple.of(1L, 2L);
        int outside = LAYOUT.nodeCount();
        assertThat(links.stored(outside, extra)).isSameAs(extra);
        assertThat(links.whole(outside, Tuple.of(5L, 6L), extra)).isSameAs(extra);
    }

    @Test
    void aLinkThatDoesNotCompleteTheTupleIsAnError() {
        int node = -1;
        for (int n = 0; n < LAYOUT.nodeCount() && node < 0; n++) {
            if (LAYOUT.joinChildren(n).length > 0 && LAYOUT.keyOfChildPositions(LAYOUT.joinChildren(n)[0]).length > 0) {
                node = n;
            }
        }
        JoinRecord<Long> stored = new JoinRecord<>(1L);
        stored.shape(LAYOUT.joinChildren(node).length, false);
        stored.waitNext[0] = tuple(node, 9);
        int n = node;
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new RelativeLinks(LAYOUT).whole(n, tuple(n, 1), stored))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not complete a tuple");
        assertThat(Arrays.asList(stored.waitNext)).contains(tuple(node, 9));
    }

    @Test
    void aListsFirstTupleIsStoredWithoutTheListsKey() {
        Tuple head = Tuple.of(10L, 20L, 30L);
        int[] key = {2, 0};
        Tuple listKey = Tuple.of(30L, 10L);

        Tuple stored = RelativeLinks.drop(head, key);

        assertThat(stored).isEqualTo(Tuple.of(20L));
        assertThat(RelativeLinks.headWhole(listKey, stored, key)).isEqualTo(head);
        assertThat(RelativeLinks.headWhole(Tuple.EMPTY, head, new int[0])).isSameAs(head);
    }

    private static int size(JoinRecordSerializer<Long> s, JoinRecord<Long> r) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(r, out);
        return out.length();
    }
}
