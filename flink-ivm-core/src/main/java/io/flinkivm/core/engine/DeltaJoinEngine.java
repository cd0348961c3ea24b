package io.flinkivm.core.engine;

import io.flinkivm.core.engine.fallback.DeltaJoinLogic;
import io.flinkivm.core.engine.fallback.MemoryDeltaJoinStore;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * The in-memory fallback engine: {@link DeltaJoinLogic} over hash maps. Correct for every query and
 * semiring; an insert (or a delete, the insert of the inverse payload over a ring) costs the number of
 * join tuples it touches. Tuples whose payload returns to zero are removed, with their index links.
 * Not thread-safe.
 */
@Internal
public final class DeltaJoinEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final DeltaJoinLogic<T> logic;
    private final MemoryDeltaJoinStore<T> store;
    private final boolean changelog;
    private long inserts;

    public DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")));
    }

    DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, MemoryMaps maps) {
        this(plan, semiring, maps, false);
    }

    /**
     * @param changelog whether {@link #changes} is used (the result then remembers the payloads of
     *     the tuples it changes since the last trigger)
     */
    DeltaJoinEngine(FallbackPlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        this.semiring = semiring;
        this.changelog = changelog;
        this.logic = new DeltaJoinLogic<>(plan, semiring);
        this.store = new MemoryDeltaJoinStore<>(logic, maps, changelog ? semiring : null);
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        logic.insert(store, relation, tuple, payload);
        inserts++;
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return logic.results(store);
    }

    @Override
    public T lookup(Tuple headTuple) {
        HeadArity.check(logic.query(), headTuple);
        T v = store.resultPayload(headTuple);
        return v == null ? semiring.zero() : v;
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    @Override
    public void changes(Consumer<ResultChange<T>> out) {
        if (!changelog) {
            IvmEngine.super.changes(out);
            return;
        }
        store.changes(out);
    }

    /** Stored atom tuples, index entries and result tuples. */
    @Override
    public long stateEntries() {
        return store.entries();
    }

    /** Zero: the fallback has no root views and no border. */
    @Override
    public long borderCrossings() {
        return 0;
    }

    /** The payload of {@code key} in atom {@code atom}'s relation, or null (for the ablation's root views). */
    T atomPayload(int atom, Tuple key) {
        return store.relation(atom).get(key);
    }
}
