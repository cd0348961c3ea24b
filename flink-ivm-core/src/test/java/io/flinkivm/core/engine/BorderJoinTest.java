package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.border.MemoryJoinRecordStore;
import io.flinkivm.core.engine.cyclic.BagJoinStore;
import io.flinkivm.core.engine.cyclic.MemoryBagJoinStore;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.RandomQueries;
import io.flinkivm.core.testing.TestSemirings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The join above the border on its own: root deltas go straight to {@link BorderJoin}, and its result,
 * payloads and changelog are compared with a brute-force join of the root views (every combination of
 * root tuples that agree on shared variables), for random p-hierarchical plans, acyclic and cyclic.
 */
class BorderJoinTest {

    static List<String> semirings() {
        return TestSemirings.BUILT_INS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("semirings")
    void resultsAndChangesAgreeWithABruteForceJoinOfTheRootViews(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        int plans = 0;
        for (long seed = 0; plans < 300; seed++) {
            plans += check(k, seed, false) ? 1 : 0;
        }
    }

    /** The same over a store that keeps no scan of the root's live tuples and remembers nothing (as on RocksDB). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("semirings")
    void aStoreWithoutItsOwnScanGivesTheSameResults(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        int plans = 0;
        for (long seed = 0; plans < 100; seed++) {
            plans += check(k, seed, true) ? 1 : 0;
        }
    }

    /**
     * Runs one random plan, on the in-memory store or ({@code plain}) on one with only the store
     * interface's defaults for the root scan; false if the query was not p-hierarchical.
     */
    private static <T> boolean check(Semiring<T> k, long seed, boolean plain) {
        Random r = new Random(seed);
        ConjunctiveQuery q = r.nextBoolean() ? RandomQueries.pHierarchicalConstructed(r) : RandomQueries.arbitrary(r);
        MaintenancePlan planned = Planner.plan(q, k, Planner.Strategy.AUTO);
        if (!(planned instanceof ViewTreePlan plan)) {
            return false;
        }
        Function<Random, T> payloads = TestSemirings.payloads(k);
        BorderJoin<T> border = new BorderJoin<>(plan, k, true);
        MemoryJoinRecordStore<T> memory = new MemoryJoinRecordStore<>(border.layout(), border.extraIds());
        JoinRecordStore<T> store = plain ? new PlainStore<>(memory) : memory;
        BagJoinStore bags = border.isCyclic() ? new MemoryBagJoinStore(border.bagLayout()) : null;
        List<ViewTree> trees = plan.viewTrees();
        List<Map<Tuple, T>> roots = new ArrayList<>();
        for (int t = 0; t < trees.size(); t++) {
            roots.add(new HashMap<>());
        }
        Map<Tuple, T> before = new HashMap<>();
        int domain = 1 + r.nextInt(3);
        int steps = 5 + r.nextInt(60);
        String what = k.name() + " seed " + seed + " " + plan.query();
        for (int step = 0; step < steps; step++) {
            int tree = r.nextInt(trees.size());
            Object[] values = new Object[trees.get(tree).schema().size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = (long) r.nextInt(domain);
            }
            Tuple tuple = Tuple.of(values);
            T delta = payloads.apply(r);
            if (k.isZero(delta)) {
                continue;
            }
            T old = roots.get(tree).get(tuple);
            boolean crossed = border.add(store, bags, tree, tuple, delta);
            assertThat(crossed).as(what).isEqualTo(old == null);
            roots.get(tree).put(tuple, old == null ? delta : k.plus(old, delta));
            if (r.nextInt(4) == 0 || step == steps - 1) {
                Map<Tuple, T> now = bruteForce(plan, k, roots);
                // The cursor reads the iterator's rows in its order, first or second after the inserts.
                List<ResultTuple<T>> read = step % 2 == 0 ? read(border.cursor(store)) : null;
                List<ResultTuple<T>> rows = new ArrayList<>();
                border.results(store).forEachRemaining(rows::add);
                assertThat(read == null ? read(border.cursor(store)) : read)
                        .as(what)
                        .isEqualTo(rows);
                assertThat(collect(rows.iterator())).as(what).isEqualTo(now);
                for (Map.Entry<Tuple, T> e : now.entrySet()) {
                    assertThat(border.payloadOf(store, e.getKey())).as(what).isEqualTo(e.getValue());
                }
                Map<Tuple, ResultChange<T>> changes = new HashMap<>();
                border.trigger(
                        store,
                        c -> assertThat(changes.put(c.tuple(), c))
                                .as(what + ": row twice")
                                .isNull());
                Map<Tuple, ResultChange<T>> expected = new HashMap<>();
                now.forEach((t, p) -> {
                    T then = before.get(t);
                    if (!p.equals(then)) {
                        expected.put(t, new ResultChange<>(t, p, then));
                    }
                });
                assertThat(changes).as(what).isEqualTo(expected);
                before.clear();
                before.putAll(now);
            }
        }
        return true;
    }

    private static <T> List<ResultTuple<T>> read(ResultCursor<T> c) {
        List<ResultTuple<T>> out = new ArrayList<>();
        while (c.next()) {
            out.add(new ResultTuple<>(c.tuple(), c.payload()));
        }
        return out;
    }

    private static <T> Map<Tuple, T> collect(Iterator<ResultTuple<T>> it) {
        Map<Tuple, T> out = new HashMap<>();
        while (it.hasNext()) {
            ResultTuple<T> t = it.next();
            assertThat(out.put(t.tuple(), t.payload()))
                    .as("enumerated twice: " + t.tuple())
                    .isNull();
        }
        return out;
    }

    /** Every assignment of the free variables whose projection onto each root schema is a root tuple. */
    private static <T> Map<Tuple, T> bruteForce(ViewTreePlan plan, Semiring<T> k, List<Map<Tuple, T>> roots) {
        List<String> head = plan.query().head();
        List<Map<String, Object>> partial = new ArrayList<>();
        partial.add(new HashMap<>());
        List<T> payload = new ArrayList<>();
        payload.add(k.one());
        for (ViewTree t : plan.viewTrees()) {
            List<Map<String, Object>> next = new ArrayList<>();
            List<T> nextPayload = new ArrayList<>();
            for (int i = 0; i < partial.size(); i++) {
                for (Map.Entry<Tuple, T> e : roots.get(t.index()).entrySet()) {
                    Map<String, Object> extended = new HashMap<>(partial.get(i));
                    boolean agrees = true;
                    for (int v = 0; v < t.schema().size() && agrees; v++) {
                        Object before =
                                extended.put(t.schema().get(v), e.getKey().get(v));
                        agrees = before == null || before.equals(e.getKey().get(v));
                    }
                    if (agrees) {
                        next.add(extended);
                        nextPayload.add(k.times(payload.get(i), e.getValue()));
                    }
                }
            }
            partial = next;
            payload = nextPayload;
        }
        Map<Tuple, T> out = new HashMap<>();
        for (int i = 0; i < partial.size(); i++) {
            Object[] values = new Object[head.size()];
            for (int h = 0; h < values.length; h++) {
                values[h] = partial.get(i).get(head.get(h));
            }
            out.put(Tuple.of(values), payload.get(i));
        }
        return out;
    }

    @Test
    void exampleTenChangesComeFromTheChangedRootTuplesOnly() {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(
                QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)"),
                NaturalSemiring.INSTANCE);
        BorderJoin<Long> border = new BorderJoin<>(plan, NaturalSemiring.INSTANCE, true);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(border.layout(), 0);
        int va = tree(plan, "V[A]");
        int vac = tree(plan, "V[A,C]");
        int r4 = tree(plan, "R4(C)");
        border.add(store, null, va, Tuple.of(1L), 2L);
        border.add(store, null, vac, Tuple.of(1L, 7L), 3L);
        List<ResultChange<Long>> first = new ArrayList<>();
        border.trigger(store, first::add);
        assertThat(first).isEmpty();
        border.add(store, null, r4, Tuple.of(7L), 5L);
        border.add(store, null, vac, Tuple.of(1L, 8L), 1L);
        List<ResultChange<Long>> second = new ArrayList<>();
        border.trigger(store, second::add);
        assertThat(second).containsExactly(new ResultChange<>(Tuple.of(1L, 7L), 30L, null));
        border.add(store, null, va, Tuple.of(1L), 1L);
        border.add(store, null, r4, Tuple.of(8L), 1L);
        Set<ResultChange<Long>> third = new HashSet<>();
        border.trigger(store, third::add);
        assertThat(third)
                .containsExactlyInAnyOrder(
                        new ResultChange<>(Tuple.of(1L, 7L), 45L, 30L), new ResultChange<>(Tuple.of(1L, 8L), 3L, null));
        List<ResultChange<Long>> none = new ArrayList<>();
        border.trigger(store, none::add);
        assertThat(none).isEmpty();
    }

