package io.flinkivm.core.engine.qtree;

import io.flinkivm.core.engine.join.Walk;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.QTreeNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * The join of the root views of a q-hierarchical query along its q-tree, under inserts and deletes
 * (Berkholz, Keppeler, Schweikardt, PODS 2017), over one {@link QTreeEntry} per (node, path value). A
 * root view sits at the node whose path is its schema, so a root tuple is one entry's slot. An entry is
 * <em>fit</em> when every root view sitting at it is present (payload not zero) and every child node
 * has a fit entry below it; the parent keeps, per child node, a doubly linked list of its fit child
 * entries. A result is a choice of one fit value per node, top-down: enumeration never meets a dead
 * end, so its delay is constant (O(number of nodes) lookups per result).
 *
 * <p>A root tuple's payload change can flip the fitness of its entry, which can flip its parent's
 * (its list became empty, or not), and so on up: at most one list operation per ancestor, O(depth)
 * state accesses per change, independent of the data. This is why q-hierarchical queries, and only
 * they (the dichotomy of Berkholz et al.), keep O(1) updates under deletes: a delete never has to visit
 * the many tuples that depend on the one it removes, since liveness lives on the shared path prefixes,
 * not on the tuples (the insert-only {@code LiveJoin} keeps it per tuple, which a delete would have to
 * undo tuple by tuple). Payloads may return to zero (no positivity needed); an entry that nothing
 * supports any more is removed, so the state is the size of the live data.
 *
 * <p>With a changelog, every changed entry remembers its payloads and the lists as at the last trigger,
 * and {@link #trigger} enumerates, from each changed root tuple, the results that contain it now and
 * those that contained it then: output-sensitive, each changed result tuple once, {@code -D} for those
 * that left. Entries that lost their support stay until the trigger.
 *
 * <p>Results whose root payloads are all non-zero but multiply to zero (a ring with zero divisors) are
 * skipped; for the integers, which have none, the delay stays constant. Written against
 * {@link QTreeStore}; holds reused buffers, so use one object per thread.
 *
 * @param <T> the payload type
 */
@Internal
public final class QTreeJoin<T> {
    private final Semiring<T> semiring;
    private final boolean changelog;
    private final int nodes;
    private final int[] parent;
    private final int[][] children;
    /** Per node: its index among its parent's children. */
    private final int[] childIndex;
    /** Per node: the length of its path. */
    private final int[] depth;
    /** Per node: the positions of its parent's path in its own key. */
    private final int[][] parentKey;
    /** Per node: the positions of its own path in a longer key (a descendant's). */
    private final int[][] pathKey;
    /** Per node: the trees whose root views sit there (a slot each). */
    private final int[][] treesAt;

    private final int[] nodeOfTree;
    private final int[] slotOfTree;
    /** Per tree: the positions, in its root tuple (head order), of its node's path variables. */
    private final int[][] pathOfTree;
    /** Per node other than the root: the head position of its variable. */
    private final int[] headOfNode;

    private final int headArity;
    /** Per anchor node: the nodes off its path (neither it, nor an ancestor), in pre-order. */
    private final int[][] freeNodes;
    /** Per anchor node: its path from the root, root first. */
    private final int[][] pathNodes;

    private long crossings;

    /** @param changelog whether {@link #trigger} is used (entries then remember the last trigger's state) */
    public QTreeJoin(QHierarchicalPlan plan, Semiring<T> semiring, boolean changelog) {
        plan.checkSemiring(semiring);
        this.semiring = semiring;
        this.changelog = changelog;
        List<QTreeNode> tree = plan.qTree();
        nodes = tree.size();
        parent = new int[nodes];
        children = new int[nodes][];
        childIndex = new int[nodes];
        depth = new int[nodes];
        parentKey = new int[nodes][];
        pathKey = new int[nodes][];
        treesAt = new int[nodes][];
        headOfNode = new int[nodes];
        List<String> head = plan.query().head();
        headArity = head.size();
        int trees = plan.viewTrees().size();
        nodeOfTree = new int[trees];
        slotOfTree = new int[trees];
        pathOfTree = new int[trees][];
        for (QTreeNode n : tree) {
            int id = n.id();
            parent[id] = n.parent();
            children[id] = toArray(n.children());
            for (int c = 0; c < children[id].length; c++) {
                childIndex[children[id][c]] = c;
            }
            depth[id] = n.path().size();
            pathKey[id] = new int[depth[id]];
            for (int i = 0; i < depth[id]; i++) {
                pathKey[id][i] = i;
            }
            parentKey[id] = java.util.Arrays.copyOf(pathKey[id], Math.max(0, depth[id] - 1));
            headOfNode[id] = n.variable() == null ? -1 : head.indexOf(n.variable());
            treesAt[id] = toArray(n.trees());
            for (int s = 0; s < treesAt[id].length; s++) {
                int t = treesAt[id][s];
                nodeOfTree[t] = id;
                slotOfTree[t] = s;
                ViewTree vt = plan.viewTrees().get(t);
                pathOfTree[t] = new int[n.path().size()];
                for (int i = 0; i < n.path().size(); i++) {
                    pathOfTree[t][i] = vt.schema().indexOf(n.path().get(i));
                }
            }
        }
        freeNodes = new int[nodes][];
        pathNodes = new int[nodes][];
        for (int anchor = 0; anchor < nodes; anchor++) {
            List<Integer> path = new ArrayList<>();
            for (int u = anchor; u >= 0; u = parent[u]) {
                path.add(0, u);
            }
            pathNodes[anchor] = toArray(path);
            List<Integer> free = new ArrayList<>();
            preorder(0, path, free);
            freeNodes[anchor] = toArray(free);
        }
    }

    private void preorder(int u, List<Integer> path, List<Integer> out) {
        if (!path.contains(u)) {
            out.add(u);
        }
        for (int c : children[u]) {
            preorder(c, path, out);
        }
    }

    private static int[] toArray(List<Integer> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }

    /** Whether the join keeps what {@link #trigger} needs. */
    public boolean keepsChangelog() {
        return changelog;
    }

    /** Root tuples whose payload turned non-zero so far (each time it did). */
    public long crossings() {
        return crossings;
    }

    /**
     * The payloads {@link #add} would leave after adding {@code deltas[i]} to root tuple {@code keys[i]}
     * of tree {@code trees[i]}, in order (a tuple may appear twice), computed without changing anything.
     *
     * @throws ArithmeticException if a sum overflows
     */
    public void check(QTreeStore<T> store, int count, int[] trees, Tuple[] keys, T[] deltas) {
        for (int i = 0; i < count; i++) {
            T sum = payload(store, trees[i], keys[i]);
            for (int j = 0; j < i; j++) {
                if (trees[j] == trees[i] && keys[j].equals(keys[i])) {
                    sum = sum == null ? deltas[j] : semiring.plus(sum, deltas[j]);
                }
            }
            if (sum != null) {
                semiring.plus(sum, deltas[i]);
            }
        }
    }

    /** The payload of root tuple {@code rootTuple} (head order) of tree {@code tree}, or null if zero. */
    @SuppressWarnings("unchecked") // slots hold payloads of this join's semiring
    public T payload(QTreeStore<T> store, int tree, Tuple rootTuple) {
        QTreeEntry<T> e = store.get(nodeOfTree[tree], rootTuple.project(pathOfTree[tree]));
        return e == null ? null : (T) e.payloads[slotOfTree[tree]];
    }

    /**
     * Adds {@code delta} to the payload of root tuple {@code rootTuple} (its tree's schema, head order) of
     * tree {@code tree}: the tuple joins if its payload turns non-zero and leaves if it returns to zero,
     * and the fitness of its entry and its ancestors follows, O(depth).
     *
     * @throws ArithmeticException if the sum overflows (nothing is changed)
     */
    @SuppressWarnings("unchecked") // slots hold payloads of this join's semiring
    public void add(QTreeStore<T> store, int tree, Tuple rootTuple, T delta) {
        int v = nodeOfTree[tree];
        int slot = slotOfTree[tree];
        Tuple key = rootTuple.project(pathOfTree[tree]);
        QTreeEntry<T> e = store.get(v, key);
        T old = e == null ? null : (T) e.payloads[slot];
        T updated = old == null ? delta : semiring.plus(old, delta);
        if (semiring.isZero(updated)) {
            updated = null;
        }
        if (e == null) {
            if (updated == null) {
                return;
            }
            e = create(store, v, key);
        }
        boolean wasFit = fit(v, e);
        if (changelog) {
            remember(store, v, key, e, slot, old);
        }
        e.payloads[slot] = updated;
        if (old == null && updated != null) {
            e.present++;
            crossings++;
        } else if (old != null && updated == null) {
            e.present--;
        }
        store.update(v, key, e);
        relink(store, v, key, e, wasFit, fit(v, e), false);
        if (!changelog) {
            release(store, v, key);
        }
    }

    /** A new entry for {@code key} at {@code v}, with the ancestors it needs; each counts as its parent's support. */
    private QTreeEntry<T> create(QTreeStore<T> store, int v, Tuple key) {
        QTreeEntry<T> e = new QTreeEntry<>(treesAt[v].length, children[v].length, changelog);
        if (v != 0) {
            Tuple pk = key.project(parentKey[v]);
            QTreeEntry<T> p = store.get(parent[v], pk);
            if (p == null) {
                p = create(store, parent[v], pk);
            }
            p.childEntries++;
            store.update(parent[v], pk, p);
        }
        store.add(v, key, e);
        return e;
    }

    /** Changelog: the slot's payload at the last trigger, kept at its first change since; the entry marked. */
    private void remember(QTreeStore<T> store, int v, Tuple key, QTreeEntry<T> e, int slot, T old) {
        if (e.then == null) {
            e.then = new Object[e.payloads.length];
            java.util.Arrays.fill(e.then, QTreeEntry.CLEAN);
        }
        if (e.then[slot] == QTreeEntry.CLEAN) {
            e.then[slot] = old;
        }
        if (!e.dirty) {
            e.dirty = true;
            store.markDirty(v, key);
        }
    }

    private boolean fit(int v, QTreeEntry<T> e) {
        return e.present == treesAt[v].length && e.liveChildren == children[v].length;
    }

    /**
     * The entry of {@code key} at {@code v} went from fit {@code was} to fit {@code now}: it joins or leaves
     * its parent's list (now, or at the trigger), and so on up while fitness flips.
     */
    private void relink(
            QTreeStore<T> store, int v, Tuple key, QTreeEntry<T> e, boolean was, boolean now, boolean then) {
        while (v != 0 && was != now) {
            int p = parent[v];
            Tuple pk = key.project(parentKey[v]);
            QTreeEntry<T> pe = store.get(p, pk);
            boolean parentWas = fit(p, pe);
            int c = childIndex[v];
            Tuple[] heads = pe.heads(then);
            if (now) {
                Tuple first = heads[c];
                e.link(then, true, null, first);
                if (first != null) {
                    QTreeEntry<T> f = store.get(v, first);
                    f.setPrev(then, key);
                    store.update(v, first, f);
                } else if (!then) {
                    pe.liveChildren++;
                }
                heads[c] = key;
            } else {
                Tuple prev = e.prev(then);
                Tuple next = e.next(then);
                if (prev == null) {
                    heads[c] = next;
                } else {
                    QTreeEntry<T> pr = store.get(v, prev);
                    pr.setNext(then, next);
                    store.update(v, prev, pr);
                }
                if (next != null) {
                    QTreeEntry<T> nx = store.get(v, next);
                    nx.setPrev(then, prev);
                    store.update(v, next, nx);
                }
                if (heads[c] == null && !then) {
                    pe.liveChildren--;
                }
                e.link(then, false, null, null);
            }
            store.update(v, key, e);
            store.update(p, pk, pe);
            if (then) {
                // The lists at the trigger follow the fitness now, entry by entry (see sync).
                return;
            }
            v = p;
            key = pk;
            e = pe;
            was = parentWas;
            now = fit(p, pe);
        }
    }

    /** Removes the entry of {@code key} at {@code v} and then its ancestors, while nothing supports them. */
    private void release(QTreeStore<T> store, int v, Tuple key) {
        QTreeEntry<T> e = store.get(v, key);
        while (e != null && e.unsupported() && !e.listed && !e.listedThen) {
            store.remove(v, key);
            if (v == 0) {
                return;
            }
            Tuple pk = key.project(parentKey[v]);
            v = parent[v];
            key = pk;
            e = store.get(v, key);
            e.childEntries--;
            store.update(v, key, e);
        }
    }

    /** The payload of result tuple {@code head}: the product of the root payloads at its projections, or zero. */
    public T payloadOf(QTreeStore<T> store, Tuple head) {
        T product = semiring.one();
        for (int t = 0; t < nodeOfTree.length; t++) {
            int[] path = pathNodes[nodeOfTree[t]];
            int[] positions = new int[path.length - 1];
            for (int i = 1; i < path.length; i++) {
                positions[i - 1] = headOfNode[path[i]];
            }
            QTreeEntry<T> e = store.get(nodeOfTree[t], head.project(positions));
            @SuppressWarnings("unchecked")
            T p = e == null ? null : (T) e.payloads[slotOfTree[t]];
            if (p == null) {
                return semiring.zero();
            }
            product = semiring.times(product, p);
        }
        return product;
    }

    /** The result with constant delay (between results whose payloads are not zero divisors' products). */
    public ResultCursor<T> cursor(QTreeStore<T> store) {
        Walk w = new Walk(store, false, 0, Tuple.EMPTY);
        return new ResultCursor<>() {
            private T payload;

            @Override
            public boolean next() {
                while (w.next()) {
                    payload = w.product(false);
                    if (payload != null) {
                        return true;
                    }
                }
                payload = null;
                return false;
            }

            @Override
            public Tuple tuple() {
                current();
                return w.head();
            }

            @Override
            public T payload() {
                return current();
            }

            private T current() {
                if (payload == null) {
                    throw new NoSuchElementException("the cursor is not at a result tuple");
                }
                return payload;
            }
        };
    }

    /**
     * The changes since the previous trigger: every result tuple whose payload changed, once, with its
     * payload now (null: it left the result) and then (null: it is new); then the entries are clean
     * again and those that nothing supports are removed. Output-sensitive: from each changed root tuple,
     * the results that contain it now and those that contained it then.
     */
    public void trigger(QTreeStore<T> store, Consumer<ResultChange<T>> out) {
        if (!changelog) {
            throw new IllegalStateException("this join was built without a changelog");
        }
        List<Object> dirty = new ArrayList<>();
        store.forEachDirty((node, key) -> {
            dirty.add(node);
            dirty.add(key);
        });
        for (int i = 0; i < dirty.size(); i += 2) {
            int v = (Integer) dirty.get(i);
            Tuple key = (Tuple) dirty.get(i + 1);
            QTreeEntry<T> e = store.get(v, key);
            for (int s = 0; s < treesAt[v].length; s++) {
                if (e.then[s] != QTreeEntry.CLEAN) {
                    emit(store, v, key, treesAt[v][s], false, out);
                    emit(store, v, key, treesAt[v][s], true, out);
                }
            }
        }
        for (int i = 0; i < dirty.size(); i += 2) {
            int v = (Integer) dirty.get(i);
            Tuple key = (Tuple) dirty.get(i + 1);
            QTreeEntry<T> e = store.get(v, key);
            e.then = null;
            e.dirty = false;
            store.update(v, key, e);
            sync(store, v, key);
        }
        for (int i = 0; i < dirty.size(); i += 2) {
            release(store, (Integer) dirty.get(i), (Tuple) dirty.get(i + 1));
        }
        store.clearDirty();
    }

    /** The lists at the trigger become the lists now, along the path of a changed entry. */
    private void sync(QTreeStore<T> store, int v, Tuple key) {
        for (; v != 0; key = key.project(parentKey[v]), v = parent[v]) {
            QTreeEntry<T> e = store.get(v, key);
            boolean now = fit(v, e);
            if (e.listedThen != now) {
                relink(store, v, key, e, e.listedThen, now, true);
            }
        }
    }

    /**
     * The changed results that contain root tuple {@code key} of {@code tree} (at node {@code v}) and no
     * changed root tuple of a tree with a lower index: from the results now ({@code then} false: inserts
     * and updates, and deletes of results whose product became zero), or from the results at the last
     * trigger that are no results now ({@code then} true: deletes).
     */
    private void emit(QTreeStore<T> store, int v, Tuple key, int tree, boolean then, Consumer<ResultChange<T>> out) {
        Walk w = new Walk(store, then, v, key);
        while (w.next()) {
            if (w.changedBelow(tree)) {
                continue;
            }
            T now = w.product(false);
            T before = w.product(true);
            if (then) {
                if (w.present(false) || before == null) {
                    continue;
                }
                out.accept(new ResultChange<>(w.head(), null, before));
            } else if (now == null ? before != null : !now.equals(before)) {
                out.accept(new ResultChange<>(w.head(), now, before));
            }
        }
    }

    /**
     * The results (now, or at the last trigger) that extend the entry of {@code key} at an anchor node:
     * one entry per node, the anchor's path fixed, every other node choosing its value from its parent's
     * list, nested loops in pre-order. The root as anchor gives the whole result.
     */
    private final class Walk {
        private final QTreeStore<T> store;
        private final boolean then;
        private final int[] free;
        private final Tuple[] keys = new Tuple[nodes];

        @SuppressWarnings("unchecked")
        private final QTreeEntry<T>[] entries = new QTreeEntry[nodes];

        private boolean started;
        private boolean done;

        Walk(QTreeStore<T> store, boolean then, int anchor, Tuple anchorKey) {
            this.store = store;
            this.then = then;
            this.free = freeNodes[anchor];
            for (int u : pathNodes[anchor]) {
                Tuple k = u == anchor ? anchorKey : anchorKey.project(pathKey[u]);
                keys[u] = k;
                entries[u] = store.get(u, k);
                if (entries[u] == null || !allPresent(u, entries[u], then)) {
                    done = true;
                    return;
                }
            }
        }

        boolean next() {
            if (done) {
                return false;
            }
            if (!started) {
                started = true;
                if (!descend(0)) {
                    done = true;
                }
                return !done;
            }
            for (int i = free.length - 1; i >= 0; i--) {
                int u = free[i];
                Tuple next = entries[u].next(then);
                while (next != null) {
                    keys[u] = next;
                    entries[u] = store.get(u, next);
                    if (descend(i + 1)) {
                        return true;
                    }
                    next = entries[u].next(then);
                }
            }
            done = true;
            return false;
        }

        /** Chooses the first value of every free node from position {@code from} on; false if a list is empty. */
        private boolean descend(int from) {
            for (int j = from; j < free.length; j++) {
                int u = free[j];
                Tuple first = entries[parent[u]].heads(then)[childIndex[u]];
                if (first == null) {
                    return false;
                }
                keys[u] = first;
                entries[u] = store.get(u, first);
            }
            return true;
        }

        /** Whether the current result holds a changed root tuple of a tree numbered below {@code tree}. */
        boolean changedBelow(int tree) {
            for (int t = 0; t < tree; t++) {
                QTreeEntry<T> e = entries[nodeOfTree[t]];
                if (e.then != null && e.then[slotOfTree[t]] != QTreeEntry.CLEAN) {
                    return true;
                }
            }
            return false;
        }

        /** Whether every root tuple of the current result is present (now, or at the last trigger). */
        boolean present(boolean atTrigger) {
            for (int u = 0; u < nodes; u++) {
                if (!allPresent(u, entries[u], atTrigger)) {
                    return false;
                }
            }
            return true;
        }

        /** The product of the current result's root payloads (now, or at the last trigger); null if zero. */
        @SuppressWarnings("unchecked")
        T product(boolean atTrigger) {
            T product = null;
            for (int u = 0; u < nodes; u++) {
                QTreeEntry<T> e = entries[u];
                for (int s = 0; s < treesAt[u].length; s++) {
                    T p = (T) slot(e, s, atTrigger);
                    if (p == null) {
                        return null;
                    }
                    product = product == null ? p : semiring.times(product, p);
                }
            }
            if (product == null) {
                product = semiring.one();
            }
            return semiring.isZero(product) ? null : product;
        }

        Tuple head() {
            Object[] values = new Object[headArity];
            for (int u = 1; u < nodes; u++) {
                values[headOfNode[u]] = keys[u].get(depth[u] - 1);
            }
            return Tuple.wrap(values);
        }
    }

    /** Whether every root view sitting at node {@code u} is present in {@code e} (now, or at the last trigger). */
    private boolean allPresent(int u, QTreeEntry<T> e, boolean atTrigger) {
        for (int s = 0; s < treesAt[u].length; s++) {
            if (slot(e, s, atTrigger) == null) {
                return false;
            }
        }
        return true;
    }

    private static Object slot(QTreeEntry<?> e, int s, boolean atTrigger) {
        return atTrigger && e.then != null && e.then[s] != QTreeEntry.CLEAN ? e.then[s] : e.payloads[s];
    }
}
