package io.flinkivm.core.engine;

import io.flinkivm.core.engine.join.DeltaJoinLogic;
import io.flinkivm.core.engine.join.DeltaJoinStore;
import io.flinkivm.core.engine.join.TrackedResult;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The in-memory fallback engine: {@link DeltaJoinLogic} over hash maps. Correct for every query and
 * semiring; an insert (or a delete, the insert of the inverse payload over a ring) costs the number of
 * join tuples it touches. Tuples whose payload returns to zero are removed, with their index links.
 * Not thread-safe.
 */
public final class DeltaJoinEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final DeltaJoinLogic<T> logic;
    private final Store<T> store;
    private long inserts;

    public DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")));
    }

    DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, MemoryMaps maps) {
        this(plan, semiring, maps, false);
    }

    /**
     * @param changelog whether {@link #changes} is used (the result then remembers the payloads of
     *     the tuples it changes since the last trigger)
     */
    DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        this.semiring = semiring;
        this.logic = new DeltaJoinLogic<>(plan, semiring);
        this.store = new Store<>(logic, maps, changelog ? semiring : null);
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        logic.insert(store, relation, tuple, payload);
        inserts++;
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return logic.results(store);
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(logic.query(), headTuple);
        T v = store.result.get(headTuple);
        return v == null ? semiring.zero() : v;
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    @Override
    public void changes(Consumer<ResultChange<T>> out) {
        if (store.tracked == null) {
            IvmEngine.super.changes(out);
        }
        for (Iterator<Map.Entry<Tuple, T>> it = store.before.entries(); it.hasNext(); ) {
            Map.Entry<Tuple, T> e = it.next();
            ResultChange<T> c = store.tracked.change(e.getKey(), e.getValue());
            if (c != null) {
                out.accept(c);
            }
        }
        store.before.clear();
    }

    /** Stored atom tuples, index entries and result tuples. */
    @Override
    public long stateEntries() {
        long total = store.result.size();
        for (int a = 0; a < store.relations.length; a++) {
            total += store.relations[a].size();
            for (int i = 0; i < store.heads[a].length; i++) {
                total += store.heads[a][i].size() + store.nexts[a][i].size() + store.prevs[a][i].size();
            }
        }
        return total;
    }

    /** Zero: the fallback has no root views and no border. */
    @Override
    public long borderCrossings() {
        return 0;
    }

    /** The payload of {@code key} in atom {@code atom}'s relation, or null (for the ablation's root views). */
    T atomPayload(int atom, Tuple key) {
        return store.relations[atom].get(key);
    }

    private static final class Store<T> implements DeltaJoinStore<T> {
        final OpenHashMap<Tuple, T>[] relations;
        final OpenHashMap<Tuple, Tuple>[][] heads;
        final OpenHashMap<Tuple, Tuple>[][] nexts;
        final OpenHashMap<Tuple, Tuple>[][] prevs;
        final OpenHashMap<Tuple, T> result;
        /** With a changelog: the payloads at the last trigger of the result tuples changed since, and the result that fills them. */
        final OpenHashMap<Tuple, T> before;

        final TrackedResult<T> tracked;

        @SuppressWarnings("unchecked")
        Store(DeltaJoinLogic<T> logic, MemoryMaps maps, Semiring<T> changelog) {
            int n = logic.query().body().size();
            relations = new OpenHashMap[n];
            heads = new OpenHashMap[n][];
            nexts = new OpenHashMap[n][];
            prevs = new OpenHashMap[n][];
            for (int a = 0; a < n; a++) {
                relations[a] = maps.map(StateCounts.Role.DELTA_JOIN);
                heads[a] = new OpenHashMap[logic.indexCount(a)];
                nexts[a] = new OpenHashMap[logic.indexCount(a)];
                prevs[a] = new OpenHashMap[logic.indexCount(a)];
                for (int i = 0; i < heads[a].length; i++) {
                    heads[a][i] = maps.map(StateCounts.Role.DELTA_JOIN);
                    nexts[a][i] = maps.map(StateCounts.Role.DELTA_JOIN);
                    prevs[a][i] = maps.map(StateCounts.Role.DELTA_JOIN);
                }
            }
            result = maps.map(StateCounts.Role.RESULT);
            before = changelog == null ? null : maps.map(StateCounts.Role.RESULT);
            tracked = changelog == null ? null : new TrackedResult<>(result, before, changelog);
        }

        @Override
        public KeyValueState<Tuple, T> relation(int atom) {
            return relations[atom];
        }

        @Override
        public KeyValueState<Tuple, Tuple> indexHead(int atom, int index) {
            return heads[atom][index];
        }

        @Override
        public KeyValueState<Tuple, Tuple> indexNext(int atom, int index) {
            return nexts[atom][index];
        }

        @Override
        public KeyValueState<Tuple, Tuple> indexPrev(int atom, int index) {
            return prevs[atom][index];
        }

        @Override
        public KeyValueState<Tuple, T> result() {
            return tracked == null ? result : tracked;
        }

        @Override
        public Iterator<Map.Entry<Tuple, T>> resultEntries() {
            return result.entries();
        }
    }
}
