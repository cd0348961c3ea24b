package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.maps.UndoLog;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.engine.viewtree.MemoryViewTreeStore;
import io.flinkivm.core.engine.viewtree.RootViewLogic;
import io.flinkivm.core.engine.viewtree.ViewTreeLogic;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Arrays;
import java.util.List;

/**
 * The part of the p-hierarchical plan below the border, in open-addressing hash maps: the stateful join views and
 * the root views over K. Each insert costs O(1) lookups; every change of a root view is reported to
 * a {@link RootListener} (the Boolean join, or the ablation's join over K) once the whole insert has
 * succeeded. An insert that fails (e.g. natural-number overflow) is rolled back completely and
 * reports nothing. It also recovers a result tuple's payload from the root views ({@link #payloadOf})
 * and counts inserts and border crossings. Not thread-safe.
 */
final class ViewForest<T> {

    /** Receives each root-view change, after the insert that caused it succeeded. */
    interface RootListener<T> {
        /**
         * @param old the payload before ({@code null} if the tuple had none)
         * @param updated the payload after adding {@code delta}
         * @param crossesBorder whether the tuple just became visible above the border
         *     ({@link RootViewLogic#crossesBorder}); it is then counted in {@link #borderCrossings()}
         */
        void onRootDelta(int tree, Tuple key, T delta, T old, T updated, boolean crossesBorder);
    }

    private final Semiring<T> semiring;
    private final CompiledPlan compiled;
    private final AtomRouter router;
    private final AtomRouter.Receiver<T> applier = this::apply;
    private final ViewTreeLogic<T> walk;
    private final MemoryViewTreeStore<T> store;
    private final OpenHashMap<Tuple, T>[] rootViews;
    private final RootListener<T> listener;
    private final UndoLog undo = new UndoLog();
    private int[] pendingTree = new int[4];
    private Object[] pending = new Object[16];
    private int pendingCount;
    private long inserts;
    private long borderCrossings;

    ViewForest(ViewTreePlan plan, Semiring<T> semiring, CompiledPlan compiled, RootListener<T> listener) {
        this(plan, semiring, compiled, listener, MemoryMaps.PLAIN);
    }

    /** With the join views' and root views' maps made by {@code maps}. */
    @SuppressWarnings("unchecked")
    ViewForest(ViewTreePlan plan, Semiring<T> semiring, CompiledPlan compiled, RootListener<T> listener,
            MemoryMaps maps) {
        this.semiring = semiring;
        this.compiled = compiled;
        this.listener = listener;
        this.router = compiled.router();
        walk = new ViewTreeLogic<>(semiring, compiled);
        store = new MemoryViewTreeStore<>(plan, -1, maps, undo);
        rootViews = new OpenHashMap[compiled.treeCount()];
        for (int i = 0; i < rootViews.length; i++) {
            rootViews[i] = maps.map(StateCounts.Role.ROOT_VIEW);
        }
    }

    /**
     * Applies one physical insert (one delta per matching atom of the relation, in body order) and
     * counts it, a no-op included, once it and its listener calls have succeeded.
     */
    void insert(String relation, Tuple tuple, T payload) {
        int r = router.checkedRelation(relation, tuple.arity());
        if (semiring.isZero(payload)) {
            inserts++;
            return;
        }
        undo.clear();
        pendingCount = 0;
        try {
            router.route(r, tuple, payload, applier);
        } catch (RuntimeException e) {
            undo.rollback();
            Arrays.fill(pending, 0, 4 * pendingCount, null);
            pendingCount = 0;
            throw e;
        }
        for (int i = 0; i < pendingCount; i++) {
            T old = cast(pending[4 * i + 2]);
            T updated = cast(pending[4 * i + 3]);
            boolean crosses = RootViewLogic.crossesBorder(semiring, old, updated);
            if (crosses) {
                borderCrossings++;
            }
            listener.onRootDelta(pendingTree[i], (Tuple) pending[4 * i], cast(pending[4 * i + 1]), old, updated,
                    crosses);
        }
        Arrays.fill(pending, 0, 4 * pendingCount, null);
        pendingCount = 0;
        inserts++;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }

    private void addPending(int tree, Tuple key, T delta, T old, T updated) {
        if (pendingCount == pendingTree.length) {
            pendingTree = Arrays.copyOf(pendingTree, 2 * pendingCount);
            pending = Arrays.copyOf(pending, 8 * pendingCount);
        }
        pendingTree[pendingCount] = tree;
        int base = 4 * pendingCount;
        pending[base] = key;
        pending[base + 1] = delta;
        pending[base + 2] = old;
        pending[base + 3] = updated;
        pendingCount++;
    }

    /** One atom's delta: its walk up the tree, then the root view, written only once both succeeded. */
    private void apply(int atom, Tuple key, T delta) {
        T rootDelta = walk.walk(store, atom, key, delta);
        if (rootDelta == null) {
            walk.commit(store);
            return;
        }
        int tree = walk.rootTree();
        Tuple rootKey = walk.rootKey();
        OpenHashMap<Tuple, T> root = rootViews[tree];
        T old = root.get(rootKey);
        T updated;
        try {
            updated = RootViewLogic.add(semiring, old, rootDelta);
        } catch (RuntimeException e) {
            walk.discard();
            throw e;
        }
        walk.commit(store);
        root.put(rootKey, updated);
        undo.mapEntry(root, rootKey, old);
        addPending(tree, rootKey, rootDelta, old, updated);
    }

    /** The payload of root tuple {@code key} of tree {@code tree}, or null. */
    T root(int tree, Tuple key) {
        return rootViews[tree].get(key);
    }

    /**
     * The payload of result tuple {@code headTuple} (values of the free variables in head order):
     * the product of the root-view payloads at its projections, zero if one is absent.
     *
     * @throws IllegalArgumentException if the tuple's arity is not the number of free variables
     */
    T payloadOf(Tuple headTuple) {
        HeadArity.check(compiled.plan().query(), headTuple);
        T payload = semiring.one();
        for (int i = 0; i < compiled.treeCount(); i++) {
            T v = rootViews[i].get(compiled.rootKeyOfHead(i, headTuple));
            if (v == null || semiring.isZero(v)) {
                return semiring.zero();
            }
            payload = semiring.times(payload, v);
        }
        return payload;
    }

    /** Physical inserts applied so far, no-ops included, rejected or rolled-back ones not. */
    long insertCount() {
        return inserts;
    }

    /** Root tuples that crossed the border so far (each once: inserts only). */
    long borderCrossings() {
        return borderCrossings;
    }

    /** Number of state entries: join-view keys and root-view tuples. */
    long stateEntries() {
        long total = store.entries();
        for (OpenHashMap<Tuple, T> m : rootViews) {
            total += m.size();
        }
        return total;
    }
}
