package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;

/**
 * The in-memory engine for the p-hierarchical plan: view trees over K in hash maps, root views,
 * and the Boolean join above the border. Amortized O(1) per insert; enumeration with constant
 * delay, payloads recovered by one lookup per root view. Not thread-safe.
 */
public final class PHierarchicalEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final CompiledPlan compiled;
    private final ViewForest<T> forest;
    private final MemoryBooleanJoinStore joinStore;
    private final BooleanJoin join;
    private long inserts;
    private long borderCrossings;

    public PHierarchicalEngine(MaintenancePlan plan, Semiring<T> semiring) {
        Engines.checkSemiring(plan, semiring);
        this.semiring = semiring;
        this.compiled = new CompiledPlan(plan);
        this.joinStore = new MemoryBooleanJoinStore(compiled);
        this.join = new BooleanJoin(compiled);
        this.forest = new ViewForest<>(plan, semiring, compiled, (tree, key, delta, old, updated) -> {
            if (RootViewLogic.crossesBorder(semiring, old, updated)) {
                borderCrossings++;
                join.insert(joinStore, tree, key);
            }
        });
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
        inserts++;
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return join.results(joinStore, semiring, forest::root);
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(compiled.plan().query(), headTuple);
        T payload = semiring.one();
        for (int i = 0; i < compiled.treeCount(); i++) {
            T v = forest.root(i, compiled.rootKeyOfHead(i, headTuple));
            if (v == null || semiring.isZero(v)) {
                return semiring.zero();
            }
            payload = semiring.times(payload, v);
        }
        return payload;
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    /** Root tuples that crossed the border so far. */
    public long borderCrossings() {
        return borderCrossings;
    }

    /** Number of state entries: join-view keys, root-view tuples and Boolean-join entries. */
    public long stateEntries() {
        return forest.stateEntries() + joinStore.entries();
    }
}
