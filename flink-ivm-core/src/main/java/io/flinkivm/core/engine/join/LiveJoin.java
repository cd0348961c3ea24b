package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;

/**
 * Insert-only maintenance of an α-acyclic full join above the border (after Abo Khamis, Kara,
 * Olteanu, Suciu 2024), over one {@link JoinRecord} per node tuple. A tuple is <em>live</em> when every
 * join child has a live tuple with a matching key; by induction a live tuple extends to a full join
 * result in its subtree. Each tuple becomes live at most once and waits at most once per child, so
 * the work is amortized O(1) per insert; enumeration scans the root's live tuples and walks the other
 * nodes' live lists with constant delay (per live root tuple), reading each payload from the record
 * it visits. (The root keeps no live list: every live root tuple is a result. A store may keep the
 * live root tuples apart, {@link JoinRecordStore#liveRecords}, and remember per root tuple the records
 * of the children whose key is their whole tuple, so that such a walk needs no lookup at all.)
 *
 * <p>With a changelog, the join also keeps which tuples are <em>in the join</em> (live, with an
 * in-join parent tuple for their key, up to the root) and, per child key, the list of in-join parent
 * tuples that have it. Each tuple enters the join at most once, so this too is amortized O(1). It lets
 * {@link #changes} enumerate, from each tuple that changed since the last trigger, exactly the full
 * join results that contain it, in any direction of the join tree and without dead ends: the delta
 * enumeration of CROWN (Wang, Hu, Dai, Yi 2023) on the insert-only join.
 *
 * <p>All state is in the {@link JoinRecordStore}, so the same logic serves the in-memory engines and
 * the Flink sink; the object holds reused work stacks and walk plans, so use one per thread.
 *
 * @param <T> the payload type
 */
public final class LiveJoin<T> {
    private final JoinLayout layout;
    private final boolean changelog;
    /** Per node: its key to the parent is its whole tuple, so its key's live "list" is the tuple itself. */
    private final boolean[] wholeKey;

    private final Walk fullWalk;
    /** Per anchor node: the walk from it over the whole tree (changelog only). */
    private final Walk[] anchoredWalks;

    private int[] stackNode = new int[16];
    private Tuple[] stackTuple = new Tuple[16];

    @SuppressWarnings("unchecked")
    private JoinRecord<T>[] stackRecord = new JoinRecord[16];

    private boolean[] stackFresh = new boolean[16];

    /**
     * @param changelog whether to keep the in-join index for {@link #changes} (it costs, per tuple that
     *     enters the join, one list entry per join child)
     */
    public LiveJoin(JoinLayout layout, boolean changelog) {
        if (layout.nodeCount() == 0) {
            throw new IllegalArgumentException("no join tree to maintain: " + layout
                    + "; the cyclic plan joins the bags of its tree decomposition (CompiledBagJoin)");
        }
        this.layout = layout;
        this.changelog = changelog;
        int n = layout.nodeCount();
        wholeKey = new boolean[n];
        for (int i = 0; i < n; i++) {
            wholeKey[i] = layout.keyIsTuple(i);
        }
        fullWalk = Walk.full(layout);
        anchoredWalks = new Walk[changelog ? n : 0];
        for (int i = 0; i < anchoredWalks.length; i++) {
            anchoredWalks[i] = Walk.anchored(layout, i);
        }
    }

    public JoinLayout layout() {
        return layout;
    }

    /** Whether the join keeps the in-join index for {@link #changes}. */
    public boolean keepsChangelog() {
        return changelog;
    }

    /**
     * Inserts {@code tuple}, new to {@code node}, with its record (payload set, not stored yet): the
     * tuple waits for the children whose key has no live tuple, or becomes live, which may make
     * waiting ancestors live. Stores the record. Each tuple of a node must be inserted at most once.
     *
     * @return the number of tuples (of any node) that became live
     */
    public int insert(JoinRecordStore<T> store, int node, Tuple tuple, JoinRecord<T> record) {
        int[] kids = layout.joinChildren(node);
        record.shape(kids.length, changelog);
        int missing = 0;
        for (int c = 0; c < kids.length; c++) {
            Tuple key = layout.keyOfChild(kids[c], tuple);
            if (!hasLive(store, kids[c], key)) {
                record.waitNext[c] = store.waitHead(node, c, key);
                store.setWaitHead(node, c, key, tuple);
                missing++;
            }
        }
        record.missing = missing;
        if (missing > 0) {
            store.add(node, tuple, record);
            return 0;
        }
        return makeLive(store, node, tuple, record);
    }

    /** Whether {@code node} has a live tuple with key {@code key} to its parent. */
    private boolean hasLive(JoinRecordStore<T> store, int node, Tuple key) {
        if (wholeKey[node]) {
            JoinRecord<T> r = store.get(node, key);
            return r != null && r.isLive();
        }
        return store.liveHead(node, key) != null;
    }

