package io.flinkivm.core.engine;

import io.flinkivm.core.engine.border.LiveJoin;
import io.flinkivm.core.engine.cyclic.BagJoinStore;
import io.flinkivm.core.engine.cyclic.CompiledBagJoin;
import io.flinkivm.core.engine.cyclic.CyclicBooleanJoin;
import io.flinkivm.core.engine.join.CompiledJoinTree;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.InPlaceSum;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongBinaryOperator;
import org.apache.flink.annotation.Internal;

/**
 * Everything above the border, on one {@link JoinRecordStore}: the root views' payloads, one record
 * per root tuple, and the Boolean full join of the root tuples that crossed the border. For the
 * α-acyclic plan the join's nodes are the root views themselves, so a root tuple's payload and its
 * place in the join share one record; for the cyclic plan the join's nodes are the bags of the tree
 * decomposition ({@link CyclicBooleanJoin} materializes them) and the root records follow the bags'.
 *
 * <p>A root view receives deltas ({@link #add}): the first one makes the tuple cross the border (its
 * payload was zero: positive semirings only); later ones change its payload. The result is
 * enumerated with payloads recovered as the product of the root payloads ({@link #results}), and,
 * when built with a changelog, {@link #trigger} emits exactly the result tuples whose payload changed
 * since the previous trigger, each once, from the root tuples that changed: output-sensitive for the
 * acyclic plan; the cyclic plan compares each result with its payload at the previous trigger.
 *
 * <p>Shared by the in-memory engines and the Flink sink; one object per thread.
 *
 * @param <T> the payload type
 */
@Internal
public final class BorderJoin<T> {
    private final Semiring<T> semiring;
    private final CompiledJoinTree layout;
    private final CyclicBooleanJoin bagJoin;
    private final LiveJoin<T> join;
    private final boolean changelog;
    /** The semiring's sum on unboxed Long payloads, or null: records then keep their payloads boxed. */
    private final LongBinaryOperator unboxedPlus;
    /** The semiring's sum in place on payloads of several longs, or null. */
    private final InPlaceSum<T> inPlace;
    /** The record id of tree 0's root records: 0 for the acyclic plan, the number of bags for the cyclic one. */
    private final int rootBase;

    private final int trees;
    private long crossings;
    private long madeLive;

    /**
     * @param changelog whether {@link #trigger} is used: the join then keeps its in-join index and every
     *     record its change since the last trigger
     */
    public BorderJoin(ViewTreePlan plan, Semiring<T> semiring, boolean changelog) {
        this.semiring = semiring;
        this.changelog = changelog;
        this.unboxedPlus = semiring.unboxedPlus();
        this.inPlace = semiring.inPlaceSum();
        if (plan instanceof CyclicPHierarchicalPlan cyclic) {
            CompiledBagJoin bags = new CompiledBagJoin(cyclic);
            this.layout = bags;
            this.bagJoin = new CyclicBooleanJoin(bags);
            this.rootBase = bags.nodeCount();
        } else {
            this.layout = new CompiledPlan(plan);
            this.bagJoin = null;
            this.rootBase = 0;
        }
        this.trees = layout.treeCount();
        this.join = new LiveJoin<>(layout, changelog && bagJoin == null);
    }

    /** Whether the join keeps what {@link #trigger} needs. */
    public boolean keepsChangelog() {
        return changelog;
    }

    /** The join's layout (its nodes are the store's first record ids). */
    public JoinLayout layout() {
        return layout;
    }

    /** Record ids after the join's nodes that the store must hold (the cyclic plan's root records). */
    public int extraIds() {
        return bagJoin == null ? 0 : trees;
    }

    /** Whether the plan is cyclic (the store then also needs the bags' indexes, a {@link BagJoinStore}). */
    public boolean isCyclic() {
        return bagJoin != null;
    }

    /** The bags' layout (cyclic plan), to make a {@link BagJoinStore}; null for the acyclic plan. */
    public CompiledBagJoin bagLayout() {
        return bagJoin == null ? null : (CompiledBagJoin) layout;
    }

