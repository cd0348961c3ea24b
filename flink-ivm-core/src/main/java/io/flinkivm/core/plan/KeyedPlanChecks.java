package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a {@link KeyedPlan} must satisfy: its closed query is the query's atoms that are not absorbed,
 * each enriched by the values its lookups find, under the head and its closure; every lookup goes
 * through a key relied on, whose variables the row already has, past the key stages in their order;
 * every absorbed atom's payload goes to its taker. A failed check is an internal error.
 */
final class KeyedPlanChecks {
    private KeyedPlanChecks() {}

    /** Checks the parts of a keyed plan against each other and the query. */
    static void validate(
            ConjunctiveQuery query,
            List<ConjunctiveQuery.Key> keys,
            List<KeyStage> stageOrder,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Absorption> absorptions,
            List<Enrichment> enrichments,
            ViewTreePlan closed) {
        ConjunctiveQuery c = closed.query();
        PlanText.check(
                closed instanceof PHierarchicalPlan || closed instanceof QHierarchicalPlan,
                "the closed plan is α-acyclic (p-hierarchical, or q-hierarchical under deletes)");
        PlanText.check(query.keys().containsAll(keys), "the keys relied on are declared");
        List<ConjunctiveQuery.Key> firsts = new ArrayList<>();
        for (int i = 0; i < stageOrder.size(); i++) {
            KeyStage k = stageOrder.get(i);
            PlanText.check(stageOrder.indexOf(k) == i, "a key stage comes once");
            if (k.copy() == 0) {
                firsts.add(k.key());
            } else {
                int feeder = stageOrder.indexOf(new KeyStage(k.key(), k.copy() - 1));
                PlanText.check(feeder >= 0 && feeder < i, "a stage's copy comes after the stage that feeds it");
            }
        }
        PlanText.check(firsts.equals(keys), "the keys relied on are those of the first stages, in their order");
        List<String> head = new ArrayList<>(query.head());
        head.addAll(addedHead);
        PlanText.check(c.head().equals(head), "the closed head is the head and the head's closure");
        PlanText.check(
                c.body().size() == query.body().size() - absorptions.size(),
                "the closed query has the query's atoms that are not absorbed");
        PlanText.check(c.keys().isEmpty(), "the closed query declares no keys");
        Set<String> fromHead = new LinkedHashSet<>(query.head());
        for (KeyLookup l : headLookups) {
            checkLookup(query, keys, fromHead, l);
            PlanText.check(!l.payload(), "the head's lookups take no payload");
        }
        PlanText.check(
                fromHead.size() == head.size() && fromHead.containsAll(head), "the head's lookups find its closure");
        boolean[] absorbed = new boolean[query.body().size()];
        for (Absorption a : absorptions) {
            PlanText.check(
                    a.atom() >= 0 && a.atom() < absorbed.length && !absorbed[a.atom()], "an atom is absorbed once");
            absorbed[a.atom()] = true;
        }
        Set<String> stages = new LinkedHashSet<>();
        for (KeyLookup l : headLookups) {
            stages.add(l.relation());
        }
        for (Absorption a : absorptions) {
            Atom s = query.body().get(a.atom());
            ConjunctiveQuery.Key key = query.keyOf(s.relation());
            PlanText.check(
                    s.relation().equals(a.relation()) && key != null && keys.contains(key),
                    "an absorbed atom's key is relied on");
            PlanText.check(keyVariables(s, key).equals(a.key()), "an absorption is by its atom's key variables");
            PlanText.check(
                    a.into() >= 0
                            && a.into() < absorbed.length
                            && !query.body().get(a.into()).relation().equals(a.relation()),
                    "an atom is folded into an atom of another relation");
            int taker = a.into();
            for (int hops = 0; absorbed[taker] && hops < absorbed.length; hops++) {
                Absorption next = null;
                for (Absorption x : absorptions) {
                    next = x.atom() == taker ? x : next;
                }
                taker = next.into();
            }
            PlanText.check(taker == a.taker() && !absorbed[taker], "an absorbed atom's payload goes to its taker");
            stages.add(a.relation());
        }
        int previous = -1;
        for (Enrichment e : enrichments) {
            PlanText.check(e.atom() > previous && e.atom() < query.body().size(), "enrichments in body order");
            PlanText.check(!absorbed[e.atom()], "an absorbed atom gains nothing");
            previous = e.atom();
        }
        int closedIndex = 0;
        for (Atom a : query.body()) {
            if (absorbed[a.index()]) {
                continue;
            }
            Atom closedAtom = c.body().get(closedIndex++);
            Enrichment e = null;
            for (Enrichment x : enrichments) {
                e = x.atom() == a.index() ? x : e;
            }
            Set<Integer> takes = new HashSet<>();
            for (Absorption x : absorptions) {
                if (x.taker() == a.index()) {
                    takes.add(x.atom());
                }
            }
            List<Term> terms = new ArrayList<>(a.terms());
            if (e == null) {
                PlanText.check(
                        closedAtom.relation().equals(a.relation())
                                && closedAtom.terms().equals(terms),
                        "an atom without enrichment is unchanged");
                PlanText.check(takes.isEmpty(), "an atom that absorbs others looks them up");
                continue;
            }
            PlanText.check(!e.lookups().isEmpty(), "an enrichment looks something up");
            for (String v : e.gained()) {
                terms.add(new Variable(v));
            }
            PlanText.check(
                    closedAtom.terms().equals(terms) && closedAtom.relation().equals(e.relation()),
                    "an enriched atom is the atom and its gains");
            PlanText.check(
                    e.relation().equals(a.relation())
                            || query.atomsOfRelation(a.relation()).size() > 1,
                    "an enriched atom is renamed only where its relation has other atoms");
            Set<String> known = new LinkedHashSet<>(a.variables());
            int stage = KeyStageOrder.indexOf(stageOrder, a.relation(), 0);
            for (KeyLookup l : e.lookups()) {
                checkLookup(query, keys, known, l);
                if (l.payload()) {
                    PlanText.check(takes.remove(l.atom()), "a payload is taken only by its absorbed atom's taker");
                }
                int next = KeyStageOrder.indexOf(stageOrder, l.relation(), l.copy());
                PlanText.check(next > stage, "an enrichment's lookups pass the key stages in order");
                stage = next;
                stages.add(l.relation());
            }
            PlanText.check(takes.isEmpty(), "a taker takes the payload of every atom absorbed into it");
            PlanText.check(known.containsAll(e.gained()), "an enrichment's lookups find its gains");
        }
        for (ConjunctiveQuery.Key k : keys) {
            PlanText.check(stages.contains(k.relation()), "every key relied on is looked up");
        }
    }