    /**
     * A store whose maps are filled from outside, as the heap backend's codec restores a checkpoint,
     * enumerates what the original does: its scan of the root's live tuples and the records remembered
     * per root tuple are rebuilt on the first enumeration, then kept up to date by later inserts, and a
     * payload that changes after a walk remembered its record is read anew.
     */
    @Test
    void aStoreFilledLikeARestoreEnumeratesLikeTheOriginal() {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(
                QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)"),
                NaturalSemiring.INSTANCE);
        BorderJoin<Long> border = new BorderJoin<>(plan, NaturalSemiring.INSTANCE, false);
        MemoryJoinRecordStore<Long> original = new MemoryJoinRecordStore<>(border.layout(), 0);
        int va = tree(plan, "V[A]");
        int vac = tree(plan, "V[A,C]");
        int r4 = tree(plan, "R4(C)");
        Random r = new Random(7);
        for (int i = 0; i < 300; i++) {
            border.add(original, null, va, Tuple.of((long) r.nextInt(20)), 1L + r.nextInt(3));
            border.add(original, null, vac, Tuple.of((long) r.nextInt(30), (long) r.nextInt(10)), 1L);
            border.add(original, null, r4, Tuple.of((long) r.nextInt(12)), 2L);
        }
        Map<Tuple, Long> before = collect(border.results(original));
        assertThat(before).hasSizeGreaterThan(50);

