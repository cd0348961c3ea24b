package io.flinkivm.bench;

import io.flinkivm.core.query.Tuple;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code hash-map}, the memory-hierarchy peer of the core engines: not a query engine. Per insert it does
 * one upsert of the tuple into its relation's {@link HashMap} (payloads summed), timed like the engines,
 * which shows how the cost of a single hash-map update grows with n on the same stream. Its result is not
 * the query's and is not checked; its state operations are one per insert by construction.
 */
final class HashMapPeer implements CoreSystem {
    static final String NAME = "hash-map";

    private final int maxSize;

    HashMapPeer() {
        this(Integer.MAX_VALUE);
    }

    private HashMapPeer(int maxSize) {
        this.maxSize = maxSize;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Role role() {
        return Role.PEER;
    }

    @Override
    public int maxSize() {
        return maxSize;
    }

    @Override
    public HashMapPeer upTo(int n) {
        return new HashMapPeer(n);
    }

    @Override
    public String describe(Workload workload) {
        return name() + ": not a query engine: per insert one upsert of the tuple into its relation's"
                + " java.util.HashMap<Tuple, Long> (payloads summed), the cost of a single hash-map update at this n;"
                + " insert loop timed like the engines', single thread; its result is not the query's (not checked)"
                + (maxSize == Integer.MAX_VALUE ? "" : "; n <= " + maxSize);
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap) {
        Upserts upserts = new Upserts();
        long[] times = new long[2];
        int done = CoreSystem.timedInserts(upserts, stream, cap, times);
        // resultSize -1: not the query's result, so it takes no part in the harness's result check.
        return new RunResult(
                times[0],
                times[1],
                done == stream.size(),
                done,
                upserts.entries(),
                "entries",
                -1,
                0,
                done == stream.size() ? "" : "stopped after " + done + " of " + stream.size() + " inserts");
    }

    /** One upsert per insert by construction: nothing to count. */
    @Override
    public OperationCount countOperations(Workload workload, InsertStream stream, long inserts) {
        return new OperationCount(inserts, null, 0);
    }

    /** There is no query result to enumerate. */
    @Override
    public Enumeration measureEnumeration() {
        return null;
    }

    @Override
    public void releaseEngine() {}

    /** Per relation, each distinct tuple with the sum of its payloads. */
    private static final class Upserts implements Inserter {
        final Map<String, Map<Tuple, Long>> relations = new HashMap<>();

        @Override
        public void insert(String relation, Tuple tuple, Long payload) {
            Map<Tuple, Long> m = relations.get(relation);
            if (m == null) {
                m = new HashMap<>();
                relations.put(relation, m);
            }
            m.merge(tuple, payload, Long::sum);
        }

        long entries() {
            long total = 0;
            for (Map<Tuple, Long> m : relations.values()) {
                total += m.size();
            }
            return total;
        }
    }
}
