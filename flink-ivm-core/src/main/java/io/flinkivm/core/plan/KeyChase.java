package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chase of a query's keys, as Berkholz, Keppeler and Schweikardt (ICDT 2018) extend
 * q-hierarchical queries under integrity constraints. An atom {@code S} whose key columns all hold
 * variables gives the functional dependency key-vars(S) → vars(S) (a column holding a constant
 * gives none: a constant matches values of several types, {@code 3} and {@code '3'}, so two rows
 * with one key value may both match the atom). From them:
 *
 * <ul>
 *   <li>the head's closure: the variables that the free variables determine join the head;
 *   <li>the atoms' closure: an atom gains variables that its own determine through other atoms'
 *       keys, only where a pair of variables breaks Def. 8 (a repair loop), or everywhere (the full
 *       closure, a last resort).
 * </ul>
 *
 * {@link #candidates} lists the closed queries to try, in order of preference.
 */
final class KeyChase {
    private KeyChase() {}

    /**
     * The functional dependency of atom {@code atom}'s key: {@code key} (the variables at the key's
     * columns) determines {@code dependent} (the atom's other variables).
     */
    record Dependency(int atom, String relation, List<String> key, List<String> dependent) {}

    /**
     * A closure of the query under the keys: the closed query and what it relies on, or the reason
     * why it cannot run ({@code problem}, e.g. lookups in a cycle between key stages).
     *
     * @param name how explain names it, e.g. "the head's closure"
     * @param relied the keys its lookups use, one per key stage, in the order rows pass the stages
     */
    record Candidate(
            String name,
            ConjunctiveQuery closed,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Enrichment> enrichments,
            List<ConjunctiveQuery.Key> relied,
            String problem) {}

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

    /** The closures of {@code q} to try, in order: the head's; with the atoms' repaired; with the atoms' full. */
    static List<Candidate> candidates(ConjunctiveQuery q) {
        List<Dependency> deps = dependencies(q);
        if (deps.isEmpty()) {
            return List.of();
        }
        Derivation fromHead = new Derivation(q.head(), deps);
        List<String> addedHead = new ArrayList<>();
        for (String v : q.variables()) {
            if (fromHead.known.contains(v) && !q.head().contains(v)) {
                addedHead.add(v);
            }
        }
        List<String> head = new ArrayList<>(q.head());
        head.addAll(addedHead);
        List<KeyLookup> headLookups = fromHead.lookups(addedHead, deps);
        List<Derivation> atoms = new ArrayList<>();
        for (Atom a : q.body()) {
            atoms.add(new Derivation(a.variables(), deps));
        }
        List<Candidate> out = new ArrayList<>();
        List<Set<String>> none = new ArrayList<>();
        List<Set<String>> full = new ArrayList<>();
        for (Atom a : q.body()) {
            none.add(Set.of());
            Set<String> all = new LinkedHashSet<>(atoms.get(a.index()).known);
            all.removeAll(a.variables());
            full.add(all);
        }
        if (!addedHead.isEmpty()) {
            out.add(build("the head's closure", q, deps, atoms, head, addedHead, headLookups, none));
        }
        List<Set<String>> repaired = repair(q, head, atoms);
        if (!repaired.equals(none)) {
            out.add(build("the head's and the atoms' closure", q, deps, atoms, head, addedHead, headLookups, repaired));
        }
        if (!full.equals(none) && !full.equals(repaired)) {
            out.add(build("the full closure", q, deps, atoms, head, addedHead, headLookups, full));
        }
        return out;
    }

    /**
     * The atoms' gains that make the query p-hierarchical, or as close as repairs get: while a pair of
     * variables breaks Def. 8 (bound X with bound or free Y, their atom sets overlapping without the
     * needed inclusion), Y joins the atoms of at(X) \ at(Y) if each of them determines Y (or, for two
     * bound variables, X joins those of at(Y) \ at(X)); the first pair that can be repaired, in the
     * classifier's order, is. Each repair adds a variable to an atom, so the loop ends.
     */
    private static List<Set<String>> repair(ConjunctiveQuery q, List<String> head, List<Derivation> atoms) {
        List<Set<String>> vars = new ArrayList<>();
        for (Atom a : q.body()) {
            vars.add(new LinkedHashSet<>(a.variables()));
        }
        List<String> bound = new ArrayList<>(q.variables());
        bound.removeAll(head);
        while (true) {
            Map<String, BitSet> at = new HashMap<>();
            for (String v : q.variables()) {
                BitSet b = new BitSet();
                for (int i = 0; i < vars.size(); i++) {
                    if (vars.get(i).contains(v)) {
                        b.set(i);
                    }
                }
                at.put(v, b);
            }
            if (!repairOne(q, head, bound, at, vars, atoms)) {
                break;
            }
        }
        List<Set<String>> gains = new ArrayList<>();
        for (Atom a : q.body()) {
            Set<String> g = new LinkedHashSet<>(vars.get(a.index()));
            a.variables().forEach(g::remove);
            gains.add(g.isEmpty() ? Set.of() : g);
        }
        return gains;
    }

    private static boolean repairOne(
            ConjunctiveQuery q,
            List<String> head,
            List<String> bound,
            Map<String, BitSet> at,
            List<Set<String>> vars,
            List<Derivation> atoms) {
        for (int i = 0; i < bound.size(); i++) {
            for (int j = i + 1; j < bound.size(); j++) {
                BitSet x = at.get(bound.get(i));
                BitSet y = at.get(bound.get(j));
                if (x.intersects(y)
                        && !subset(x, y)
                        && !subset(y, x)
                        && (add(bound.get(j), minus(x, y), vars, atoms)
                                || add(bound.get(i), minus(y, x), vars, atoms))) {
                    return true;
                }
            }
        }
        for (String b : bound) {
            for (String f : q.variables()) {
                if (!head.contains(f)) {
                    continue;
                }
                BitSet x = at.get(b);
                BitSet y = at.get(f);
                if (x.intersects(y) && !subset(x, y) && add(f, minus(x, y), vars, atoms)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Adds {@code v} to every atom in {@code to} if each of them determines it; whether it did. */
    private static boolean add(String v, BitSet to, List<Set<String>> vars, List<Derivation> atoms) {
        for (int i = to.nextSetBit(0); i >= 0; i = to.nextSetBit(i + 1)) {
            if (!atoms.get(i).known.contains(v)) {
                return false;
            }
        }
        for (int i = to.nextSetBit(0); i >= 0; i = to.nextSetBit(i + 1)) {
            vars.get(i).add(v);
        }
        return true;
    }

    private static boolean subset(BitSet a, BitSet b) {
        return minus(a, b).isEmpty();
    }

    private static BitSet minus(BitSet a, BitSet b) {
        BitSet rest = (BitSet) a.clone();
        rest.andNot(b);
        return rest;
    }

    /** The closed query with the given head and gains, how its atoms find their gains, and its key stages. */
    private static Candidate build(
            String name,
            ConjunctiveQuery q,
            List<Dependency> deps,
            List<Derivation> derivations,
            List<String> head,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Set<String>> gains) {
        Set<String> names = new HashSet<>(q.relations());
        List<Atom> body = new ArrayList<>();
        List<Enrichment> enrichments = new ArrayList<>();
        for (Atom a : q.body()) {
            List<String> gained = new ArrayList<>();
            for (String v : q.variables()) {
                if (gains.get(a.index()).contains(v)) {
                    gained.add(v);
                }
            }
            if (gained.isEmpty()) {
                body.add(a);
                continue;
            }
            String relation = a.relation();
            if (q.atomsOfRelation(relation).size() > 1) {
                relation = relation + "_" + a.index();
                while (!names.add(relation)) {
                    relation = relation + "_";
                }
            }
            List<Term> terms = new ArrayList<>(a.terms());
            for (String v : gained) {
                terms.add(new Variable(v));
            }
            body.add(new Atom(a.index(), relation, terms));
            enrichments.add(new Enrichment(
                    a.index(), relation, gained, derivations.get(a.index()).lookups(gained, deps)));
        }
        ConjunctiveQuery closed = new ConjunctiveQuery(q.name(), head, body);
        List<String> order = new ArrayList<>();
        String problem = stageOrder(q, headLookups, enrichments, order);
        List<ConjunctiveQuery.Key> relied = new ArrayList<>();
        for (String r : order) {
            relied.add(q.keyOf(r));
        }
        return new Candidate(name, closed, addedHead, headLookups, enrichments, relied, problem);
    }

    /**
     * The relations whose keys the lookups use, in an order that every row passes them in (a row of
     * a keyed relation passes its own stage before its atoms' lookups), into {@code order}; or why
     * there is none (lookups that come back to a stage they passed).
     */
    static String stageOrder(
            ConjunctiveQuery q, List<KeyLookup> headLookups, List<Enrichment> enrichments, List<String> order) {
        Set<String> stages = new LinkedHashSet<>();
        for (KeyLookup l : headLookups) {
            stages.add(l.relation());
        }
        for (Enrichment e : enrichments) {
            for (KeyLookup l : e.lookups()) {
                stages.add(l.relation());
            }
        }
        Map<String, Set<String>> before = new LinkedHashMap<>();
        for (String r : q.relations()) {
            if (stages.contains(r)) {
                before.put(r, new LinkedHashSet<>());
            }
        }
        for (Enrichment e : enrichments) {
            Atom a = q.body().get(e.atom());
            String previous = stages.contains(a.relation()) ? a.relation() : null;
            for (KeyLookup l : e.lookups()) {
                if (l.relation().equals(previous)) {
                    return "the lookups of " + a + " pass the key stage of " + previous + " twice";
                }
                if (previous != null) {
                    before.get(l.relation()).add(previous);
                }
                previous = l.relation();
            }
        }
        Deque<String> left = new ArrayDeque<>(before.keySet());
        while (!left.isEmpty()) {
            String next = null;
            for (String r : left) {
                if (!containsAny(left, before.get(r))) {
                    next = r;
                    break;
                }
            }
            if (next == null) {
                order.clear();
                return "the lookups run in a cycle through the key stages of " + String.join(", ", left);
            }
            left.remove(next);
            order.add(next);
        }
        return null;
    }

    private static boolean containsAny(Collection<String> in, Set<String> any) {
        for (String s : any) {
            if (in.contains(s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Forward chaining from a set of variables: the variables they determine and, for each derived
     * one, the dependency that derived it first (dependencies fire in body order, repeatedly).
     */
    private static final class Derivation {
        final Set<String> start;
        final Set<String> known;
        final Map<String, Integer> derivedBy = new HashMap<>();
        final List<Integer> fired = new ArrayList<>();

        Derivation(Collection<String> start, List<Dependency> deps) {
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
}
