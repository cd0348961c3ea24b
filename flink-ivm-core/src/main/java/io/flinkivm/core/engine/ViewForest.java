package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Route;
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
    private final JoinViewLogic<T>[] logic;
    private final OpenHashMap<Tuple, Object>[] nodeState;
    private final Route[] atomRoutes;
    private final Route[] nodeRoutes;
    private final OpenHashMap<Tuple, T>[] rootViews;
    private final RootListener<T> listener;
    private final ArrayChildPayloads<T> cursor = new ArrayChildPayloads<>();
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
        List<ViewNode> nodes = plan.viewNodes();
        logic = new JoinViewLogic[nodes.size()];
        nodeState = new OpenHashMap[nodes.size()];
        nodeRoutes = new Route[nodes.size()];
        for (ViewNode n : nodes) {
            if (n.isStateful()) {
                logic[n.id()] = new JoinViewLogic<>(semiring, n.arity());
                nodeState[n.id()] = maps.map(StateCounts.Role.JOIN_VIEW, n.arity());
            }
            nodeRoutes[n.id()] = plan.nodeRoute(n.id());
        }
        atomRoutes = new Route[atoms.size()];
        for (int a = 0; a < atoms.size(); a++) {
            atomRoutes[a] = plan.atomRoute(a);
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
                    propagate(atomRoutes[a], compiled.atomKey(a, matched), payload);
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

    private void propagate(Route route, Tuple key, T delta) {
        while (!route.toRoot()) {
            int node = route.node();
            OpenHashMap<Tuple, Object> state = nodeState[node];
            int entry = state.entry(key);
            if (entry < 0) {
                entry = state.addEntry(key);
                undo.mapEntry(state, key, null);
            }
            cursor.values = state.slots();
            cursor.base = state.base(entry);
            undo.entrySlot(state, key, route.slot(), cursor.values[cursor.base + route.slot()]);
            T out = logic[node].onChildDelta(cursor, route.slot(), delta);
            if (semiring.isZero(out)) {
                return;
            }
            key = compiled.nodeOutputKey(node, key);
            route = nodeRoutes[node];
            delta = out;
        }
        OpenHashMap<Tuple, T> root = rootViews[route.tree()];
        T old = root.get(key);
        T updated = RootViewLogic.add(semiring, old, delta);
        root.put(key, updated);
        undo.mapEntry(root, key, old);
        addPending(route.tree(), key, delta, old, updated);
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

    /** Reused view of one key's child slots in a join view's map. */
    private static final class ArrayChildPayloads<T> implements ChildPayloads<T> {
        Object[] values;
        int base;

        @Override
        @SuppressWarnings("unchecked")
        public T get(int slot) {
            return (T) values[base + slot];
        }

        @Override
        public void set(int slot, T payload) {
            values[base + slot] = payload;
        }
    }
}
