package io.flinkivm.flink.common;

import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;

/**
 * Root deltas of one view tree waiting for the sink, summed per root tuple (a mini-batch, as Flink
 * SQL's local aggregation sums before its shuffle): the view tree operators and the ingest keep one
 * per tree, each of one epoch at a time, and send its sums when it is full, when its epoch ends and
 * before a checkpoint barrier. In core's {@link OpenHashMap}: no entry object per root tuple and
 * none per delta. Not thread-safe.
 *
 * @param <T> the payload type
 */
@Internal
public final class RootDeltaBatch<T> {

    /** Receives a root tuple's summed delta. */
    @FunctionalInterface
    public interface Sink<T> {
        void send(Tuple rootTuple, T delta);
    }

    private final Semiring<T> semiring;
    private final OpenHashMap<Tuple, T> sums = new OpenHashMap<>();

    public RootDeltaBatch(Semiring<T> semiring) {
        this.semiring = semiring;
    }

    /**
     * Adds {@code delta} to root tuple {@code rootTuple}'s sum; a sum that would overflow sends the
     * earlier deltas to {@code overflow} alone (the sink then reports what it cannot add) and starts
     * again from {@code delta}.
     *
     * @return whether the root tuple is new to the batch
     */
    public boolean add(Tuple rootTuple, T delta, Sink<T> overflow) {
        int e = sums.entry(rootTuple);
        if (e < 0) {
            // The entry first: adding it may grow the map's arrays.
            int added = sums.base(sums.addEntry(rootTuple));
            sums.slots()[added] = delta;
            return true;
        }
        Object[] slots = sums.slots();
        int slot = sums.base(e);
        @SuppressWarnings("unchecked")
        T before = (T) slots[slot];
        try {
            slots[slot] = semiring.plus(before, delta);
        } catch (ArithmeticException tooLarge) {
            overflow.send(rootTuple, before);
            slots[slot] = delta;
        }
        return false;
    }

    /** Root tuples in the batch. */
    public int size() {
        return sums.size();
    }

    /** Sends every root tuple's sum to {@code to} and empties the batch. */
    public void drain(Sink<T> to) {
        if (sums.size() == 0) {
            return;
        }
        Object[] slots = sums.slots();
        for (int i = 0; i < sums.capacity(); i++) {
            Tuple rootTuple = sums.keyAt(i);
            if (rootTuple != null) {
                @SuppressWarnings("unchecked")
                T sum = (T) slots[sums.base(i)];
                to.send(rootTuple, sum);
            }
        }
        sums.clear();
    }
}
