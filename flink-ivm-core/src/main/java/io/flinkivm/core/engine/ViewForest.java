package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.UndoLog;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.engine.viewtree.MemoryViewTreeStore;
import io.flinkivm.core.engine.viewtree.ViewTreeLogic;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Arrays;

/**
 * The part of the p-hierarchical plan below the border, in open-addressing hash maps: the stateful
 * join views of the view trees. Each insert costs O(1) lookups and yields, per atom it matches, the
 * delta of one root view at one root tuple; the root views themselves live above the border (a
 * {@link BorderJoin}, or the ablation's join over K), which receives the deltas of a whole insert at
 * once ({@link RootListener}). An insert that fails (e.g. natural-number overflow in a view, or the
 * listener refusing its deltas) is rolled back completely. Not thread-safe.
 */
final class ViewForest<T> {

    /** Receives the root deltas of each insert, after every view below the roots accepted them. */
    interface RootListener<T> {
        /**
         * Applies the root deltas of one insert (root tuple {@code keys[i]} of tree {@code trees[i]}
         * gains {@code deltas[i]}; a tuple may appear twice), all or none: it throws, having changed
         * nothing, to refuse them (the insert is then rolled back). The deltas are of type {@code T}.
         */
        void onRootDeltas(int count, int[] trees, Tuple[] keys, Object[] deltas);
    }

    private final Semiring<T> semiring;
    private final AtomRouter router;
    private final AtomRouter.Receiver<T> applier = this::apply;
    private final ViewTreeLogic<T> walk;
    private final MemoryViewTreeStore<T> store;
    private final RootListener<T> listener;
    private final UndoLog undo = new UndoLog();
    private int[] pendingTree = new int[4];
    private Tuple[] pendingKey = new Tuple[4];
    private Object[] pendingDelta = new Object[4];
    private int pendingCount;
    private long inserts;

    /** With the join views' maps made by {@code maps}. */
    ViewForest(
            ViewTreePlan plan, Semiring<T> semiring, CompiledPlan compiled, RootListener<T> listener, MemoryMaps maps) {
        this.semiring = semiring;
        this.listener = listener;
        this.router = compiled.router();
        walk = new ViewTreeLogic<>(semiring, compiled);
        store = new MemoryViewTreeStore<>(plan, -1, maps, undo);
    }

    /**
     * Applies one physical insert (one delta per matching atom of the relation, in body order) and
     * counts it, a no-op included, once it and its root deltas have been accepted.
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
            if (pendingCount > 0) {
                listener.onRootDeltas(pendingCount, pendingTree, pendingKey, pendingDelta);
            }
        } catch (RuntimeException e) {
            undo.rollback();
            throw e;
        } finally {
            Arrays.fill(pendingKey, 0, pendingCount, null);
            Arrays.fill(pendingDelta, 0, pendingCount, null);
            pendingCount = 0;
        }
        inserts++;
    }

    /** One atom's delta: its walk up the tree, written once it succeeded; its root delta waits for the listener. */
    private void apply(int atom, Tuple key, T delta) {
        T rootDelta = walk.walk(store, atom, key, delta);
        walk.commit(store);
        if (rootDelta == null) {
            return;
        }
        if (pendingCount == pendingTree.length) {
            pendingTree = Arrays.copyOf(pendingTree, 2 * pendingCount);
            pendingKey = Arrays.copyOf(pendingKey, 2 * pendingCount);
            pendingDelta = Arrays.copyOf(pendingDelta, 2 * pendingCount);
        }
        pendingTree[pendingCount] = walk.rootTree();
        pendingKey[pendingCount] = walk.rootKey();
        pendingDelta[pendingCount] = rootDelta;
        pendingCount++;
    }

    /** Physical inserts applied so far, no-ops included, rejected or rolled-back ones not. */
    long insertCount() {
        return inserts;
    }

    /** Number of state entries: the join views' keys. */
    long stateEntries() {
        return store.entries();
    }
}
