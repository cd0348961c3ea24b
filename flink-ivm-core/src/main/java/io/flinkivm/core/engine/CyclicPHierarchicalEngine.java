package io.flinkivm.core.engine;

import io.flinkivm.core.engine.join.CompiledBagJoin;
import io.flinkivm.core.engine.join.CyclicBooleanJoin;
import io.flinkivm.core.engine.join.MemoryBagJoinStore;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Objects;

/**
 * The in-memory engine for the cyclic p-hierarchical plan: the view trees over K below the border
 * (as in {@link PHierarchicalEngine}), and above it the bags of the plan's tree decomposition with
 * the Boolean join over them ({@link CyclicBooleanJoin}). Amortized O(N^(fhtw-1)) per insert;
 * enumeration with constant delay, payloads recovered by one lookup per root view. Not thread-safe.
 */
public final class CyclicPHierarchicalEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final ViewForest<T> forest;
    private final MemoryBagJoinStore store;
    private final CyclicBooleanJoin join;
    private long bagTuples;

    public CyclicPHierarchicalEngine(CyclicPHierarchicalPlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public CyclicPHierarchicalEngine(CyclicPHierarchicalPlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")));
    }

    CyclicPHierarchicalEngine(CyclicPHierarchicalPlan plan, Semiring<T> semiring, MemoryMaps maps) {
        plan.checkSemiring(semiring);
        this.semiring = semiring;
        CompiledPlan compiled = new CompiledPlan(plan);
        CompiledBagJoin bags = new CompiledBagJoin(plan);
        this.store = new MemoryBagJoinStore(bags, maps);
        this.join = new CyclicBooleanJoin(bags);
        this.forest = new ViewForest<>(plan, semiring, compiled, (tree, key, delta, old, updated, crosses) -> {
            if (crosses) {
                bagTuples += join.insert(store, tree, key);
            }
        }, maps);
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return join.results(store, semiring, forest::root);
    }

    @Override
    public T lookup(Tuple headTuple) {
        return forest.payloadOf(headTuple);
    }

    @Override
    public long insertCount() {
        return forest.insertCount();
    }

    @Override
    public long borderCrossings() {
        return forest.borderCrossings();
    }

    /** Bag tuples materialized so far (each counted once). */
    public long bagTuples() {
        return bagTuples;
    }

    /** Candidate values scanned by the bags' delta joins so far (their work, in steps). */
    public long bagJoinScans() {
        return join.scanned();
    }

    /** Join-view keys, root-view tuples, bag indexes and Boolean-join entries. */
    @Override
    public long stateEntries() {
        return forest.stateEntries() + store.entries();
    }
}