    /**
     * Adds {@code delta} to the payload of root tuple {@code tuple} of tree {@code tree}; if the tuple
     * had none, it crosses the border and joins the Boolean join.
     *
     * @param bags the bags' indexes (cyclic plan), or null
     * @return whether the tuple crossed the border
     * @throws ArithmeticException if the sum overflows (nothing is changed)
     */
    public boolean add(JoinRecordStore<T> store, BagJoinStore bags, int tree, Tuple tuple, T delta) {
        int id = rootBase + tree;
        JoinRecord<T> r = store.get(id, tuple);
        if (r != null) {
            if (unboxedPlus != null) {
                addUnboxed(store, id, tuple, r, delta);
                return false;
            }
            if (inPlace != null) {
                addInPlace(store, id, tuple, r, delta);
                return false;
            }
            T before = r.payload();
            T updated = semiring.plus(before, delta);
            if (changelog && r.dirty == JoinRecord.CLEAN && !updated.equals(before)) {
                r.dirty = JoinRecord.CHANGED;
                r.oldPayload = before;
                store.markDirty(id, tuple);
            }
            r.setPayload(updated);
            store.update(id, tuple, r);
            return false;
        }
        r = new JoinRecord<>(delta);
        if (unboxedPlus != null) {
            r.setUnboxedPayload((Long) delta);
        } else if (inPlace != null) {
            r.setLongs(inPlace, inPlace.toLongs(delta));
        }
        if (changelog) {
            r.dirty = JoinRecord.NEW;
            store.markDirty(id, tuple);
        }
        crossings++;
        if (bagJoin == null) {
            madeLive += join.insert(store, tree, tuple, r);
        } else {
            store.add(id, tuple, r);
            bagJoin.insert(bags, tree, tuple, (bag, bagTuple) -> {
                if (store.get(bag, bagTuple) != null) {
                    // A second insert would link the tuple into its lists twice and loop the enumeration.
                    throw new IllegalStateException("bag " + bag + " tuple " + bagTuple + " was produced twice");
                }
                JoinRecord<T> b = new JoinRecord<>();
                if (changelog) {
                    b.dirty = JoinRecord.NEW;
                    store.markDirty(bag, bagTuple);
                }
                madeLive += join.insert(store, bag, bagTuple, b);
            });
        }
        return true;
    }

    /**
     * {@link #add} to a present root tuple of a semiring whose payloads are Longs: the record keeps
     * its payload unboxed, so an update writes a primitive into the (long-lived) record instead of a
     * new object, which the garbage collector would have to track from an old record to a young object
     * on every update.
     */
    @SuppressWarnings("unchecked") // the semiring's payloads are Longs (it has an unboxed sum)
    private void addUnboxed(JoinRecordStore<T> store, int id, Tuple tuple, JoinRecord<T> r, T delta) {
        long before = r.unboxedPayload();
        long updated = unboxedPlus.applyAsLong(before, (Long) delta);
        if (changelog && r.dirty == JoinRecord.CLEAN && updated != before) {
            r.dirty = JoinRecord.CHANGED;
            r.oldPayload = (T) Long.valueOf(before);
            store.markDirty(id, tuple);
        }
        r.setUnboxedPayload(updated);
        store.update(id, tuple, r);
    }

    /**
     * {@link #add} to a present root tuple of a semiring with a sum in place: the record keeps its
     * payload's longs and the update adds to them, no payload object made (a record read with its payload
     * as an object gets its longs first). An overflow leaves the longs, and so the record, as they were.
     */
    private void addInPlace(JoinRecordStore<T> store, int id, Tuple tuple, JoinRecord<T> r, T delta) {
        long[] longs = r.longs();
        if (longs == null) {
            longs = inPlace.toLongs(r.payload());
            r.setLongs(inPlace, longs);
        }
        T before = changelog && r.dirty == JoinRecord.CLEAN ? r.payload() : null;
        if (inPlace.addTo(longs, delta) && before != null) {
            r.dirty = JoinRecord.CHANGED;
            r.oldPayload = before;
            store.markDirty(id, tuple);
        }
        store.update(id, tuple, r);
    }

