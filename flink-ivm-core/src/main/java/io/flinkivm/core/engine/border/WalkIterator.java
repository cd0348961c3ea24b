package io.flinkivm.core.engine.border;

import static io.flinkivm.core.engine.join.Walk.DOWN;
import static io.flinkivm.core.engine.join.Walk.FIXED;
import static io.flinkivm.core.engine.join.Walk.ROOTS;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.RecordScan;
import io.flinkivm.core.engine.join.Walk;
import io.flinkivm.core.query.Tuple;
import java.util.NoSuchElementException;

/**
 * Backtracking over a {@link Walk}: one result per position, constant delay without pruning. After
 * {@link #next}, {@link #tuples} and {@link #records} hold the current result by step.
 *
 * @param <T> the payload type
 */
final class WalkIterator<T> {
    private final JoinLayout layout;
    /** Per node: its key to the parent is its whole tuple ({@link JoinLayout#keyIsTuple}). */
    private final boolean[] wholeKey;

    private final JoinRecordStore<T> store;
    private final Walk walk;
    private final Tuple anchorTuple;
    private final JoinRecord<T> anchorRecord;
    /** Prune dirty tuples of nodes numbered below this one (-1: no pruning). */
    private final int anchorNode;

    final Tuple[] tuples;
    final JoinRecord<T>[] records;
    private final Tuple[] byOrder;
    /** The scan of the root's live records (a full walk). */
    private RecordScan<T> roots;
    /**
     * Children by whole-tuple key, made at the first lookup (or with the root scan, whose records it
     * keeps if the scan remembers nothing).
     */
    private WholeKeyLookups<T> lookups;

    private boolean ready;
    private boolean done;
    private boolean started;

    /**
     * An iterator over {@code walk} in {@code store}: from the root's live tuples (a full walk, anchor
     * null and {@code anchorNode} -1), or from {@code anchorTuple} of {@code anchorNode}, with its
     * record, skipping the dirty tuples of nodes numbered below it.
     */
    @SuppressWarnings("unchecked")
    WalkIterator(
            JoinLayout layout,
            boolean[] wholeKey,
            JoinRecordStore<T> store,
            Walk walk,
            Tuple anchorTuple,
            JoinRecord<T> anchorRecord,
            int anchorNode) {
        this.layout = layout;
        this.wholeKey = wholeKey;
        this.store = store;
        this.walk = walk;
        this.anchorTuple = anchorTuple;
        this.anchorRecord = anchorRecord;
        this.anchorNode = anchorNode;
        tuples = new Tuple[walk.node.length];
        records = new JoinRecord[walk.node.length];
        byOrder = new Tuple[walk.node.length];
    }

    boolean hasNext() {
        if (!ready && !done) {
            ready = started ? search(walk.node.length - 1, false) : search(0, true);
            started = true;
            done = !ready;
        }
        return ready;
    }

    void next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        ready = false;
    }

    /** The current result's head tuple. */
    Tuple head() {
        if (walk.headStep >= 0) {
            return tuples[walk.headStep];
        }
        for (int s = 0; s < tuples.length; s++) {
            byOrder[walk.orderPosition[s]] = tuples[s];
        }
        return layout.assembleHead(byOrder);
    }

    /** Moves to the next complete combination, starting at step {@code p} (its first candidate, or its next). */
    private boolean search(int p, boolean fresh) {
        int last = walk.node.length - 1;
        while (true) {
            boolean found = fresh ? first(p) : advance(p);
            if (found) {
                if (p == last) {
                    return true;
                }
                p++;
                fresh = true;
            } else {
                tuples[p] = null;
                records[p] = null;
                p--;
                if (p < 0) {
                    return false;
                }
                fresh = false;
            }
        }
    }

    /** Places step {@code p}'s first candidate; false if there is none. */
    private boolean first(int p) {
        int node = walk.node[p];
        Tuple t;
        switch (walk.how[p]) {
            case FIXED -> {
                tuples[p] = anchorTuple;
                records[p] = anchorRecord;
                return true;
            }
            case ROOTS -> {
                roots = store.liveRecords(node, walk.slots);
                lookups = new WholeKeyLookups<>(store, layout.nodeCount(), !roots.remembers());
                return nextRoot(p);
            }
            case DOWN -> {
                if (wholeKey[node]) {
                    return placeWhole(p, node);
                }
                t = store.liveHead(node, layout.keyOfChild(node, tuples[walk.source[p]]));
            }
            default -> {
                int child = walk.node[walk.source[p]];
                t = store.upHead(child, layout.keyToParent(child, tuples[walk.source[p]]));
            }
        }
        return place(p, t);
    }

    /** Places step {@code p}'s next candidate after the current one; false if there is none. */
    private boolean advance(int p) {
        if (walk.how[p] == ROOTS) {
            return nextRoot(p);
        }
        return place(p, following(p, records[p]));
    }

    /** Places the root's next live tuple of the scan (the root's live tuples are those in the join). */
    private boolean nextRoot(int p) {
        if (roots.next()) {
            tuples[p] = roots.tuple();
            records[p] = roots.record();
            return true;
        }
        return false;
    }

    /**
     * Places the one candidate of a step down to a child whose key is its whole tuple: the one the
     * root scan remembered for this root tuple, or the one under the key (then remembered).
     */
    private boolean placeWhole(int p, int node) {
        int slot = walk.slot[p];
        JoinRecord<T> r = slot >= 0 ? roots.slotRecord(slot) : null;
        Tuple t;
        if (r != null) {
            t = roots.slotTuple(slot);
        } else {
            t = layout.keyOfChild(node, tuples[walk.source[p]]);
            if (lookups == null) {
                lookups = new WholeKeyLookups<>(store, layout.nodeCount(), false);
            }
            r = lookups.live(node, t);
            if (slot >= 0) {
                roots.remember(slot, t, r);
            }
        }
        if (anchorNode >= 0 && node < anchorNode && r.dirty != JoinRecord.CLEAN) {
            return false;
        }
        tuples[p] = t;
        records[p] = r;
        return true;
    }

    private Tuple following(int p, JoinRecord<T> r) {
        return switch (walk.how[p]) {
            case FIXED -> null;
            case DOWN -> wholeKey[walk.node[p]] ? null : r.liveNext;
            case ROOTS -> throw new IllegalStateException("the root is scanned");
            default -> r.upNext[layout.childIndexInParent(walk.node[walk.source[p]])];
        };
    }

    /** Places candidate {@code t} of step {@code p}, or the first after it that is not pruned. */
    private boolean place(int p, Tuple t) {
        int node = walk.node[p];
        while (t != null) {
            JoinRecord<T> r = store.get(node, t);
            if (r == null || !r.isLive()) {
                throw new IllegalStateException("join list of node " + node + " holds " + t + " without a live record");
            }
            if (anchorNode < 0 || node >= anchorNode || r.dirty == JoinRecord.CLEAN) {
                tuples[p] = t;
                records[p] = r;
                return true;
            }
            t = following(p, r);
        }
        return false;
    }
}
