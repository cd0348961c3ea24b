package io.flinkivm.core.engine.viewtree;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.maps.LongCell;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.UndoLog;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import org.junit.jupiter.api.Test;

class MemoryViewTreeStoreTest {

    private static final String QUERY = "Q(A) :- R(A,B), S(A,B)";

    private static int statefulView(ViewTreePlan plan) {
        return plan.statefulNodes().stream().mapToInt(ViewNode::id).findFirst().orElseThrow();
    }

    /** A Long payload lives in a cell that later writes change in place; readers see the value boxed. */
    @Test
    void longPayloadsLiveInCellsThatWritesChangeInPlace() {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(QueryParser.parse(QUERY), NaturalSemiring.INSTANCE);
        int view = statefulView(plan);
        MemoryViewTreeStore<Long> store = new MemoryViewTreeStore<>(plan, -1);
        Tuple key = Tuple.of(1L, 2L);
        assertThat(store.read(0, view, key).get(0)).isNull();
        store.write(0, view, key, 0, 5L);
        OpenHashMap<Tuple, Object> map = store.view(view);
        Object cell = map.slots()[map.base(map.entry(key))];
        assertThat(cell).isInstanceOf(LongCell.class);
        assertThat(store.read(0, view, key).get(0)).isEqualTo(5L);
        store.write(0, view, key, 0, 8L);
        assertThat(map.slots()[map.base(map.entry(key))]).isSameAs(cell);
        assertThat(store.read(0, view, key).get(0)).isEqualTo(8L);
        assertThat(store.read(0, view, key).get(1)).isNull();
    }

    /** A rollback restores the value a cell held before the insert, not the cell it changed since. */
    @Test
    void aRollbackRestoresTheValueBeforeTheInsert() {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(QueryParser.parse(QUERY), NaturalSemiring.INSTANCE);
        int view = statefulView(plan);
        UndoLog undo = new UndoLog();
        MemoryViewTreeStore<Long> store = new MemoryViewTreeStore<>(plan, -1, MemoryMaps.PLAIN, undo);
        Tuple key = Tuple.of(1L, 2L);
        store.read(0, view, key);
        store.write(0, view, key, 0, 5L);
        undo.clear();
        store.read(0, view, key);
        store.write(0, view, key, 0, 7L);
        store.read(0, view, key);
        store.write(0, view, key, 1, 3L);
        undo.rollback();
        ChildPayloads<Long> after = store.read(0, view, key);
        assertThat(after.get(0)).isEqualTo(5L);
        assertThat(after.get(1)).isNull();
        store.write(0, view, key, 0, 6L);
        assertThat(store.read(0, view, key).get(0)).isEqualTo(6L);
    }

    /** Payloads of other types are stored as they are. */
    @Test
    void otherPayloadsAreStoredAsTheyAre() {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(QueryParser.parse(QUERY), ProvenanceSemiring.INSTANCE);
        int view = statefulView(plan);
        MemoryViewTreeStore<Object> store = new MemoryViewTreeStore<>(plan, -1);
        Tuple key = Tuple.of(1L, 2L);
        Object payload = ProvenanceSemiring.INSTANCE.one();
        store.read(0, view, key);
        store.write(0, view, key, 0, payload);
        OpenHashMap<Tuple, Object> map = store.view(view);
        assertThat(map.slots()[map.base(map.entry(key))]).isSameAs(payload);
        assertThat(LongCell.boxed(new LongCell(4L))).isEqualTo(4L);
        assertThat(LongCell.boxed("x")).isEqualTo("x");
    }
}