    /**
     * The payloads {@link #add} would leave after adding {@code deltas[i]} to root tuple {@code keys[i]}
     * of tree {@code trees[i]}, in order (a tuple may appear twice), without changing anything.
     *
     * @throws ArithmeticException if a sum overflows
     */
    public void check(JoinRecordStore<T> store, int count, int[] trees, Tuple[] keys, T[] deltas) {
        for (int i = 0; i < count; i++) {
            JoinRecord<T> r = store.get(rootBase + trees[i], keys[i]);
            T sum = r == null ? null : r.payload();
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

    /** Root tuples that crossed the border through this object. */
    public long crossings() {
        return crossings;
    }

    /** Join tuples (root tuples, or bag tuples of the cyclic plan) this object made live. */
    public long madeLive() {
        return madeLive;
    }

    /** Bag tuples of bag {@code bag} produced through this object (cyclic plan; 0 otherwise). */
    public long bagTuples(int bag) {
        return bagJoin == null ? 0 : bagJoin.produced(bag);
    }

    /** Candidate values scanned by the bags' delta joins through this object (cyclic plan; 0 otherwise). */
    public long bagJoinScans() {
        return bagJoin == null ? 0 : bagJoin.scanned();
    }

    /** The payload of root tuple {@code tuple} of tree {@code tree}, or null. */
    public T payload(JoinRecordStore<T> store, int tree, Tuple tuple) {
        JoinRecord<T> r = store.get(rootBase + tree, tuple);
        return r == null ? null : r.payload();
    }

    /**
     * The payload of result tuple {@code head} (values of the free variables in head order): the
     * product of the root payloads at its projections, zero if one is absent.
     */
    public T payloadOf(JoinRecordStore<T> store, Tuple head) {
        T payload = semiring.one();
        for (int t = 0; t < trees; t++) {
            T v = payload(store, t, layout.rootKeyOfHead(t, head));
            if (v == null || semiring.isZero(v)) {
                return semiring.zero();
            }
            payload = semiring.times(payload, v);
        }
        return payload;
    }

    /** The result with constant delay, each tuple with its payload. */
    public Iterator<ResultTuple<T>> results(JoinRecordStore<T> store) {
        return join.results(store, semiring, bagJoin == null ? null : rootRecords(store));
    }

    /** The result of {@link #results}, read in place: no object per result tuple. */
    public ResultCursor<T> cursor(JoinRecordStore<T> store) {
        return join.cursor(store, semiring, bagJoin == null ? null : rootRecords(store));
    }

    private LiveJoin.RootRecords<T> rootRecords(JoinRecordStore<T> store) {
        return (tree, tuple) -> store.get(rootBase + tree, tuple);
    }

    /**
     * The changes since the previous trigger: every result tuple whose payload changed, once, with its
     * payload now and before (null: it is new), handed to {@code out}; then the records are clean again.
     * Output-sensitive for the acyclic plan: the work is proportional to the changed root tuples and the
     * changed result tuples. For the cyclic plan it enumerates the result and compares.
     */
    public void trigger(JoinRecordStore<T> store, Consumer<ResultChange<T>> out) {
        if (!changelog) {
            throw new IllegalStateException("this join was built without a changelog");
        }
        // The acyclic plan's first pass reads the dirty records; the second visits them in the same order.
        List<JoinRecord<T>> read = new ArrayList<>();
        if (bagJoin == null) {
            store.forEachDirty((node, tuple) -> {
                JoinRecord<T> r = store.get(node, tuple);
                read.add(r);
                for (Iterator<ResultChange<T>> it = join.changes(store, semiring, node, tuple, r, null);
                        it.hasNext(); ) {
                    out.accept(it.next());
                }
            });
        } else if (hasDirty(store)) {
            LiveJoin.RootRecords<T> records = rootRecords(store);
            for (Iterator<ResultChange<T>> it = join.compareAll(store, semiring, records); it.hasNext(); ) {
                out.accept(it.next());
            }
        }
        int[] next = {0};
        store.forEachDirty((node, tuple) -> {
            JoinRecord<T> r = bagJoin == null ? read.get(next[0]++) : store.get(node, tuple);
            r.dirty = JoinRecord.CLEAN;
            r.oldPayload = null;
            store.update(node, tuple, r);
        });
        store.clearDirty();
    }

    private static <T> boolean hasDirty(JoinRecordStore<T> store) {
        boolean[] any = {false};
        store.forEachDirty((node, tuple) -> any[0] = true);
        return any[0];
    }
}
