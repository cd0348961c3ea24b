package io.flinkivm.flink.ingest;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.RootDeltaBatch;
import java.util.Arrays;

/**
 * The ingest's mini-batch of root deltas for the trees without state below the root: a delta is
 * summed with the epoch's other deltas of the same root tuple, as a view tree operator's mini-batch
 * (and Flink SQL's local aggregation) does, so a root tuple that many inserts of the batch reach costs
 * the shuffle and the sink one update. The batches hold the current epoch's deltas of up to
 * {@code miniBatch} root tuples in all and go out when they are full and when the ingest calls
 * {@link #flush} (before the epoch's end and before a checkpoint barrier, so they are never part of a
 * checkpoint). A tree whose batch saved less than an eighth of its updates (its root tuples rarely
 * repeat, as TPC-H's orders) sends its next {@value #BYPASS_BATCHES} batches' worth at once instead,
 * then tries again. Not thread-safe.
 */
final class DirectBatches<T> {
    /** Batches' worth of root updates a tree sends at once after a batch that saved too little. */
    static final int BYPASS_BATCHES = 8;

    /** Per tree: its batch, or null for a tree that is not batched. */
    private final RootDeltaBatch<T>[] pending;
    /** Per batched tree: sends a root tuple's sum to the sink (in the ingest's current epoch). */
    private final RootDeltaBatch.Sink<T>[] send;

    private final int miniBatch;
    /** Root tuples in all batches. */
    private int pendingTuples;
    /** Per tree: root updates batched since the last flush for size (to see what batching saves). */
    private final long[] batched;
    /** Per tree: root updates still to send at once, without batching (batching saved too little). */
    private final long[] bypass;

    /**
     * @param batchedTrees per tree, whether its root deltas are batched here
     * @param send per tree, where a root tuple's sum goes
     */
    @SuppressWarnings("unchecked") // arrays of a generic type, filled with T's batches and sinks only
    DirectBatches(Semiring<T> semiring, boolean[] batchedTrees, int miniBatch, RootDeltaBatch.Sink<T>[] send) {
        this.pending = new RootDeltaBatch[batchedTrees.length];
        for (int t = 0; t < batchedTrees.length; t++) {
            if (batchedTrees[t]) {
                pending[t] = new RootDeltaBatch<>(semiring);
            }
        }
        this.send = send.clone();
        this.miniBatch = miniBatch;
        this.batched = new long[batchedTrees.length];
        this.bypass = new long[batchedTrees.length];
    }

    /** Adds the root delta of {@code key} of tree {@code tree}, a batched one, or sends it at once while bypassed. */
    void add(int tree, Tuple key, T payload) {
        if (bypass[tree] > 0) {
            bypass[tree]--;
            send[tree].send(key, payload);
            return;
        }
        batched[tree]++;
        if (pending[tree].add(key, payload, send[tree]) && ++pendingTuples >= miniBatch) {
            flushForSize();
        }
    }

    /** Per batched tree: goes on batching if the batch saved at least an eighth of its updates. */
    private void flushForSize() {
        for (int t = 0; t < pending.length; t++) {
            if (pending[t] != null && batched[t] > 0) {
                long saved = batched[t] - pending[t].size();
                if (saved * 8 < batched[t]) {
                    bypass[t] = BYPASS_BATCHES * (long) miniBatch;
                }
            }
        }
        flush();
    }

    /** Sends every batched root delta to the sink. */
    void flush() {
        if (pendingTuples == 0) {
            return;
        }
        for (int t = 0; t < pending.length; t++) {
            if (pending[t] != null) {
                pending[t].drain(send[t]);
            }
        }
        Arrays.fill(batched, 0);
        pendingTuples = 0;
    }
}
