package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Route;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The in-memory engine for the p-hierarchical plan: view trees over K in hash maps, root views,
 * and the Boolean join above the border. Amortized O(1) per insert; enumeration with constant
 * delay, payloads recovered by one lookup per root view. Not thread-safe.
 */
public final class PHierarchicalEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final CompiledPlan compiled;
    private final List<Atom> atoms;
    private final JoinViewLogic<T>[] logic;
    private final Map<Tuple, Object[]>[] nodeState;
    private final Route[] atomRoutes;
    private final Route[] nodeRoutes;
    private final Map<Tuple, T>[] rootViews;
    private final MemoryBooleanJoinStore joinStore;
    private final BooleanJoin join;
    private final ArrayChildPayloads<T> cursor = new ArrayChildPayloads<>();
    private long inserts;
    private long borderCrossings;

    @SuppressWarnings("unchecked")
    public PHierarchicalEngine(MaintenancePlan plan, Semiring<T> semiring) {
        Engines.checkSemiring(plan, semiring);
        this.semiring = semiring;
        this.compiled = new CompiledPlan(plan);
        this.atoms = plan.query().body();
        List<ViewNode> nodes = plan.viewNodes();
        logic = new JoinViewLogic[nodes.size()];
        nodeState = new Map[nodes.size()];
        nodeRoutes = new Route[nodes.size()];
        for (ViewNode n : nodes) {
            if (n.isStateful()) {
                logic[n.id()] = new JoinViewLogic<>(semiring, n.arity());
                nodeState[n.id()] = new HashMap<>();
            }
            nodeRoutes[n.id()] = plan.nodeRoute(n.id());
        }
        atomRoutes = new Route[atoms.size()];
        for (int a = 0; a < atoms.size(); a++) {
            atomRoutes[a] = plan.atomRoute(a);
        }
        rootViews = new Map[compiled.treeCount()];
        for (int i = 0; i < rootViews.length; i++) {
            rootViews[i] = new HashMap<>();
        }
        joinStore = new MemoryBooleanJoinStore(compiled);
        join = new BooleanJoin(compiled);
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        int[] targets = compiled.atomsOf(relation, tuple.arity());
        inserts++;
        if (semiring.isZero(payload)) {
            return;
        }
        for (int a : targets) {
            Tuple matched = atoms.get(a).match(tuple);
            if (matched != null) {
                propagate(atomRoutes[a], compiled.atomKey(a, matched), payload);
            }
        }
    }

    private void propagate(Route route, Tuple key, T delta) {
        while (!route.toRoot()) {
            int node = route.node();
            Object[] children = nodeState[node].get(key);
            if (children == null) {
                children = new Object[logic[node].arity()];
                nodeState[node].put(key, children);
            }
            cursor.values = children;
            T out = logic[node].onChildDelta(cursor, route.slot(), delta);
            if (semiring.isZero(out)) {
                return;
            }
            key = compiled.nodeOutputKey(node, key);
            route = nodeRoutes[node];
            delta = out;
        }
        Map<Tuple, T> root = rootViews[route.tree()];
        T old = root.get(key);
        T updated = RootViewLogic.add(semiring, old, delta);
        root.put(key, updated);
        if (RootViewLogic.crossesBorder(semiring, old, updated)) {
            borderCrossings++;
            join.insert(joinStore, route.tree(), key);
        }
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return join.results(joinStore, semiring, (tree, rootTuple) -> rootViews[tree].get(rootTuple));
    }

    @Override
    public T lookup(Tuple headTuple) {
        T payload = semiring.one();
        for (int i = 0; i < rootViews.length; i++) {
            T v = rootViews[i].get(compiled.rootKeyOfHead(i, headTuple));
            if (v == null || semiring.isZero(v)) {
                return semiring.zero();
            }
            payload = semiring.times(payload, v);
        }
        return payload;
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    /** Root tuples that crossed the border so far. */
    public long borderCrossings() {
        return borderCrossings;
    }

    /** Number of state entries: join-view keys, root-view tuples and Boolean-join entries. */
    public long stateEntries() {
        long total = joinStore.entries();
        for (Map<Tuple, Object[]> m : nodeState) {
            if (m != null) {
                total += m.size();
            }
        }
        for (Map<Tuple, T> m : rootViews) {
            total += m.size();
        }
        return total;
    }

    /** Reused view of one key's child array. */
    private static final class ArrayChildPayloads<T> implements ChildPayloads<T> {
        Object[] values;

        @Override
        @SuppressWarnings("unchecked")
        public T get(int slot) {
            return (T) values[slot];
        }

        @Override
        public void set(int slot, T payload) {
            values[slot] = payload;
        }
    }
}
