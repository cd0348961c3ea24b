package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomMatcher;
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
    private final AtomMatcher[] matchers;
    private final ViewTreeLogic<T> walk;
    private final OpenHashMap<Tuple, Object>[] nodeState;
    private final MapStore store = new MapStore();
    private final OpenHashMap<Tuple, T>[] rootViews;
    private final RootListener<T> listener;
    private final UndoLog undo = new UndoLog();
    private int[] pendingTree = new int[4];
    private Object[] pending = new Object[16];
    private int pendingCount;
    private long inserts;
    private long borderCrossings;

    ViewForest(MaintenancePlan plan, Semiring<T> semiring, CompiledPlan compiled, RootListener<T> listener) {
        this(plan, semiring, compiled, listener, MemoryMaps.PLAIN);
    }

    /** With the join views' and root views' maps made by {@code maps}. */
    @SuppressWarnings("unchecked")
    ViewForest(MaintenancePlan plan, Semiring<T> semiring, CompiledPlan compiled, RootListener<T> listener,
            MemoryMaps maps) {
        this.semiring = semiring;
        this.compiled = compiled;
        this.listener = listener;
        List<Atom> atoms = plan.query().body();
        matchers = new AtomMatcher[atoms.size()];
        for (Atom a : atoms) {
            matchers[a.index()] = a.matcher();
        }
        walk = new ViewTreeLogic<>(semiring, compiled);
        List<ViewNode> nodes = plan.viewNodes();
        nodeState = new OpenHashMap[nodes.size()];
        for (ViewNode n : nodes) {
            if (n.isStateful()) {
                nodeState[n.id()] = maps.map(StateCounts.Role.JOIN_VIEW, n.arity());
            }
        }
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
        int[] targets = compiled.atomsOf(relation, tuple.arity());
        if (semiring.isZero(payload)) {
            inserts++;
            return;
        }
        undo.clear();
        pendingCount = 0;
        try {
            for (int a : targets) {
                Tuple matched = matchers[a].match(tuple);
                if (matched != null) {
                    apply(a, compiled.atomKey(a, matched), payload);
                }
            }
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
        long total = 0;
        for (OpenHashMap<Tuple, Object> m : nodeState) {
            if (m != null) {
                total += m.size();
            }
        }
        for (OpenHashMap<Tuple, T> m : rootViews) {
            total += m.size();
        }
        return total;
    }

    /**
     * The join views in their maps, with every write recorded in the undo log. A read keeps the entry
     * it found per step, so the write of the same step needs no second lookup (a walk visits each
     * view once, and views have maps of their own, so no other write of the walk moves that entry).
     */
    private final class MapStore implements ViewTreeStore<T>, ChildPayloads<T> {
        private int[] entries = new int[8];
        private Object[] values;
        private int base;

        @Override
        public ChildPayloads<T> read(int step, int node, Tuple key) {
            OpenHashMap<Tuple, Object> state = nodeState[node];
            int e = state.entry(key);
            if (step == entries.length) {
                entries = Arrays.copyOf(entries, 2 * step);
            }
            entries[step] = e;
            values = e < 0 ? null : state.slots();
            base = e < 0 ? 0 : state.base(e);
            return this;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get(int slot) {
            return values == null ? null : (T) values[base + slot];
        }

        @Override
        public void set(int slot, T payload) {
            throw new UnsupportedOperationException("read-only view of a join view's children");
        }

        @Override
        public void write(int step, int node, Tuple key, int slot, T value) {
            OpenHashMap<Tuple, Object> state = nodeState[node];
            int e = entries[step];
            if (e < 0) {
                e = state.addEntry(key);
                undo.mapEntry(state, key, null);
            }
            Object[] slots = state.slots();
            int at = state.base(e) + slot;
            undo.entrySlot(state, key, slot, slots[at]);
            slots[at] = value;
        }
    }
}