    private static List<String> keyVariables(Atom s, ConjunctiveQuery.Key key) {
        List<String> columns = new ArrayList<>();
        for (int p : key.positions()) {
            PlanText.check(s.terms().get(p) instanceof Variable, "a looked-up key's columns hold variables");
            String v = ((Variable) s.terms().get(p)).name();
            if (!columns.contains(v)) {
                columns.add(v);
            }
        }
        return columns;
    }

    /** A lookup through an atom whose key columns hold its key variables, all known; adds what it adds to {@code known}. */
    private static void checkLookup(
            ConjunctiveQuery query, List<ConjunctiveQuery.Key> keys, Set<String> known, KeyLookup l) {
        PlanText.check(l.atom() >= 0 && l.atom() < query.body().size(), "a lookup's atom is in the body");
        Atom s = query.body().get(l.atom());
        ConjunctiveQuery.Key key = query.keyOf(s.relation());
        PlanText.check(
                s.relation().equals(l.relation()) && key != null && keys.contains(key),
                "a lookup goes through a key relied on");
        PlanText.check(
                keyVariables(s, key).equals(l.key()) && known.containsAll(l.key()),
                "a lookup's key variables are known");
        PlanText.check(s.variables().containsAll(l.added()), "a lookup adds variables of its atom");
        for (String v : l.added()) {
            PlanText.check(known.add(v), "a lookup adds variables the row lacks");
        }
    }
}
