package io.flinkivm.core.engine.border;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.Walk;
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
import org.apache.flink.annotation.Internal;

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
@Internal
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
            return new FlatCursor<>(layout, fullWalk, store, semiring);
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
