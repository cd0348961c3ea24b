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
 *       closure, a last resort);
 *   <li>absorption, the chase to its end: an atom S whose key's variables all occur in another atom R
 *       is folded into R (R' = R ⋈ S, S's payload multiplied in once), to a fixpoint; the closures
 *       above then apply to the absorbed query.
 * </ul>
 *
 * {@link #candidates} lists the closed queries to try, in order of preference, {@link #absorbed} the
 * absorbed ones.
 */
final class KeyChase {
    private KeyChase() {}

    /**
     * A closure of the query under the keys: the closed query and what it relies on, or the reason
     * why it cannot run ({@code problem}, e.g. lookups in a cycle between key stages).
     *
     * @param name how explain names it, e.g. "the head's closure"
     * @param absorptions the atoms folded into others, in the order they were folded (none for a
     *     closure of the query as written)
     * @param relied the keys its lookups use, in the order rows pass their first stages
     * @param stages the key stages, copies included, in the order rows pass them
     */
    record Candidate(
            String name,
            ConjunctiveQuery closed,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Absorption> absorptions,
            List<Enrichment> enrichments,
            List<ConjunctiveQuery.Key> relied,
            List<KeyStage> stages,
            String problem) {
        /**
         * The closed query's relations that receive deletes and updates when the query's {@code inputs}
         * have them: an enriched atom's where its own relation or a relation it looks up has them,
         * another atom's where its relation has them.
         */
        Inputs closedInputs(ConjunctiveQuery query, Inputs inputs) {
            if (inputs.isInsertOnly()) {
                return inputs;
            }
            List<String> out = new ArrayList<>();
            int closedIndex = 0;
            for (Atom a : query.body()) {
                boolean absorbed = false;
                for (Absorption x : absorptions) {
                    absorbed |= x.atom() == a.index();
                }
                if (absorbed) {
                    continue;
                }
                boolean deletes = inputs.hasDeletes(a.relation());
                for (Enrichment e : enrichments) {
                    if (e.atom() == a.index()) {
                        for (KeyLookup l : e.lookups()) {
                            deletes |= inputs.hasDeletes(l.relation());
                        }
                    }
                }
                if (deletes) {
                    out.add(closed.body().get(closedIndex).relation());
                }
                closedIndex++;
            }
            return Inputs.changelog(out);
        }
    }

    /** The closures of {@code q} to try, in order: the head's; with the atoms' repaired; with the atoms' full. */
    static List<Candidate> candidates(ConjunctiveQuery q) {
        List<KeyDerivation.Dependency> deps = KeyDerivation.dependencies(q);
        if (deps.isEmpty()) {
            return List.of();
        }
        return closures(q, deps, new KeyFold(q, false), "", false);
    }

    /**
     * The absorbed query of {@code q} ({@link KeyFold}) and its closures, in order: as it is; with the
     * head's closure; with the atoms' repaired; with the atoms' full. Empty if no atom can be folded.
     */
    static List<Candidate> absorbed(ConjunctiveQuery q) {
        KeyFold fold = new KeyFold(q, true);
        if (fold.order.isEmpty()) {
            return List.of();
        }
        return closures(q, KeyDerivation.dependencies(q), fold, "the absorbed query", true);
    }

    /**
     * The closures of the query that {@code fold} leaves (the query itself if it folds nothing): named
     * {@code base} and what is closed; with {@code plain}, the folded query without any closure first.
     */
    private static List<Candidate> closures(
            ConjunctiveQuery q, List<KeyDerivation.Dependency> deps, KeyFold fold, String base, boolean plain) {
        KeyDerivation fromHead = new KeyDerivation(q.head(), deps);
        List<String> addedHead = new ArrayList<>();
        for (String v : q.variables()) {
            if (fromHead.known.contains(v) && !q.head().contains(v)) {
                addedHead.add(v);
            }
        }
        List<String> head = new ArrayList<>(q.head());
        head.addAll(addedHead);
        List<KeyLookup> headLookups = fromHead.lookups(addedHead, deps);
        List<Integer> kept = fold.kept();
        List<Set<String>> start = new ArrayList<>();
        List<KeyDerivation> atoms = new ArrayList<>();
        List<Set<String>> none = new ArrayList<>();
        List<Set<String>> full = new ArrayList<>();
        for (int a : kept) {
            Set<String> vars = fold.vars.get(a);
            start.add(vars);
            KeyDerivation d = new KeyDerivation(vars, deps);
            atoms.add(d);
            none.add(Set.of());
            Set<String> all = new LinkedHashSet<>(d.known);
            all.removeAll(vars);
            full.add(all);
        }
        List<Candidate> out = new ArrayList<>();
        if (plain) {
            out.add(build(base, q, deps, fold, atoms, q.head(), List.of(), List.of(), none));
        }
        if (!addedHead.isEmpty()) {
            out.add(build(named(base, "the head's closure"), q, deps, fold, atoms, head, addedHead, headLookups, none));
        }
        List<Set<String>> repaired = repair(q.variables(), head, start, atoms);
        if (!repaired.equals(none)) {
            out.add(build(
                    named(base, "the head's and the atoms' closure"),
                    q,
                    deps,
                    fold,
                    atoms,
                    head,
                    addedHead,
                    headLookups,
                    repaired));
        }
        if (!full.equals(none) && !full.equals(repaired)) {
            out.add(build(named(base, "the full closure"), q, deps, fold, atoms, head, addedHead, headLookups, full));
        }
        return out;
    }

    private static String named(String base, String closure) {
        return base.isEmpty() ? closure : base + " with " + closure;
    }

    /**
     * The atoms' gains that make the query p-hierarchical, or as close as repairs get: while a pair of
     * variables breaks Def. 8 (bound X with bound or free Y, their atom sets overlapping without the
     * needed inclusion), Y joins the atoms of at(X) \ at(Y) if each of them determines Y (or, for two
     * bound variables, X joins those of at(Y) \ at(X)); the first pair that can be repaired, in the
     * classifier's order, is. Each repair adds a variable to an atom, so the loop ends.
     */
    private static List<Set<String>> repair(
            List<String> variables, List<String> head, List<Set<String>> start, List<KeyDerivation> atoms) {
        List<Set<String>> vars = new ArrayList<>();
        for (Set<String> s : start) {
            vars.add(new LinkedHashSet<>(s));
        }
        List<String> bound = new ArrayList<>(variables);
        bound.removeAll(head);
        while (true) {
            Map<String, BitSet> at = new HashMap<>();
            for (String v : variables) {
                BitSet b = new BitSet();
                for (int i = 0; i < vars.size(); i++) {
                    if (vars.get(i).contains(v)) {
                        b.set(i);
                    }
                }
                at.put(v, b);
            }
            if (!repairOne(variables, head, bound, at, vars, atoms)) {
                break;
            }
        }
        List<Set<String>> gains = new ArrayList<>();
        for (int i = 0; i < start.size(); i++) {
            Set<String> g = new LinkedHashSet<>(vars.get(i));
            g.removeAll(start.get(i));
            gains.add(g.isEmpty() ? Set.of() : g);
        }
        return gains;
    }

    private static boolean repairOne(
            List<String> variables,
            List<String> head,
            List<String> bound,
            Map<String, BitSet> at,
            List<Set<String>> vars,
            List<KeyDerivation> atoms) {
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
            for (String f : variables) {
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
    private static boolean add(String v, BitSet to, List<Set<String>> vars, List<KeyDerivation> atoms) {
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

    /**
     * The closed query with the given head and gains (per atom that {@code fold} keeps, beyond what it
     * folded in), how its atoms find their gains, and its key stages.
     */
    private static Candidate build(
            String name,
            ConjunctiveQuery q,
            List<KeyDerivation.Dependency> deps,
            KeyFold fold,
            List<KeyDerivation> derivations,
            List<String> head,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Set<String>> gains) {
        Set<String> names = new HashSet<>(q.relations());
        List<Atom> body = new ArrayList<>();
        List<Enrichment> enrichments = new ArrayList<>();
        List<Integer> kept = fold.kept();
        // A variable that a fold brings in stays only where the head or another atom has it too: one
        // that only this atom has is summed away at once and never changes the query's classes.
        Map<String, Integer> holders = new HashMap<>();
        for (int k = 0; k < kept.size(); k++) {
            Set<String> all = new LinkedHashSet<>(fold.vars.get(kept.get(k)));
            all.addAll(gains.get(k));
            for (String v : all) {
                holders.merge(v, 1, Integer::sum);
            }
        }
        for (int k = 0; k < kept.size(); k++) {
            Atom a = q.body().get(kept.get(k));
            List<KeyLookup> lookups = new ArrayList<>(fold.chain(a.index()));
            Set<String> has = fold.vars.get(a.index());
            List<String> gained = new ArrayList<>();
            List<String> closing = new ArrayList<>();
            for (String v : q.variables()) {
                boolean folded = has.contains(v) && (head.contains(v) || holders.get(v) > 1);
                if (!a.variables().contains(v) && (folded || gains.get(k).contains(v))) {
                    gained.add(v);
                }
                if (gains.get(k).contains(v)) {
                    closing.add(v);
                }
            }
            lookups.addAll(derivations.get(k).lookups(closing, deps));
            if (lookups.isEmpty()) {
                body.add(new Atom(body.size(), a.relation(), a.terms()));
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
            body.add(new Atom(body.size(), relation, terms));
            enrichments.add(new Enrichment(a.index(), relation, gained, lookups));
        }
        ConjunctiveQuery closed = new ConjunctiveQuery(q.name(), head, body);
        List<Absorption> absorptions = fold.absorptions();
        enrichments = withCopies(q, staged(headLookups, absorptions, enrichments), enrichments);
        List<KeyStage> order = new ArrayList<>();
        String problem = stageOrder(q, headLookups, absorptions, enrichments, order);
        List<ConjunctiveQuery.Key> relied = new ArrayList<>();
        for (KeyStage k : order) {
            if (k.copy() == 0) {
                relied.add(k.key());
            }
        }
        return new Candidate(name, closed, addedHead, headLookups, absorptions, enrichments, relied, order, problem);
    }

    /** The relations with a key stage: looked up by the head or an enrichment, or absorbed. */
    private static Set<String> staged(
            List<KeyLookup> headLookups, List<Absorption> absorptions, List<Enrichment> enrichments) {
        Set<String> out = new LinkedHashSet<>();
        for (KeyLookup l : headLookups) {
            out.add(l.relation());
        }
        for (Absorption a : absorptions) {
            out.add(a.relation());
        }
        for (Enrichment e : enrichments) {
            for (KeyLookup l : e.lookups()) {
                out.add(l.relation());
            }
        }
        return out;
    }

    /**
     * {@code enrichments} with each lookup through a copy of its relation's key stage ({@link
     * KeyStage}) such that the stages keep an order every row passes them in: the first copy that the
     * row has not passed and that no stage the row passed comes after, else a new copy (fed by the
     * last one, so it comes after all the stages that come before that).
     */
    static List<Enrichment> withCopies(ConjunctiveQuery q, Set<String> staged, List<Enrichment> enrichments) {
        Map<String, Set<String>> after = new HashMap<>();
        for (String r : staged) {
            after.put(r + "#0", new LinkedHashSet<>());
        }
        List<Enrichment> out = new ArrayList<>();
        for (Enrichment e : enrichments) {
            String own = q.body().get(e.atom()).relation();
            String previous = staged.contains(own) ? own + "#0" : null;
            List<KeyLookup> lookups = new ArrayList<>();
            for (KeyLookup l : e.lookups()) {
                int copy = 0;
                String node = l.relation() + "#0";
                while (node.equals(previous) || (previous != null && reaches(after, node, previous))) {
                    copy++;
                    node = l.relation() + "#" + copy;
                    if (after.putIfAbsent(node, new LinkedHashSet<>()) == null) {
                        after.get(l.relation() + "#" + (copy - 1)).add(node);
                    }
                }
                if (previous != null) {
                    after.get(previous).add(node);
                }
                previous = node;
                lookups.add(l.withCopy(copy));
            }
            out.add(new Enrichment(e.atom(), e.relation(), e.gained(), lookups));
        }
        return out;
    }

    /** Whether {@code to} comes after {@code from} in the graph of {@code after} (successors). */
    private static boolean reaches(Map<String, Set<String>> after, String from, String to) {
        Deque<String> work = new ArrayDeque<>(List.of(from));
        Set<String> seen = new HashSet<>();
        while (!work.isEmpty()) {
            String n = work.poll();
            if (n.equals(to)) {
                return true;
            }
            if (seen.add(n)) {
                work.addAll(after.getOrDefault(n, Set.of()));
            }
        }
        return false;
    }

    /**
     * The key stages the lookups use, copies included, in an order that every row passes them in (a
     * row of a keyed relation passes its own stage before its atoms' lookups, a copy comes after the
     * stage that feeds it), into {@code order}; or why there is none (lookups that come back to a
     * stage they passed).
     */
    static String stageOrder(
            ConjunctiveQuery q,
            List<KeyLookup> headLookups,
            List<Absorption> absorptions,
            List<Enrichment> enrichments,
            List<KeyStage> order) {
        Set<String> staged = staged(headLookups, absorptions, enrichments);
        Map<String, KeyStage> nodes = new LinkedHashMap<>();
        Map<String, Set<String>> before = new LinkedHashMap<>();
        for (String r : q.relations()) {
            if (staged.contains(r)) {
                nodes.put(r + "#0", KeyStage.of(q.keyOf(r)));
                before.put(r + "#0", new LinkedHashSet<>());
            }
        }
        for (Enrichment e : enrichments) {
            for (KeyLookup l : e.lookups()) {
                for (int c = 1; c <= l.copy(); c++) {
                    String node = l.relation() + "#" + c;
                    if (nodes.putIfAbsent(node, new KeyStage(q.keyOf(l.relation()), c)) == null) {
                        before.put(node, new LinkedHashSet<>(Set.of(l.relation() + "#" + (c - 1))));
                    }
                }
            }
        }
        for (Enrichment e : enrichments) {
            Atom a = q.body().get(e.atom());
            String previous = staged.contains(a.relation()) ? a.relation() + "#0" : null;
            for (KeyLookup l : e.lookups()) {
                String node = l.relation() + "#" + l.copy();
                if (node.equals(previous)) {
                    return "the lookups of " + a + " pass the key stage of " + l.relation() + " twice";
                }
                if (previous != null) {
                    before.get(node).add(previous);
                }
                previous = node;
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
                List<String> cycle = new ArrayList<>();
                for (String r : left) {
                    cycle.add(r.endsWith("#0") ? r.substring(0, r.length() - 2) : r.replace("#", " copy "));
                }
                return "the lookups run in a cycle through the key stages of " + String.join(", ", cycle);
            }
            left.remove(next);
            order.add(nodes.get(next));
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
}
