package io.flinkivm.core.engine.fallback;

import io.flinkivm.core.engine.join.CompiledJoinTree;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.UndoLog;
import io.flinkivm.core.plan.DeltaJoinStep;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * First-order delta joins over K with the result materialized (the fallback plan). A delta of atom
 * a is joined with the current state of the other atoms through hash indexes (the plan's
 * {@link DeltaJoinStep}s), projected onto the head and added to the result; then a's relation is
 * updated. Over a ring a delete is the insert of the inverse payload: a result tuple whose payload
 * returns to zero is removed, and so is a relation tuple, from its indexes too where the store keeps
 * previous links ({@link DeltaJoinStore#indexPrev}). An insert that fails (e.g. natural-number
 * overflow) is rolled back completely. Written
 * once against {@link DeltaJoinStore}; used by the in-memory engine and the Flink operator. Not
 * thread-safe (it reuses a binding array and an undo log).
 */
@Internal
public final class DeltaJoinLogic<T> {
    private final Semiring<T> semiring;
    private final ConjunctiveQuery query;
    /** Per atom: positions (in its variables) of each of its indexes' keys. */
    private final List<List<int[]>> indexesOf = new ArrayList<>();

    private final List<List<List<String>>> indexKeysOf = new ArrayList<>();
    private final CompiledStep[][] steps;
    private final int[][] atomVarSlots;
    private final int[] headSlots;
    private final Object[] binding;
    private final AtomRouter router;
    /** The store of the insert being routed. */
    private DeltaJoinStore<T> routing;

    private final AtomRouter.Receiver<T> applier =
            (atom, matched, payload) -> applyAtom(routing, atom, matched, payload);
    private final UndoLog undo = new UndoLog();

    public DeltaJoinLogic(FallbackPlan plan, Semiring<T> semiring) {
        plan.checkSemiring(semiring);
        this.semiring = semiring;
        this.query = plan.query();
        List<String> vars = query.variables();
        binding = new Object[vars.size()];
        int n = query.body().size();
        atomVarSlots = new int[n][];
        router = new AtomRouter(query);
        for (Atom a : query.body()) {
            indexesOf.add(new ArrayList<>());
            indexKeysOf.add(new ArrayList<>());
            atomVarSlots[a.index()] = slots(vars, a.variables());
        }
        steps = new CompiledStep[n][];
        for (int a = 0; a < n; a++) {
            List<DeltaJoinStep> plain = plan.deltaJoins().get(a);
            steps[a] = new CompiledStep[plain.size()];
            for (int s = 0; s < plain.size(); s++) {
                DeltaJoinStep step = plain.get(s);
                Atom b = query.body().get(step.atom());
                steps[a][s] = new CompiledStep(
                        step.atom(),
                        indexFor(b, step.lookupKey()),
                        slots(vars, step.lookupKey()),
                        atomVarSlots[b.index()]);
            }
        }
        headSlots = slots(vars, query.head());
    }

    private static int[] slots(List<String> vars, List<String> names) {
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = vars.indexOf(names.get(i));
        }
        return out;
    }

    private int indexFor(Atom atom, List<String> key) {
        List<List<String>> keys = indexKeysOf.get(atom.index());
        int existing = keys.indexOf(key);
        if (existing >= 0) {
            return existing;
        }
        keys.add(List.copyOf(key));
        indexesOf.get(atom.index()).add(CompiledJoinTree.positions(atom.variables(), key, atom.toString()));
        return keys.size() - 1;
    }

    /** Number of indexes on atom {@code atom} (for stores that allocate state per index). */
    public int indexCount(int atom) {
        return indexesOf.get(atom).size();
    }

    public ConjunctiveQuery query() {
        return query;
    }

    /**
     * Applies one physical insert: one delta per atom naming the relation, one after another.
     *
     * @throws IllegalArgumentException for an unknown relation or a wrong arity
     */
    public void insert(DeltaJoinStore<T> store, String relation, Tuple tuple, T payload) {
        int r = router.checkedRelation(relation, tuple.arity());
        if (semiring.isZero(payload)) {
            return;
        }
        undo.clear();
        routing = store;
        try {
            router.route(r, tuple, payload, applier);
        } catch (RuntimeException e) {
            undo.rollback();
            throw e;
        } finally {
            routing = null;
        }
        undo.clear();
    }

    /**
     * Applies the delta of one atom: {@code matched} is the atom's tuple over its variables (what an
     * {@link AtomRouter} without key positions sends). For a partitioned store that receives the
     * atoms of one insert separately, in body order. Rolled back completely if it fails.
     */
    public void insertAtom(DeltaJoinStore<T> store, int atom, Tuple matched, T payload) {
        if (semiring.isZero(payload)) {
            return;
        }
        undo.clear();
        try {
            applyAtom(store, atom, matched, payload);
        } catch (RuntimeException e) {
            undo.rollback();
            throw e;
        }
        undo.clear();
    }

    /**
     * Puts a stored tuple of atom {@code atom} back, into its relation and indexes, without joining
     * it (a restore from a copy of the relations: the result is restored as it was).
     */
    public void load(DeltaJoinStore<T> store, int atom, Tuple tuple, T payload) {
        List<int[]> indexes = indexesOf.get(atom);
        for (int i = 0; i < indexes.size(); i++) {
            link(store, atom, i, tuple.project(indexes.get(i)), tuple);
        }
        store.relation(atom).put(tuple, payload);
        undo.clear();
    }

    private void applyAtom(DeltaJoinStore<T> store, int a, Tuple matched, T payload) {
        int[] own = atomVarSlots[a];
        for (int i = 0; i < own.length; i++) {
            binding[own[i]] = matched.get(i);
        }
        join(store, steps[a], 0, payload);
        KeyValueState<Tuple, T> rel = store.relation(a);
        T old = rel.get(matched);
        T updated = old == null ? payload : semiring.plus(old, payload);
        List<int[]> indexes = indexesOf.get(a);
        boolean unlinks = indexes.isEmpty() || store.indexPrev(a, 0) != null;
        if (old == null) {
            for (int i = 0; i < indexes.size(); i++) {
                link(store, a, i, matched.project(indexes.get(i)), matched);
            }
        } else if (unlinks && semiring.isZero(updated)) {
            // The tuple is gone (its payload cancelled): out of the indexes and the relation.
            for (int i = 0; i < indexes.size(); i++) {
                unlink(store, a, i, matched.project(indexes.get(i)), matched);
            }
            undo.put(rel, matched, old, null);
            return;
        }
        undo.put(rel, matched, old, updated);
    }

    /** Puts {@code tuple} first in index {@code i} of atom {@code a} under {@code key}. */
    private void link(DeltaJoinStore<T> store, int a, int i, Tuple key, Tuple tuple) {
        KeyValueState<Tuple, Tuple> heads = store.indexHead(a, i);
        KeyValueState<Tuple, Tuple> prev = store.indexPrev(a, i);
        Tuple head = heads.get(key);
        if (head != null) {
            undo.put(store.indexNext(a, i), tuple, null, head);
            if (prev != null) {
                undo.put(prev, head, null, tuple);
            }
        }
        undo.put(heads, key, head, tuple);
    }

    /** Takes {@code tuple} out of index {@code i} of atom {@code a} (which keeps previous links). */
    private void unlink(DeltaJoinStore<T> store, int a, int i, Tuple key, Tuple tuple) {
        KeyValueState<Tuple, Tuple> next = store.indexNext(a, i);
        KeyValueState<Tuple, Tuple> prev = store.indexPrev(a, i);
        Tuple p = prev.get(tuple);
        Tuple n = next.get(tuple);
        if (p == null) {
            undo.put(store.indexHead(a, i), key, tuple, n);
        } else {
            undo.put(next, p, tuple, n);
            undo.put(prev, tuple, p, null);
        }
        if (n != null) {
            undo.put(prev, n, tuple, p);
            undo.put(next, tuple, n, null);
        }
    }

    /** The materialized result in {@code store}, tuple by tuple. */
    public Iterator<ResultTuple<T>> results(DeltaJoinStore<T> store) {
        Iterator<Map.Entry<Tuple, T>> it = store.resultEntries();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public ResultTuple<T> next() {
                Map.Entry<Tuple, T> e = it.next();
                return new ResultTuple<>(e.getKey(), e.getValue());
            }
        };
    }

    private void join(DeltaJoinStore<T> store, CompiledStep[] plan, int step, T product) {
        if (step == plan.length) {
            Object[] head = new Object[headSlots.length];
            for (int i = 0; i < head.length; i++) {
                head[i] = binding[headSlots[i]];
            }
            Tuple key = Tuple.wrap(head);
            KeyValueState<Tuple, T> result = store.result();
            T old = result.get(key);
            T updated = old == null ? product : semiring.plus(old, product);
            undo.put(result, key, old, semiring.isZero(updated) ? null : updated);
            return;
        }
        CompiledStep s = plan[step];
        Object[] key = new Object[s.keySlots.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = binding[s.keySlots[i]];
        }
        KeyValueState<Tuple, T> rel = store.relation(s.atom);
        KeyValueState<Tuple, Tuple> next = store.indexNext(s.atom, s.index);
        for (Tuple u = store.indexHead(s.atom, s.index).get(Tuple.wrap(key)); u != null; u = next.get(u)) {
            T p = rel.get(u);
            if (semiring.isZero(p)) {
                continue;
            }
            T extended = semiring.times(product, p);
            if (semiring.isZero(extended)) {
                continue;
            }
            for (int i = 0; i < s.atomSlots.length; i++) {
                binding[s.atomSlots[i]] = u.get(i);
            }
            join(store, plan, step + 1, extended);
        }
    }

    private record CompiledStep(int atom, int index, int[] keySlots, int[] atomSlots) {}
}
