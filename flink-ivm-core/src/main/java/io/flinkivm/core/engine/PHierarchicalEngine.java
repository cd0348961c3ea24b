package io.flinkivm.core.engine;

import io.flinkivm.core.engine.join.BooleanJoin;
import io.flinkivm.core.engine.join.MemoryBooleanJoinStore;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Objects;

/**
 * The in-memory engine for the p-hierarchical plan: view trees over K in hash maps, root views,
 * and the Boolean join above the border. Amortized O(1) per insert; enumeration with constant
 * delay, payloads recovered by one lookup per root view. Not thread-safe.
 */
public final class PHierarchicalEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final ViewForest<T> forest;
    private final MemoryBooleanJoinStore joinStore;
    private final BooleanJoin join;

    public PHierarchicalEngine(PHierarchicalPlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public PHierarchicalEngine(PHierarchicalPlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")));
    }

    PHierarchicalEngine(PHierarchicalPlan plan, Semiring<T> semiring, MemoryMaps maps) {
        plan.checkSemiring(semiring);
        this.semiring = semiring;
        CompiledPlan compiled = new CompiledPlan(plan);
        this.joinStore = new MemoryBooleanJoinStore(compiled, maps);
        this.join = new BooleanJoin(compiled);
        this.forest = new ViewForest<>(plan, semiring, compiled, (tree, key, delta, old, updated, crosses) -> {
            if (crosses) {
                join.insert(joinStore, tree, key);
            }
        }, maps);
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return join.results(joinStore, semiring, forest::root);
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

    /** Join-view keys, root-view tuples and Boolean-join entries. */
    @Override
    public long stateEntries() {
        return forest.stateEntries() + joinStore.entries();
    }
}
