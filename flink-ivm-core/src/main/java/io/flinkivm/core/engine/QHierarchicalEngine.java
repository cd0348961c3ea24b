package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.qtree.MemoryQTreeStore;
import io.flinkivm.core.engine.qtree.QTreeJoin;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * The in-memory engine of the {@link QHierarchicalPlan}: the view trees over K in hash maps below the
 * border ({@link ViewForest}, the p-hierarchical engine's), and above it the root views in the entries
 * of the q-tree join ({@link QTreeJoin}). O(1) per insert or delete (a delete is the insert of the
 * inverse payload, over a ring), constant-delay enumeration; a view entry or q-tree entry whose payload
 * returns to zero is removed. Not thread-safe.
 */
final class QHierarchicalEngine<T> implements IvmEngine<T> {
    private final ViewForest<T> forest;
    private final QTreeJoin<T> join;
    private final MemoryQTreeStore<T> store;
    private final ConjunctiveQuery query;

    /** @param changelog whether {@link #changes} is used (the q-tree entries then remember the last trigger) */
    QHierarchicalEngine(QHierarchicalPlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        plan.checkSemiring(semiring);
        this.query = plan.query();
        this.join = new QTreeJoin<>(plan, semiring, changelog);
        this.store = new MemoryQTreeStore<>(plan.qTree().size(), maps);
        this.forest = new ViewForest<>(plan, semiring, new CompiledPlan(plan), this::addRootDeltas, maps);
    }

    /** The root deltas of one insert: all sums checked first, so that an overflow changes nothing. */
    @SuppressWarnings("unchecked") // the forest's deltas are payloads of this engine's semiring
    private void addRootDeltas(int count, int[] trees, Tuple[] keys, Object[] deltas) {
        T[] typed = (T[]) deltas;
        if (count > 1) {
            join.check(store, count, trees, keys, typed);
        }
        for (int i = 0; i < count; i++) {
            join.add(store, trees[i], keys[i], typed[i]);
        }
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return cursor().iterator();
    }

    @Override
    public ResultCursor<T> cursor() {
        return join.cursor(store);
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(query, headTuple);
        return join.payloadOf(store, headTuple);
    }

    @Override
    public long insertCount() {
        return forest.insertCount();
    }

    @Override
    public void changes(Consumer<ResultChange<T>> out) {
        if (!join.keepsChangelog()) {
            IvmEngine.super.changes(out);
        }
        join.trigger(store, out);
    }

    @Override
    public long borderCrossings() {
        return join.crossings();
    }

    /** Join-view keys and q-tree entries. */
    @Override
    public long stateEntries() {
        return forest.stateEntries() + store.entries();
    }
}
