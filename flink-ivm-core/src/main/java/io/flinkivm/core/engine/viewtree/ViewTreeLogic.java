package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.plan.Route;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What one atom's delta does to its view tree: the insert-only delta rule (Sec. 2) applied from the
 * view the atom feeds, through the stateful join views above it ({@link JoinViewLogic}), up to the
 * tree's root view. Stateless projections are skipped along the plan's {@link Route}s. A walk first
 * computes every view's new payload and the delta that reaches the root, then writes
 * ({@link #commit}): an arithmetic failure on the way (a natural-number overflow) leaves every view
 * as it was. The root view itself is the caller's (the in-memory engine keeps it in a map, the Flink
 * tree operator in keyed state, or as a partial aggregate when the root schema is empty).
 *
 * <p>Written once against {@link ViewTreeStore}; used by the in-memory engines and the Flink tree
 * operator. Holds the buffers of the current walk: use one instance per thread.
 */
@Internal
public final class ViewTreeLogic<T> {
    private final Semiring<T> semiring;
    private final CompiledPlan compiled;
    private final Route[] atomRoutes;
    private final Route[] nodeRoutes;
    private final JoinViewLogic<T>[] logic;
    private int steps;
    private int[] nodes = new int[8];
    private Tuple[] keys = new Tuple[8];
    private int[] slots = new int[8];
    private Object[] updated = new Object[8];
    private int rootTree;
    private Tuple rootKey;

    @SuppressWarnings("unchecked")
    public ViewTreeLogic(Semiring<T> semiring, CompiledPlan compiled) {
        this.semiring = semiring;
        this.compiled = compiled;
        ViewTreePlan plan = compiled.plan();
        int atoms = plan.query().body().size();
        atomRoutes = new Route[atoms];
        for (int a = 0; a < atoms; a++) {
            atomRoutes[a] = plan.atomRoute(a);
        }
        List<ViewNode> viewNodes = plan.viewNodes();
        nodeRoutes = new Route[viewNodes.size()];
        logic = new JoinViewLogic[viewNodes.size()];
        for (ViewNode n : viewNodes) {
            nodeRoutes[n.id()] = plan.nodeRoute(n.id());
            if (n.isStateful()) {
                logic[n.id()] = new JoinViewLogic<>(semiring, n.arity());
            }
        }
    }

    /**
     * Computes, without writing, what the delta {@code delta} of atom {@code atom} at {@code key} (the
     * atom's matched tuple projected onto its route, as {@link CompiledPlan#router()} keys it) does to the views
     * of its tree, and returns the delta that reaches the tree's root view at {@link #rootKey()}; or
     * null when the delta stops at a view whose other children are still zero. Call
     * {@link #commit} to write the views' new payloads (also when the delta stopped).
     *
     * @throws ArithmeticException if a payload cannot be computed (e.g. natural-number overflow);
     *     nothing is written then and the walk is discarded
     */
    public T walk(ViewTreeStore<T> store, int atom, Tuple key, T delta) {
        steps = 0;
        rootKey = null;
        Route route = atomRoutes[atom];
        try {
            while (!route.toRoot()) {
                int node = route.node();
                int slot = route.slot();
                ChildPayloads<T> children = store.read(steps, node, key);
                T old = children.get(slot);
                T sum = old == null ? delta : semiring.plus(old, delta);
                T up = logic[node].product(children, slot, delta);
                // A child payload back at zero (deletes, or payloads that cancel) is written as null.
                record(node, key, slot, semiring.isZero(sum) ? null : sum);
                if (semiring.isZero(up)) {
                    return null;
                }
                key = compiled.nodeOutputKey(node, key);
                delta = up;
                route = nodeRoutes[node];
            }
        } catch (RuntimeException e) {
            discard();
            throw e;
        }
        rootTree = route.tree();
        rootKey = key;
        return delta;
    }

    /** The tree of the root view the last walk reached. */
    public int rootTree() {
        return rootTree;
    }

    /** The key of the root view the last walk reached, or null if its delta stopped below it. */
    public Tuple rootKey() {
        return rootKey;
    }

    /** Writes the views' new payloads computed by the last {@link #walk}. */
    public void commit(ViewTreeStore<T> store) {
        for (int i = 0; i < steps; i++) {
            @SuppressWarnings("unchecked")
            T value = (T) updated[i];
            store.write(i, nodes[i], keys[i], slots[i], value);
        }
        discard();
    }

    /** Forgets the last walk without writing it. */
    public void discard() {
        Arrays.fill(keys, 0, steps, null);
        Arrays.fill(updated, 0, steps, null);
        steps = 0;
    }

    private void record(int node, Tuple key, int slot, T value) {
        if (steps == nodes.length) {
            int n = 2 * steps;
            nodes = Arrays.copyOf(nodes, n);
            keys = Arrays.copyOf(keys, n);
            slots = Arrays.copyOf(slots, n);
            updated = Arrays.copyOf(updated, n);
        }
        nodes[steps] = node;
        keys[steps] = key;
        slots[steps] = slot;
        updated[steps] = value;
        steps++;
    }
}
