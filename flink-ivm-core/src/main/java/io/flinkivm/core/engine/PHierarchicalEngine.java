package io.flinkivm.core.engine;

import io.flinkivm.core.engine.border.MemoryJoinRecordStore;
import io.flinkivm.core.engine.cyclic.MemoryBagJoinStore;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * The in-memory engine for the p-hierarchical plans: the view trees over K in hash maps below the
 * border, and above it the root views with the Boolean join of their tuples ({@link BorderJoin}),
 * directly for the α-acyclic plan, over the bags of a tree decomposition for the cyclic plan.
 * Amortized O(1) per insert for the α-acyclic plan (O(N^(fhtw-1)) for the cyclic one); enumeration
 * with constant delay, payloads read where the enumeration finds the root tuples. Not thread-safe.
 */
@Internal
public final class PHierarchicalEngine<T> implements IvmEngine<T> {
    private final ViewForest<T> forest;
    private final BorderJoin<T> border;
    private final MemoryJoinRecordStore<T> store;
    private final MemoryBagJoinStore bags;
    private final ConjunctiveQuery query;

    public PHierarchicalEngine(ViewTreePlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN, false);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public PHierarchicalEngine(ViewTreePlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")), false);
    }

    /**
     * @param changelog whether {@link #changes} is used (the join then keeps its changelog index)
     */
    PHierarchicalEngine(ViewTreePlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        plan.checkSemiring(semiring);
        this.query = plan.query();
        CompiledPlan compiled = new CompiledPlan(plan);
        this.border = new BorderJoin<>(plan, semiring, changelog);
        this.store = new MemoryJoinRecordStore<>(border.layout(), border.extraIds(), maps);
        this.bags = border.isCyclic() ? new MemoryBagJoinStore(border.bagLayout(), maps) : null;
        this.forest = new ViewForest<>(plan, semiring, compiled, this::addRootDeltas, maps);
    }

    /** The root deltas of one insert: all sums checked first, so that an overflow changes nothing. */
    @SuppressWarnings("unchecked") // the forest's deltas are payloads of this engine's semiring
    private void addRootDeltas(int count, int[] trees, Tuple[] keys, Object[] deltas) {
        T[] typed = (T[]) deltas;
        if (count > 1) {
            // One delta fails before it changes anything; several must all be possible first.
            border.check(store, count, trees, keys, typed);
        }
        for (int i = 0; i < count; i++) {
            border.add(store, bags, trees[i], keys[i], typed[i]);
        }
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return border.results(store);
    }

    @Override
    public ResultCursor<T> cursor() {
        return border.cursor(store);
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(query, headTuple);
        return border.payloadOf(store, headTuple);
    }

    @Override
    public long insertCount() {
        return forest.insertCount();
    }

    @Override
    public void changes(Consumer<ResultChange<T>> out) {
        if (!border.keepsChangelog()) {
            IvmEngine.super.changes(out);
        }
        border.trigger(store, out);
    }

    @Override
    public long borderCrossings() {
        return border.crossings();
    }

    /** Bag tuples materialized so far (cyclic plan; each counted once). */
    public long bagTuples() {
        long total = 0;
        for (int b = 0; bags != null && b < border.layout().nodeCount(); b++) {
            total += border.bagTuples(b);
        }
        return total;
    }

    /** Candidate values scanned by the bags' delta joins so far (cyclic plan: their work, in steps). */
    public long bagJoinScans() {
        return border.bagJoinScans();
    }

    /** Join-view keys, root records and the join's lists (and the bags' indexes). */
    @Override
    public long stateEntries() {
        return forest.stateEntries() + store.entries() + (bags == null ? 0 : bags.entries());
    }
}