    /** Makes a tuple live (storing its record), then the waiting tuples it completes; returns how many became live. */
    private int makeLive(JoinRecordStore<T> store, int node, Tuple tuple, JoinRecord<T> record) {
        int top = push(0, node, tuple, record, true);
        int made = 0;
        try {
            while (top > 0) {
                top--;
                made++;
                int n = stackNode[top];
                Tuple t = stackTuple[top];
                JoinRecord<T> r = stackRecord[top];
                boolean fresh = stackFresh[top];
                stackTuple[top] = null;
                stackRecord[top] = null;
                r.missing = 0;
                r.clearWaiting();
                int parent = layout.joinParent(n);
                Tuple key = layout.keyToParent(n, t);
                boolean firstOfKey = true;
                if (!wholeKey[n] && parent >= 0) {
                    // The root keeps no live list: enumeration scans its records.
                    Tuple head = store.liveHead(n, key);
                    r.liveNext = head;
                    store.setLiveHead(n, key, t);
                    firstOfKey = head == null;
                }
                if (parent < 0) {
                    store.becameLive(n, t, r);
                }
                if (changelog && (parent < 0 || store.upHead(n, key) != null)) {
                    enterJoin(store, n, t, r);
                }
                if (fresh) {
                    store.add(n, t, r);
                } else {
                    store.update(n, t, r);
                }
                if (!firstOfKey || parent < 0) {
                    continue;
                }
                // The key's first live tuple: wake the parent's tuples waiting for it.
                int c = layout.childIndexInParent(n);
                Tuple waiting = store.waitHead(parent, c, key);
                if (waiting != null) {
                    store.setWaitHead(parent, c, key, null);
                }
                while (waiting != null) {
                    JoinRecord<T> w = store.get(parent, waiting);
                    Tuple next = w.waitNext[c];
                    w.waitNext[c] = null;
                    w.missing--;
                    if (w.missing == 0) {
                        top = push(top, parent, waiting, w, false);
                    } else {
                        store.update(parent, waiting, w);
                    }
                    waiting = next;
                }
            }
        } finally {
            // Keep no tuples reachable after a failed store call.
            Arrays.fill(stackTuple, 0, top, null);
            Arrays.fill(stackRecord, 0, top, null);
        }
        return made;
    }

    private int push(int top, int node, Tuple tuple, JoinRecord<T> record, boolean fresh) {
        if (top == stackNode.length) {
            stackNode = Arrays.copyOf(stackNode, 2 * top);
            stackTuple = Arrays.copyOf(stackTuple, 2 * top);
            stackRecord = Arrays.copyOf(stackRecord, 2 * top);
            stackFresh = Arrays.copyOf(stackFresh, 2 * top);
        }
        stackNode[top] = node;
        stackTuple[top] = tuple;
        stackRecord[top] = record;
        stackFresh[top] = fresh;
        return top + 1;
    }

    /**
     * A live tuple enters the full join: it joins the in-join lists of its children's keys, and a key
     * that gets its first in-join parent takes its live tuples into the join (recursively, down the
     * tree). The caller stores {@code record}.
     */
    private void enterJoin(JoinRecordStore<T> store, int node, Tuple tuple, JoinRecord<T> record) {
        record.inJoin = true;
        int[] kids = layout.joinChildren(node);
        for (int c = 0; c < kids.length; c++) {
            Tuple key = layout.keyOfChild(kids[c], tuple);
            Tuple head = store.upHead(kids[c], key);
            record.upNext[c] = head;
            store.setUpHead(kids[c], key, tuple);
            if (head == null) {
                connect(store, kids[c], key);
            }
        }
    }

    /** Key {@code key} of {@code node} got its first in-join parent: its live tuples enter the join. */
    private void connect(JoinRecordStore<T> store, int node, Tuple key) {
        if (wholeKey[node]) {
            JoinRecord<T> r = store.get(node, key);
            enterJoin(store, node, key, r);
            store.update(node, key, r);
            return;
        }
        for (Tuple t = store.liveHead(node, key); t != null; ) {
            JoinRecord<T> r = store.get(node, t);
            enterJoin(store, node, t, r);
            store.update(node, t, r);
            t = r.liveNext;
        }
    }

    /** Looks up the record of a root view's tuple (the cyclic plan's roots are not join nodes). */
    public interface RootRecords<T> {
        JoinRecord<T> get(int tree, Tuple rootTuple);
    }

