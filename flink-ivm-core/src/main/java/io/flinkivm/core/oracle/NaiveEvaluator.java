package io.flinkivm.core.oracle;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Constant;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Evaluates a conjunctive query from scratch over a K-database: Q(f) is the sum, over all
 * assignments of the variables that agree with f, of the product of the atoms' payloads. Plain
 * backtracking over the atoms in body order, sharing no code with the planner or the engines, so
 * that it can serve as their tests' oracle. Exponential in the number of atoms; for small inputs.
 */
@PublicEvolving
public final class NaiveEvaluator {

    private NaiveEvaluator() {}

    /**
     * The result of {@code q} over {@code database} (relation name → tuple → payload; a missing
     * relation is empty, tuples with payload zero are absent): each head tuple with a non-zero payload.
     *
     * @throws IllegalArgumentException if a stored tuple's arity differs from an atom's
     */
    public static <T> Map<Tuple, T> evaluate(ConjunctiveQuery q, Semiring<T> k, Map<String, Map<Tuple, T>> database) {
        List<Atom> body = q.body();
        List<List<Map.Entry<Tuple, T>>> relations = new ArrayList<>();
        for (Atom a : body) {
            Map<Tuple, T> r = database.getOrDefault(a.relation(), Map.of());
            List<Map.Entry<Tuple, T>> entries = new ArrayList<>();
            for (Map.Entry<Tuple, T> e : r.entrySet()) {
                if (e.getKey().arity() != a.arity()) {
                    throw new IllegalArgumentException("relation " + a.relation() + " holds tuple " + e.getKey()
                            + " of arity " + e.getKey().arity() + ", but atom " + a + " has arity " + a.arity());
                }
                if (!k.isZero(e.getValue())) {
                    entries.add(e);
                }
            }
            relations.add(entries);
        }
        Map<Tuple, T> sums = new HashMap<>();
        new Search<>(q, k, relations, sums, new HashMap<>()).extend(0, k.one());
        sums.values().removeIf(k::isZero);
        return sums;
    }

    /** The backtracking state: the atoms' tuples, the current variable binding and the sums per head tuple. */
    private record Search<T>(
            ConjunctiveQuery q,
            Semiring<T> k,
            List<List<Map.Entry<Tuple, T>>> relations,
            Map<Tuple, T> sums,
            Map<String, Object> binding) {

        /** Tries every tuple of atom {@code i} that agrees with the binding; restores the binding after each. */
        void extend(int i, T product) {
            if (i == relations.size()) {
                Object[] head = new Object[q.head().size()];
                for (int h = 0; h < head.length; h++) {
                    head[h] = binding.get(q.head().get(h));
                }
                Tuple t = Tuple.of(head);
                T old = sums.get(t);
                sums.put(t, old == null ? product : k.plus(old, product));
                return;
            }
            List<Term> terms = q.body().get(i).terms();
            List<String> newlyBound = new ArrayList<>();
            for (Map.Entry<Tuple, T> e : relations.get(i)) {
                Tuple tuple = e.getKey();
                boolean agrees = true;
                for (int p = 0; p < terms.size() && agrees; p++) {
                    Object value = tuple.get(p);
                    if (terms.get(p) instanceof Constant c) {
                        agrees = c.matches(value);
                    } else {
                        String name = ((Variable) terms.get(p)).name();
                        Object bound = binding.putIfAbsent(name, value);
                        if (bound == null) {
                            newlyBound.add(name);
                        } else {
                            agrees = bound.equals(value);
                        }
                    }
                }
                if (agrees) {
                    extend(i + 1, k.times(product, e.getValue()));
                }
                for (String name : newlyBound) {
                    binding.remove(name);
                }
                newlyBound.clear();
            }
        }
    }
}
