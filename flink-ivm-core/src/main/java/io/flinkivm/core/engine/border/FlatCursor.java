package io.flinkivm.core.engine.border;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.RecordScan;
import io.flinkivm.core.engine.join.Walk;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.NoSuchElementException;
import java.util.function.LongBinaryOperator;

/**
 * The results of a full walk in which every tuple follows from the root tuple (each step goes down
 * to a child whose key is its whole tuple, {@link Walk#isFlat}): one result per live root tuple,
 * without backtracking; the children's records come from the root scan's slots (step p's in slot
 * p - 1) once a walk looked them up. Payloads as in {@link LiveJoin#results}, of the acyclic plan
 * (every node a root view), recovered when they are read.
 *
 * @param <T> the payload type
 */
final class FlatCursor<T> implements ResultCursor<T> {
    private final JoinLayout layout;
    /** A flat full walk. */
    private final Walk walk;

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

    /**
     * A cursor over the results of {@code walk}, a flat full walk of {@code layout}, in {@code store};
     * first it fills the slots of the live root tuples that have none yet.
     */
    FlatCursor(JoinLayout layout, Walk walk, JoinRecordStore<T> store, Semiring<T> semiring) {
        this.layout = layout;
        this.walk = walk;
        this.semiring = semiring;
        this.unboxedTimes = semiring.unboxedTimes();
        slots = walk.slots;
        assembly = walk.headStep >= 0 ? null : new Tuple[walk.node.length];
        scan = store.liveRecords(walk.node[0], slots);
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
        if (walk.headStep == 0) {
            return root;
        }
        if (walk.headStep > 0) {
            return tupleOf(walk.headStep, root);
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
        return t != null ? t : layout.keyOfChild(walk.node[p], tupleOf(walk.source[p], root));
    }

    /** The record of step {@code p} under its key (the first walk from this root tuple), remembered. */
    private JoinRecord<T> lookUp(int p, Tuple root) {
        int node = walk.node[p];
        Tuple t = layout.keyOfChild(node, tupleOf(walk.source[p], root));
        JoinRecord<T> r = lookups.live(node, t);
        scan.remember(p - 1, t, r);
        return r;
    }
}