        MemoryJoinRecordStore<Long> restored = new MemoryJoinRecordStore<>(border.layout(), 0);
        for (int id = 0; id < original.ids(); id++) {
            for (Iterator<Map.Entry<Tuple, JoinRecord<Long>>> it =
                            original.recordMap(id).entries();
                    it.hasNext(); ) {
                Map.Entry<Tuple, JoinRecord<Long>> e = it.next();
                restored.recordMap(id).put(e.getKey(), copy(e.getValue()));
            }
        }
        for (int m = 0; m < original.headMaps().size(); m++) {
            for (Iterator<Map.Entry<Tuple, Tuple>> it =
                            original.headMaps().get(m).entries();
                    it.hasNext(); ) {
                Map.Entry<Tuple, Tuple> e = it.next();
                restored.headMaps().get(m).put(e.getKey(), e.getValue());
            }
        }
        assertThat(collect(border.results(restored))).isEqualTo(before);
        // Later inserts: new live root tuples join the scan, changed payloads are read where they are.
        for (int i = 0; i < 200; i++) {
            Tuple a = Tuple.of((long) r.nextInt(25));
            Tuple ac = Tuple.of((long) r.nextInt(35), (long) r.nextInt(12));
            Tuple c = Tuple.of((long) r.nextInt(14));
            for (MemoryJoinRecordStore<Long> store : List.of(original, restored)) {
                border.add(store, null, va, a, 2L);
                border.add(store, null, vac, ac, 1L);
                border.add(store, null, r4, c, 1L);
            }
            if (i % 50 == 49) {
                Map<Tuple, Long> now = collect(border.results(original));
                assertThat(now).hasSizeGreaterThan(before.size());
                assertThat(collect(border.results(restored))).isEqualTo(now);
            }
        }
    }

    /** A store with only the interface's defaults for the root scan: it scans every record and remembers nothing. */
    private record PlainStore<T>(JoinRecordStore<T> inner) implements JoinRecordStore<T> {
        @Override
        public JoinRecord<T> get(int node, Tuple tuple) {
            return inner.get(node, tuple);
        }

        @Override
        public void add(int node, Tuple tuple, JoinRecord<T> record) {
            inner.add(node, tuple, record);
        }

        @Override
        public void update(int node, Tuple tuple, JoinRecord<T> record) {
            inner.update(node, tuple, record);
        }

        @Override
        public Iterator<Map.Entry<Tuple, JoinRecord<T>>> records(int node) {
            return inner.records(node);
        }

        @Override
        public Tuple liveHead(int node, Tuple key) {
            return inner.liveHead(node, key);
        }

        @Override
        public void setLiveHead(int node, Tuple key, Tuple tuple) {
            inner.setLiveHead(node, key, tuple);
        }

        @Override
        public Tuple waitHead(int node, int child, Tuple key) {
            return inner.waitHead(node, child, key);
        }

        @Override
        public void setWaitHead(int node, int child, Tuple key, Tuple tuple) {
            inner.setWaitHead(node, child, key, tuple);
        }

        @Override
        public Tuple upHead(int child, Tuple key) {
            return inner.upHead(child, key);
        }

        @Override
        public void setUpHead(int child, Tuple key, Tuple parentTuple) {
            inner.setUpHead(child, key, parentTuple);
        }

        @Override
        public void markDirty(int node, Tuple tuple) {
            inner.markDirty(node, tuple);
        }

        @Override
        public void forEachDirty(DirtyAction action) {
            inner.forEachDirty(action);
        }

        @Override
        public void clearDirty() {
            inner.clearDirty();
        }
    }

    /** A record as a checkpoint restores it: the same fields in a new object. */
    private static JoinRecord<Long> copy(JoinRecord<Long> r) {
        JoinRecord<Long> c = new JoinRecord<>(r.payload());
        c.missing = r.missing;
        c.liveNext = r.liveNext;
        c.waitNext = r.waitNext.clone();
        c.inJoin = r.inJoin;
        c.upNext = r.upNext.clone();
        c.dirty = r.dirty;
        c.oldPayload = r.oldPayload;
        return c;
    }

    /**
     * Natural-number root payloads stay unboxed in their records: an update writes a long, an
     * overflow changes nothing, and the changelog's old payload and the results are as boxed.
     */
    @Test
    void naturalPayloadsStayUnboxedInTheRecords() {
        ViewTreePlan plan =
                (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A) :- R(A), S(A)"), NaturalSemiring.INSTANCE);
        BorderJoin<Long> border = new BorderJoin<>(plan, NaturalSemiring.INSTANCE, true);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(border.layout(), 0);
        int r = tree(plan, "R(A)");
        int s = tree(plan, "S(A)");
        assertThat(border.add(store, null, r, Tuple.of(1L), 2L)).isTrue();
        assertThat(border.add(store, null, s, Tuple.of(1L), 3L)).isTrue();
        border.trigger(store, c -> {});
        assertThat(border.add(store, null, r, Tuple.of(1L), 5L)).isFalse();
        JoinRecord<Long> record = store.get(r, Tuple.of(1L));
        assertThat(record.isUnboxed()).isTrue();
        assertThat(record.unboxedPayload()).isEqualTo(7L);
        assertThat(record.oldPayload).isEqualTo(2L);
        assertThatThrownBy(() -> border.add(store, null, r, Tuple.of(1L), Long.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("natural-number overflow: 7 + 9223372036854775807");
        assertThat(border.payload(store, r, Tuple.of(1L))).isEqualTo(7L);
        List<ResultChange<Long>> changes = new ArrayList<>();
        border.trigger(store, changes::add);
        assertThat(changes).containsExactly(new ResultChange<>(Tuple.of(1L), 21L, 6L));
        assertThat(border.results(store)).toIterable().containsExactly(new ResultTuple<>(Tuple.of(1L), 21L));
        // A semiring without an unboxed sum keeps its payloads as objects.
        BorderJoin<Boolean> booleans = new BorderJoin<>(plan, BooleanSemiring.INSTANCE, false);
        MemoryJoinRecordStore<Boolean> bstore = new MemoryJoinRecordStore<>(booleans.layout(), 0);
        booleans.add(bstore, null, r, Tuple.of(1L), true);
        booleans.add(bstore, null, r, Tuple.of(1L), true);
        assertThat(bstore.get(r, Tuple.of(1L)).isUnboxed()).isFalse();
        assertThat(booleans.payload(bstore, r, Tuple.of(1L))).isTrue();
    }

    @Test
    void aTriggerNeedsAJoinBuiltWithAChangelog() {
        ViewTreePlan plan =
                (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A) :- R(A), S(A)"), NaturalSemiring.INSTANCE);
        BorderJoin<Long> border = new BorderJoin<>(plan, NaturalSemiring.INSTANCE, false);
        MemoryJoinRecordStore<Long> store = new MemoryJoinRecordStore<>(border.layout(), 0);
        assertThatThrownBy(() -> border.trigger(store, c -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without a changelog");
    }

    private static int tree(ViewTreePlan plan, String rootName) {
        for (ViewTree t : plan.viewTrees()) {
            if (plan.rootName(t).equals(rootName)) {
                return t.index();
            }
        }
        throw new AssertionError("no root view " + rootName + " in " + plan.explain());
    }
}
