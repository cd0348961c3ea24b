package io.flinkivm.core.engine;

import io.flinkivm.core.plan.DeltaJoinStep;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The fallback engine: first-order delta joins over K with the result materialized. A delta of
 * atom a is joined with the current state of the other atoms through hash indexes (the plan's
 * {@link DeltaJoinStep}s), projected onto the head and added to the result. Correct for every query
 * and semiring; an insert costs the number of join tuples it touches. Not thread-safe.
 */
public final class DeltaJoinEngine<T> implements IvmEngine<T> {
    private final Semiring<T> semiring;
    private final ConjunctiveQuery query;
    private final Map<String, int[]> atomsOfRelation = new HashMap<>();
    private final Map<Tuple, T>[] relations;
    /** Per atom: its indexes, one per distinct lookup key used on it. */
    private final List<List<Index>> indexesOf = new ArrayList<>();
    /** Per atom: the compiled steps of its delta join. */
    private final CompiledStep[][] steps;
    private final int[][] atomVarSlots;
    private final int[] headSlots;
    private final Map<Tuple, T> result = new HashMap<>();
    private final Object[] binding;
    private long inserts;

    @SuppressWarnings("unchecked")
    public DeltaJoinEngine(MaintenancePlan plan, Semiring<T> semiring) {
        Engines.checkSemiring(plan, semiring);
        if (plan.kind() != PlanKind.FALLBACK_DELTA_JOIN) {
            throw new IllegalArgumentException("not a delta-join plan: " + plan);
        }
        this.semiring = semiring;
        this.query = plan.query();
        List<String> vars = query.variables();
        binding = new Object[vars.size()];
        int n = query.body().size();
        relations = new Map[n];
        atomVarSlots = new int[n][];
        Map<String, List<Integer>> byRelation = new HashMap<>();
        for (Atom a : query.body()) {
            relations[a.index()] = new HashMap<>();
            indexesOf.add(new ArrayList<>());
            atomVarSlots[a.index()] = slots(vars, a.variables());
            byRelation.computeIfAbsent(a.relation(), k -> new ArrayList<>()).add(a.index());
        }
        byRelation.forEach((r, atoms) -> atomsOfRelation.put(r, atoms.stream().mapToInt(Integer::intValue).toArray()));
        steps = new CompiledStep[n][];
        for (int a = 0; a < n; a++) {
            List<DeltaJoinStep> plain = plan.deltaJoins().get(a);
            steps[a] = new CompiledStep[plain.size()];
            for (int s = 0; s < plain.size(); s++) {
                DeltaJoinStep step = plain.get(s);
                Atom b = query.body().get(step.atom());
                Index index = indexFor(b, step.lookupKey());
                steps[a][s] = new CompiledStep(step.atom(), index, slots(vars, step.lookupKey()), atomVarSlots[b.index()]);
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

    private Index indexFor(Atom atom, List<String> key) {
        for (Index i : indexesOf.get(atom.index())) {
            if (i.key.equals(key)) {
                return i;
            }
        }
        int[] positions = CompiledPlan.positions(atom.variables(), key, atom.toString());
        Index created = new Index(key, positions);
        indexesOf.get(atom.index()).add(created);
        return created;
    }

    @Override
    public void insert(String relation, Tuple tuple, T payload) {
        int[] atoms = atomsOfRelation.get(relation);
        if (atoms == null) {
            throw new IllegalArgumentException("unknown relation '" + relation + "'; the query uses "
                    + String.join(", ", query.relations()));
        }
        int arity = query.arityOf(relation);
        if (tuple.arity() != arity) {
            throw new IllegalArgumentException("relation " + relation + " has arity " + arity + ", got "
                    + tuple.arity() + " values");
        }
        inserts++;
        if (semiring.isZero(payload)) {
            return;
        }
        for (int a : atoms) {
            Tuple matched = query.body().get(a).match(tuple);
            if (matched == null) {
                continue;
            }
            int[] own = atomVarSlots[a];
            for (int i = 0; i < own.length; i++) {
                binding[own[i]] = matched.get(i);
            }
            join(steps[a], 0, payload);
            T old = relations[a].get(matched);
            if (old == null) {
                for (Index index : indexesOf.get(a)) {
                    index.add(matched);
                }
            }
            relations[a].put(matched, old == null ? payload : semiring.plus(old, payload));
        }
    }

    private void join(CompiledStep[] plan, int step, T product) {
        if (step == plan.length) {
            Object[] head = new Object[headSlots.length];
            for (int i = 0; i < head.length; i++) {
                head[i] = binding[headSlots[i]];
            }
            Tuple key = Tuple.wrap(head);
            T old = result.get(key);
            T updated = old == null ? product : semiring.plus(old, product);
            if (semiring.isZero(updated)) {
                result.remove(key);
            } else {
                result.put(key, updated);
            }
            return;
        }
        CompiledStep s = plan[step];
        Object[] key = new Object[s.keySlots.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = binding[s.keySlots[i]];
        }
        List<Tuple> matches = s.index.lookup(Tuple.wrap(key));
        if (matches == null) {
            return;
        }
        Map<Tuple, T> rel = relations[s.atom];
        for (int m = 0; m < matches.size(); m++) {
            Tuple u = matches.get(m);
            T p = rel.get(u);
            if (semiring.isZero(p)) {
                continue;
            }
            T next = semiring.times(product, p);
            if (semiring.isZero(next)) {
                continue;
            }
            for (int i = 0; i < s.atomSlots.length; i++) {
                binding[s.atomSlots[i]] = u.get(i);
            }
            join(plan, step + 1, next);
        }
    }

    @Override
    public Iterator<ResultTuple<T>> enumerate() {
        Iterator<Map.Entry<Tuple, T>> it = result.entrySet().iterator();
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

    @Override
    public T lookup(Tuple headTuple) {
        T v = result.get(headTuple);
        return v == null ? semiring.zero() : v;
    }

    @Override
    public long insertCount() {
        return inserts;
    }

    /** Number of state entries: stored atom tuples, index entries and result tuples. */
    public long stateEntries() {
        long total = result.size();
        for (int a = 0; a < relations.length; a++) {
            total += relations[a].size();
            for (Index i : indexesOf.get(a)) {
                total += i.map.size();
            }
        }
        return total;
    }

    private record CompiledStep(int atom, Index index, int[] keySlots, int[] atomSlots) {
    }

    /** A hash index of an atom's tuples by some of its variables. */
    private static final class Index {
        final List<String> key;
        final int[] positions;
        final Map<Tuple, List<Tuple>> map = new HashMap<>();

        Index(List<String> key, int[] positions) {
            this.key = key;
            this.positions = positions;
        }

        void add(Tuple t) {
            map.computeIfAbsent(t.project(positions), k -> new ArrayList<>(2)).add(t);
        }

        List<Tuple> lookup(Tuple key) {
            return map.get(key);
        }
    }
}
