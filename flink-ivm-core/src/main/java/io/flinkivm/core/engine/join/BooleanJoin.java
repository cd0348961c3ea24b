package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Insert-only maintenance of the α-acyclic full join of the indicator relations above the border
 * (after Abo Khamis, Kara, Olteanu, Suciu 2024). A tuple of join-tree node n is <em>live</em> when every
 * child of n has a live tuple with a matching key; by induction a live tuple extends to a full join
 * result in its subtree. Each tuple becomes live at most once and waits at most once per child, so
 * the work is amortized O(1) per insert; enumeration walks live lists with constant delay.
 *
 * <p>All state is in the {@link BooleanJoinStore}, so the same logic serves the in-memory engine and
 * the Flink sink; the object itself only holds a reused work stack, so use one per thread.
 */
public final class BooleanJoin {
    private final JoinLayout plan;
    /** The work stack of {@link #makeLive}: node and tuple of each entry; grows by doubling, never shrinks. */
    private int[] workNodes = new int[16];
    private Tuple[] workTuples = new Tuple[16];

    /**
     * @param plan the join tree: a {@link CompiledPlan} (over root views) or a {@link CompiledBagJoin} (over bags)
     * @throws IllegalArgumentException if the layout has no nodes (a cyclic plan's {@link CompiledPlan})
     */
    public BooleanJoin(JoinLayout plan) {
        if (plan.nodeCount() == 0) {
            throw new IllegalArgumentException("no join tree to maintain: " + plan
                    + "; the cyclic plan joins the bags of its tree decomposition (CompiledBagJoin)");
        }
        this.plan = plan;
    }

    /**
     * A root tuple of tree {@code node} became non-zero for the first time (for a layout over bags: a
     * bag tuple is new). Each tuple of a node must be inserted at most once. Returns the number of
     * tuples (of any node) that became live.
     */
    public int insert(BooleanJoinStore store, int node, Tuple tuple) {
        int[] kids = plan.joinChildren(node);
        int missing = 0;
        for (int c = 0; c < kids.length; c++) {
            Tuple key = plan.keyOfChild(kids[c], tuple);
            if (store.liveHead(kids[c]).get(key) == null) {
                KeyValueState<Tuple, Tuple> heads = store.waitHead(node, c);
                Tuple head = heads.get(key);
                if (head != null) {
                    store.waitNext(node, c).put(tuple, head);
                }
                heads.put(key, tuple);
                missing++;
            }
        }
        if (missing > 0) {
            store.missing(node).put(tuple, missing);
            return 0;
        }
        return makeLive(store, node, tuple);
    }

    /** Makes a tuple live, then the waiting tuples it completes; returns how many became live. */
    private int makeLive(BooleanJoinStore store, int startNode, Tuple startTuple) {
        workNodes[0] = startNode;
        workTuples[0] = startTuple;
        int top = 1;
        int made = 0;
        try {
            while (top > 0) {
                made++;
                top--;
                int node = workNodes[top];
                Tuple tuple = workTuples[top];
                workTuples[top] = null;
                Tuple key = plan.keyToParent(node, tuple);
                KeyValueState<Tuple, Tuple> heads = store.liveHead(node);
                Tuple head = heads.get(key);
                if (head != null) {
                    store.liveNext(node).put(tuple, head);
                }
                heads.put(key, tuple);
                int parent = plan.joinParent(node);
                if (head != null || parent < 0) {
                    continue;
                }
                // The key's first live tuple: wake the parent's tuples waiting for it.
                int c = plan.childIndexInParent(node);
                KeyValueState<Tuple, Tuple> waitHeads = store.waitHead(parent, c);
                KeyValueState<Tuple, Tuple> waitNext = store.waitNext(parent, c);
                KeyValueState<Tuple, Integer> missing = store.missing(parent);
                Tuple waiting = waitHeads.get(key);
                if (waiting != null) {
                    waitHeads.remove(key);
                }
                while (waiting != null) {
                    Tuple next = waitNext.get(waiting);
                    if (next != null) {
                        waitNext.remove(waiting);
                    }
                    int left = missing.get(waiting) - 1;
                    if (left == 0) {
                        missing.remove(waiting);
                        if (top == workNodes.length) {
                            workNodes = Arrays.copyOf(workNodes, 2 * top);
                            workTuples = Arrays.copyOf(workTuples, 2 * top);
                        }
                        workNodes[top] = parent;
                        workTuples[top] = waiting;
                        top++;
                    } else {
                        missing.put(waiting, left);
                    }
                    waiting = next;
                }
            }
        } finally {
            // Keep no tuples reachable after a failed store call.
            Arrays.fill(workTuples, 0, top, null);
        }
        return made;
    }

    /**
     * Enumerates the full join: for each result, the tuple of every node, indexed by position in
     * {@link JoinLayout#order()}. The array is reused between calls of {@code next()}.
     */
    public Iterator<Tuple[]> enumerate(BooleanJoinStore store) {
        return new JoinIterator(store);
    }

    /** Looks up a root view's payload for a root tuple (the views right below the border). */
    public interface RootPayloads<T> {
        T get(int tree, Tuple rootTuple);
    }

    /**
     * Enumerates the query result with constant delay: each full-join tuple with its payload
     * recovered as the product of the root-view payloads at its projections (Sec. 4.5).
     */
    public <T> Iterator<ResultTuple<T>> results(BooleanJoinStore store, Semiring<T> semiring, RootPayloads<T> roots) {
        Iterator<Tuple[]> it = enumerate(store);
        int[] order = plan.order();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public ResultTuple<T> next() {
                Tuple[] rootTuples = it.next();
                T payload = roots.get(order[0], rootTuples[0]);
                for (int p = 1; p < order.length; p++) {
                    payload = semiring.times(payload, roots.get(order[p], rootTuples[p]));
                }
                return new ResultTuple<>(plan.assembleHead(rootTuples), payload);
            }
        };
    }

    private final class JoinIterator implements Iterator<Tuple[]> {
        private final BooleanJoinStore store;
        private final int[] order = plan.order();
        private final int[] parentPos = plan.orderParentPosition();
        private final Tuple[] current = new Tuple[order.length];
        private boolean ready;
        private boolean done;

        JoinIterator(BooleanJoinStore store) {
            this.store = store;
            current[0] = store.liveHead(order[0]).get(Tuple.EMPTY);
            if (current[0] == null) {
                done = true;
            } else {
                descend(1);
                ready = true;
            }
        }

        /** Fills positions from {@code from} on with the first live match of each. */
        private void descend(int from) {
            for (int p = from; p < order.length; p++) {
                int node = order[p];
                Tuple key = plan.keyOfChild(node, current[parentPos[p]]);
                current[p] = store.liveHead(node).get(key);
                if (current[p] == null) {
                    throw new IllegalStateException("live tuple " + current[parentPos[p]] + " has no live match in tree "
                            + node + " for key " + key);
                }
            }
        }

        private void advance() {
            int p = order.length - 1;
            while (p >= 0) {
                current[p] = store.liveNext(order[p]).get(current[p]);
                if (current[p] != null) {
                    descend(p + 1);
                    return;
                }
                p--;
            }
            done = true;
        }

        @Override
        public boolean hasNext() {
            if (!ready && !done) {
                advance();
                ready = !done;
            }
            return ready;
        }

        @Override
        public Tuple[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ready = false;
            return current;
        }
    }
}
