package io.flinkivm.core.engine;

import io.flinkivm.core.engine.fallback.DeltaJoinLogic;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * The paper's ablation (Sec. 4.1): the same view trees, but the same semiring kept above the
 * border. Every change of a root view, not only a new root tuple, is joined over K with the other
 * root views (first-order delta joins, {@link DeltaJoinLogic}) into a materialized result. Correct,
 * but an insert costs as many result updates as its root tuple has partners: this is what the
 * Boolean border saves. For tests and flink-ivm-bench, in core's test-jar: nothing that ships uses it.
 */
public final class AblationEngine<T> implements IvmEngine<T> {
    private final ViewForest<T> forest;
    private final DeltaJoinEngine<T> aboveState;
    private long crossings;

    public AblationEngine(PHierarchicalPlan plan, Semiring<T> semiring) {
        this(plan, semiring, MemoryMaps.PLAIN);
    }

    /**
     * An engine that counts its state operations into {@code counts} (for benchmarks and tests; each
     * operation costs a little more).
     */
    public AblationEngine(PHierarchicalPlan plan, Semiring<T> semiring, StateCounts counts) {
        this(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")));
    }

    private AblationEngine(PHierarchicalPlan plan, Semiring<T> semiring, MemoryMaps maps) {
        plan.checkSemiring(semiring);
        FallbackPlan rootPlan = Planner.fallback(rootQuery(plan), semiring);
        this.aboveState = new DeltaJoinEngine<>(rootPlan, semiring, maps);
        this.forest = new ViewForest<>(
                plan,
                semiring,
                new CompiledPlan(plan),
                (count, trees, keys, deltas) -> {
                    for (int i = 0; i < count; i++) {
                        if (aboveState.atomPayload(trees[i], keys[i]) == null) {
                            crossings++;
                        }
                        aboveState.insert(rootRelation(trees[i]), keys[i], cast(deltas[i]));
                    }
                },
                maps);
    }

    /** The full join of the root views: {@code Q(F) :- V0(F0), ..., Vk(Fk)}. */
    static ConjunctiveQuery rootQuery(PHierarchicalPlan plan) {
        List<Atom> atoms = new ArrayList<>();
        for (ViewTree t : plan.viewTrees()) {
            List<io.flinkivm.core.query.Term> terms = new ArrayList<>();
            for (String v : t.schema()) {
                terms.add(new Variable(v));
            }
            atoms.add(new Atom(t.index(), rootRelation(t.index()), terms));
        }
        return new ConjunctiveQuery(plan.query().name(), plan.query().head(), atoms);
    }

    @SuppressWarnings("unchecked") // the forest's deltas are payloads of this engine's semiring
    private static <T> T cast(Object delta) {
        return (T) delta;
    }

    private static String rootRelation(int tree) {
        return "V" + tree;
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        forest.insert(relation, tuple, payload);
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        return aboveState.enumerate();
    }

    @Override
    public T lookup(Tuple headTuple) {
        return aboveState.lookup(headTuple);
    }

    @Override
    public long insertCount() {
        return forest.insertCount();
    }

    /** State entries below and above the border (the root views' join over K with its result). */
    @Override
    public long stateEntries() {
        return forest.stateEntries() + aboveState.stateEntries();
    }

    /** Root tuples that became non-zero, each then joined over K with the other root views. */
    @Override
    public long borderCrossings() {
        return crossings;
    }
}
