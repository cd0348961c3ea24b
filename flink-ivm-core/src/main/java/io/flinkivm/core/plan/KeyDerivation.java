package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The functional dependencies that a query's keys give ({@link #dependencies}), and forward chaining
 * over them from a set of variables: the variables they determine and, for each derived one, the
 * dependency that derived it first (dependencies fire in body order, repeatedly).
 */
final class KeyDerivation {
    /**
     * The functional dependency of atom {@code atom}'s key: {@code key} (the variables at the key's
     * columns) determines {@code dependent} (the atom's other variables).
     */
    record Dependency(int atom, String relation, List<String> key, List<String> dependent) {}

    final Set<String> start;
    final Set<String> known;
    final Map<String, Integer> derivedBy = new HashMap<>();
    final List<Integer> fired = new ArrayList<>();

    KeyDerivation(Collection<String> start, List<Dependency> deps) {
        this.start = new LinkedHashSet<>(start);
        this.known = new LinkedHashSet<>(start);
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < deps.size(); i++) {
                Dependency d = deps.get(i);
                if (!fired.contains(i) && known.containsAll(d.key()) && !known.containsAll(d.dependent())) {
                    fired.add(i);
                    for (String v : d.dependent()) {
                        if (known.add(v)) {
                            derivedBy.put(v, i);
                        }
                    }
                    changed = true;
                }
            }
        }
    }

    /** The dependencies of {@code q}'s keys, in body order; none for an atom whose key determines nothing more. */
    static List<Dependency> dependencies(ConjunctiveQuery q) {
        List<Dependency> out = new ArrayList<>();
        for (Atom a : q.body()) {
            ConjunctiveQuery.Key key = q.keyOf(a.relation());
            if (key == null) {
                continue;
            }
            List<String> keyVariables = new ArrayList<>();
            boolean variablesOnly = true;
            for (int p : key.positions()) {
                Term t = a.terms().get(p);
                if (t instanceof Variable v) {
                    if (!keyVariables.contains(v.name())) {
                        keyVariables.add(v.name());
                    }
                } else {
                    variablesOnly = false;
                }
            }
            List<String> dependent = new ArrayList<>(a.variables());
            dependent.removeAll(keyVariables);
            if (variablesOnly && !dependent.isEmpty()) {
                out.add(new Dependency(a.index(), a.relation(), keyVariables, dependent));
            }
        }
        return out;
    }

    /**
     * The lookups that find {@code targets} (derived variables): the dependencies that derived them
     * and, recursively, the key variables those need, in the order they fired, each adding the
     * variables that later steps or the targets need.
     */
    List<KeyLookup> lookups(Collection<String> targets, List<Dependency> deps) {
        Set<String> needed = new LinkedHashSet<>(targets);
        Deque<String> work = new ArrayDeque<>(targets);
        while (!work.isEmpty()) {
            Integer d = derivedBy.get(work.poll());
            if (d == null) {
                throw new IllegalStateException("a target of a lookup chain is not derived");
            }
            for (String k : deps.get(d).key()) {
                if (!start.contains(k) && needed.add(k)) {
                    work.add(k);
                }
            }
        }
        List<KeyLookup> out = new ArrayList<>();
        for (int i : fired) {
            Dependency d = deps.get(i);
            List<String> added = new ArrayList<>();
            for (String v : d.dependent()) {
                Integer by = derivedBy.get(v);
                if (by != null && by == i && needed.contains(v)) {
                    added.add(v);
                }
            }
            if (!added.isEmpty()) {
                out.add(new KeyLookup(d.atom(), d.relation(), d.key(), added));
            }
        }
        return out;
    }
}
