package io.flinkivm.bench;

import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import java.time.Duration;

/**
 * A system of the core suite: it runs on the measuring thread and only its insert loop is timed. The
 * in-memory engines ({@link CoreEngineSystem}: {@link PHierarchicalSystem}, {@link AblationSystem},
 * {@link FallbackSystem}) and their memory-hierarchy peer {@link HashMapPeer}.
 */
interface CoreSystem extends SystemUnderTest {

    /** What a system is to the suite: its caps and ratio lines depend on it. */
    enum Role {
        /** The paper's plan, the system the others are compared with; a longer cap. */
        SUBJECT,
        /** Another plan for the same query (ablation, fallback). */
        ALTERNATIVE,
        /** Not a query engine: the cost of one hash-map update per insert; a longer cap, never run alone. */
        PEER
    }

    Role role();

    /** The same system, measured only on streams of at most {@code n} inserts. */
    CoreSystem upTo(int n);

    /**
     * Counts the state operations of the first {@code inserts} inserts of {@code stream} in an untimed run of
     * an engine whose maps count ({@link StateCounts}), not the timed one.
     */
    OperationCount countOperations(Workload workload, InsertStream stream, long inserts);

    /**
     * Times the enumeration of the full result of the last completed run against reading the same tuples from
     * a list, and forgets that run's engine; null if there is none or its result is empty.
     */
    Enumeration measureEnumeration();

    /** Forgets the engine of the last run (kept for {@link #measureEnumeration()}), so that its state can be collected. */
    void releaseEngine();

    /**
     * The state operations of a counted run.
     *
     * @param inserts inserts counted (a capped system's: as many as its timed run applied)
     * @param counts the engine's counts; null for the hash-map peer (one upsert per insert)
     * @param nanos wall time of the counting run
     */
    record OperationCount(long inserts, StateCounts counts, long nanos) {
        /** All reads and writes per insert (1 for the hash-map peer). */
        double perInsert() {
            return counts == null ? 1 : perInsert(counts.operations());
        }

        double perInsert(long count) {
            return inserts == 0 ? 0 : (double) count / inserts;
        }
    }

    /**
     * Enumeration rates of one result.
     *
     * @param tuples result tuples
     * @param engineNsPerTuple ns per tuple enumerated by the engine's iterator, payload recovered
     * @param listNsPerTuple ns per tuple read from a plain list
     * @param engineCpuNsPerTuple, listCpuNsPerTuple the same in this thread's CPU time plus GC time (-1 if unknown)
     * @param cursorNsPerTuple, cursorCpuNsPerTuple the same for the engine's cursor (no object per tuple)
     */
    record Enumeration(
            long tuples,
            double engineNsPerTuple,
            double listNsPerTuple,
            double engineCpuNsPerTuple,
            double listCpuNsPerTuple,
            double cursorNsPerTuple,
            double cursorCpuNsPerTuple) {}

    /** One insert of a stream into the system being timed. */
    interface Inserter {
        void insert(String relation, Tuple tuple, Long payload);
    }

    /** The cap is checked every this many inserts. */
    int CAP_CHECK_EVERY = 256;

    /**
     * The timed insert loop, the same for every core system: wall time and CPU time (this thread's plus GC,
     * {@link CpuClock}) into {@code times}; the cap is checked every {@value #CAP_CHECK_EVERY} inserts.
     *
     * @return the inserts applied (fewer than the stream's if the cap stopped the loop)
     */
    static int timedInserts(Inserter target, InsertStream stream, Duration cap, long[] times) {
        int n = stream.size();
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        long deadline = start + cap.toNanos();
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + CAP_CHECK_EVERY);
            for (; i < end; i++) {
                target.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
            }
            if (i < n && System.nanoTime() - deadline > 0) {
                break;
            }
        }
        times[0] = System.nanoTime() - start;
        times[1] = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        return i;
    }
}