    /**
     * Enumerates the query result with constant delay: each full-join tuple with its payload recovered
     * as the product of the root-view payloads at its projections (Sec. 4.5), read from the records the
     * walk visits (the acyclic plan, {@code roots} null) or looked up per root view ({@code roots}).
     */
    public Iterator<ResultTuple<T>> results(JoinRecordStore<T> store, Semiring<T> semiring, RootRecords<T> roots) {
        return cursor(store, semiring, roots).iterator();
    }

    /** The results of {@link #results}, read in place: no object per result tuple. */
    public ResultCursor<T> cursor(JoinRecordStore<T> store, Semiring<T> semiring, RootRecords<T> roots) {
        if (roots == null && fullWalk.isFlat()) {
            return new FlatCursor(store, semiring);
        }
        WalkIterator<T> it = fullIterator(store);
        return new ResultCursor<>() {
            private boolean at;
            private Tuple head;

            @Override
            public boolean next() {
                head = null;
                at = it.hasNext();
                if (at) {
                    it.next();
                }
                return at;
            }

            @Override
            public Tuple tuple() {
                if (!at) {
                    throw new NoSuchElementException("the cursor is not at a result tuple");
                }
                if (head == null) {
                    head = it.head();
                }
                return head;
            }

            @Override
            public T payload() {
                return LiveJoin.this.payload(semiring, it, tuple(), roots, false);
            }
        };
    }

    /** The full join as head tuples, with constant delay. */
    public Iterator<Tuple> enumerate(JoinRecordStore<T> store) {
        return each(fullIterator(store), WalkIterator::head);
    }

    /**
     * The results of a full walk in which every tuple follows from the root tuple (each step goes down
     * to a child whose key is its whole tuple, {@link Walk#isFlat}): one result per live root tuple,
     * without backtracking; the children's records come from the root scan's slots (step p's in slot
     * p - 1) once a walk looked them up. Payloads as in {@link #results}, of the acyclic plan (every
     * node a root view), recovered when they are read.
     */
    private final class FlatCursor implements ResultCursor<T> {
        private final Semiring<T> semiring;
        /** The semiring's product on unboxed Long payloads, or null. */
        private final LongBinaryOperator unboxedTimes;

        private final RecordScan<T> scan;
        private final WholeKeyLookups<T> lookups;
        /** Steps after the root's, one slot each. */
        private final int slots;
        /** The tuples of the current result by step, filled only to assemble a head tuple. */
        private final Tuple[] assembly;

        private boolean at;

        FlatCursor(JoinRecordStore<T> store, Semiring<T> semiring) {
            this.semiring = semiring;
            this.unboxedTimes = semiring.unboxedTimes();
            slots = fullWalk.slots;
            assembly = fullWalk.headStep >= 0 ? null : new Tuple[fullWalk.node.length];
            scan = store.liveRecords(fullWalk.node[0], slots);
            lookups = new WholeKeyLookups<>(store, layout.nodeCount(), !scan.remembers());
            // The root tuples new since the last enumeration get their slots here, in a loop of its
            // own: the loop that reads the results then looks nothing up (and compiles small).
            while (scan.nextToRemember()) {
                Tuple root = scan.tuple();
                for (int p = 1; p <= slots; p++) {
                    lookUp(p, root);
                }
            }
        }

        @Override
        public boolean next() {
            at = scan.next();
            return at;
        }

        /** The result tuple: the root tuple, a child's tuple as it is, or assembled. */
        @Override
        public Tuple tuple() {
            Tuple root = current();
            Walk w = fullWalk;
            if (w.headStep == 0) {
                return root;
            }
            if (w.headStep > 0) {
                return tupleOf(w.headStep, root);
            }
            for (int p = 0; p < assembly.length; p++) {
                assembly[p] = tupleOf(p, root);
            }
            return layout.assembleHead(assembly);
        }

        /** The product of the payloads of the root tuple and of the tuples that follow from it. */
        @Override
        public T payload() {
            Tuple root = current();
            JoinRecord<T> first = scan.record();
            if (unboxedTimes != null) {
                return unboxedProduct(root, first);
            }
            T product = first.payload();
            for (int p = 1; p <= slots; p++) {
                product = semiring.times(product, record(p, root).payload());
            }
            return product;
        }

        private Tuple current() {
            if (!at) {
                throw new NoSuchElementException("the cursor is not at a result tuple");
            }
            return scan.tuple();
        }

        private JoinRecord<T> record(int p, Tuple root) {
            JoinRecord<T> r = scan.slotRecord(p - 1);
            return r != null ? r : lookUp(p, root);
        }

        /**
         * The product on longs, boxed once. A record may hold its Long payload boxed (one read from
         * Flink's state, or restored): it is unboxed here, so that a row takes one object, not one per
         * factor.
         */
        @SuppressWarnings("unchecked") // a semiring with an unboxed product has Long payloads
        private T unboxedProduct(Tuple root, JoinRecord<T> first) {
            long product = first.unboxedPayload();
            for (int p = 1; p <= slots; p++) {
                product = unboxedTimes.applyAsLong(product, record(p, root).unboxedPayload());
            }
            return (T) Long.valueOf(product);
        }

        /**
         * The tuple of step {@code p}: the one the scan remembered, or (a scan that remembers nothing)
         * its key projected from its source's tuple.
         */
        private Tuple tupleOf(int p, Tuple root) {
            if (p == 0) {
                return root;
            }
            Tuple t = scan.slotTuple(p - 1);
            return t != null ? t : layout.keyOfChild(fullWalk.node[p], tupleOf(fullWalk.source[p], root));
        }

        /** The record of step {@code p} under its key (the first walk from this root tuple), remembered. */
        private JoinRecord<T> lookUp(int p, Tuple root) {
            int node = fullWalk.node[p];
            Tuple t = layout.keyOfChild(node, tupleOf(fullWalk.source[p], root));
            JoinRecord<T> r = lookups.live(node, t);
            scan.remember(p - 1, t, r);
            return r;
        }
    }

    /** An iterator over the full join, from the root's live tuples. */
    private WalkIterator<T> fullIterator(JoinRecordStore<T> store) {
        return new WalkIterator<>(layout, wholeKey, store, fullWalk, null, null, -1);
    }

    /** The walk's combinations, each as {@code f} makes it of the walk's current state. */
    private <R> Iterator<R> each(WalkIterator<T> it, Function<WalkIterator<T>, R> f) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public R next() {
                it.next();
                return f.apply(it);
            }
        };
    }

    /**
     * The results of the full join that contain {@code tuple} of {@code node} and no dirty tuple of a
     * node numbered below {@code node} (those are enumerated from that node), each with its payload now
     * and at the last trigger ({@code null}: it was not a result then, some tuple of it is new). The
     * records must carry the dirty marks of the current trigger. Empty when the tuple is not in the join.
     */
    public Iterator<ResultChange<T>> changes(
            JoinRecordStore<T> store,
            Semiring<T> semiring,
            int node,
            Tuple tuple,
            JoinRecord<T> record,
            RootRecords<T> roots) {
        if (!changelog) {
            throw new IllegalStateException("this join keeps no changelog index");
        }
        if (!record.inJoin) {
            return Collections.emptyIterator();
        }
        WalkIterator<T> it = new WalkIterator<>(layout, wholeKey, store, anchoredWalks[node], tuple, record, node);
        return changesOf(it, semiring, roots);
    }

    /** The walk's results whose payload changed since the last trigger, with both payloads. */
    private Iterator<ResultChange<T>> changesOf(WalkIterator<T> it, Semiring<T> semiring, RootRecords<T> roots) {
        return new Iterator<>() {
            private ResultChange<T> next;

            @Override
            public boolean hasNext() {
                while (next == null && it.hasNext()) {
                    it.next();
                    Tuple head = it.head();
                    T now = payload(semiring, it, head, roots, false);
                    T then = payload(semiring, it, head, roots, true);
                    if (then == null || !then.equals(now)) {
                        next = new ResultChange<>(head, now, then);
                    }
                }
                return next != null;
            }

            @Override
            public ResultChange<T> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ResultChange<T> out = next;
                next = null;
                return out;
            }
        };
    }

    /**
     * Every result of the full join whose payload differs from its payload at the last trigger (or
     * that is new), by a full enumeration: for a join whose dirty tuples cannot be anchored (the
     * cyclic plan's root payloads live outside the join's nodes).
     */
    public Iterator<ResultChange<T>> compareAll(JoinRecordStore<T> store, Semiring<T> semiring, RootRecords<T> roots) {
        WalkIterator<T> it = fullIterator(store);
        return changesOf(it, semiring, roots);
    }

    /**
     * The product of the root payloads of the walk's current result: now, or at the last trigger
     * ({@code old}; null if a tuple of it is new since then).
     */
    private T payload(Semiring<T> semiring, WalkIterator<T> it, Tuple head, RootRecords<T> roots, boolean old) {
        if (old) {
            for (JoinRecord<T> r : it.records) {
                if (r.dirty == JoinRecord.NEW) {
                    return null;
                }
            }
        }
        int factors = roots == null ? it.records.length : layout.treeCount();
        T product = null;
        for (int i = 0; i < factors; i++) {
            JoinRecord<T> r = roots == null ? it.records[i] : roots.get(i, layout.rootKeyOfHead(i, head));
            if (old && r.dirty == JoinRecord.NEW) {
                return null;
            }
            T p = old && r.dirty == JoinRecord.CHANGED ? r.oldPayload : r.payload();
            product = product == null ? p : semiring.times(product, p);
        }
        return product;
    }
}
