package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The paper's plan for the closure of a query under its keys ({@link KeyChase}): the query is not
 * α-acyclic p-hierarchical, its closure is, and on databases where the keys hold both have the same
 * result. The head's closure appends the variables that the head determines (one closed result tuple
 * per result tuple: drop them at output); the atoms' closure extends an atom's rows by the values
 * that other atoms' keys give them (a join on a key adds exactly those values). At run time the rows
 * pass key stages in front of the view trees, one per key relied on, in {@link #keys()} order: a
 * stage keeps one row per key value, rejects a row that breaks the key, and looks up the values an
 * enrichment needs, keeping a row that arrives before its key row until that row comes (O(1) per row,
 * released once).
 *
 * @param query the query as given, with its keys: inputs and results are over it
 * @param classification the classification of {@code query}
 * @param closure which closure this is, e.g. "the head's closure"
 * @param keys the keys the plan relies on, one key stage each, in the order rows pass the stages
 * @param addedHead the head's closure: variables appended to the head of the closed query
 * @param headLookups how the head determines them (one lookup each step)
 * @param enrichments the atoms that gain variables, in body order
 * @param closed the plan of the closed query ({@code closed.query()})
 */
@Internal
public record KeyedPlan(
        ConjunctiveQuery query,
        Classification classification,
        String closure,
        List<ConjunctiveQuery.Key> keys,
        List<String> addedHead,
        List<KeyLookup> headLookups,
        List<Enrichment> enrichments,
        PHierarchicalPlan closed)
        implements MaintenancePlan {

    public KeyedPlan {
        keys = List.copyOf(keys);
        addedHead = List.copyOf(addedHead);
        headLookups = List.copyOf(headLookups);
        enrichments = List.copyOf(enrichments);
        validate(query, keys, addedHead, headLookups, enrichments, closed);
    }

    @Override
    public String semiring() {
        return closed.semiring();
    }

    @Override
    public Set<SemiringProperty> semiringProperties() {
        return closed.semiringProperties();
    }

    @Override
    public PlanKind kind() {
        return closed.kind();
    }

    /** The closed query, which the view trees maintain: results over its head, projected to {@link #query()}'s. */
    public ConjunctiveQuery closedQuery() {
        return closed.query();
    }

    /** The enrichment of atom {@code atom}, or null if it gains nothing. */
    public Enrichment enrichment(int atom) {
        for (Enrichment e : enrichments) {
            if (e.atom() == atom) {
                return e;
            }
        }
        return null;
    }

    /** The index of {@code relation}'s key stage in {@link #keys()}, or -1 if the plan relies on no key of it. */
    public int stage(String relation) {
        for (int s = 0; s < keys.size(); s++) {
            if (keys.get(s).relation().equals(relation)) {
                return s;
            }
        }
        return -1;
    }

    @Override
    public void validate() {
        closed.validate();
        validate(query, keys, addedHead, headLookups, enrichments, closed);
    }

    private static void validate(
            ConjunctiveQuery query,
            List<ConjunctiveQuery.Key> keys,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Enrichment> enrichments,
            PHierarchicalPlan closed) {
        ConjunctiveQuery c = closed.query();
        PlanText.check(query.keys().containsAll(keys), "the keys relied on are declared");
        List<String> head = new ArrayList<>(query.head());
        head.addAll(addedHead);
        PlanText.check(c.head().equals(head), "the closed head is the head and the head's closure");
        PlanText.check(c.body().size() == query.body().size(), "the closed query has the query's atoms");
        PlanText.check(c.keys().isEmpty(), "the closed query declares no keys");
        Set<String> fromHead = new LinkedHashSet<>(query.head());
        for (KeyLookup l : headLookups) {
            checkLookup(query, keys, fromHead, l);
        }
        PlanText.check(
                fromHead.size() == head.size() && fromHead.containsAll(head), "the head's lookups find its closure");
        int previous = -1;
        for (Enrichment e : enrichments) {
            PlanText.check(e.atom() > previous && e.atom() < query.body().size(), "enrichments in body order");
            previous = e.atom();
        }
        Set<String> stages = new LinkedHashSet<>();
        for (KeyLookup l : headLookups) {
            stages.add(l.relation());
        }
        for (Atom a : query.body()) {
            Atom closedAtom = c.body().get(a.index());
            Enrichment e = null;
            for (Enrichment x : enrichments) {
                e = x.atom() == a.index() ? x : e;
            }
            List<Term> terms = new ArrayList<>(a.terms());
            if (e == null) {
                PlanText.check(closedAtom.equals(a), "an atom without enrichment is unchanged");
                continue;
            }
            PlanText.check(!e.gained().isEmpty() && !e.lookups().isEmpty(), "an enrichment gains something");
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
            int stage = indexOf(keys, a.relation());
            for (KeyLookup l : e.lookups()) {
                checkLookup(query, keys, known, l);
                int next = indexOf(keys, l.relation());
                PlanText.check(next > stage, "an enrichment's lookups pass the key stages in order");
                stage = next;
                stages.add(l.relation());
            }
            PlanText.check(known.containsAll(e.gained()), "an enrichment's lookups find its gains");
        }
        for (ConjunctiveQuery.Key k : keys) {
            PlanText.check(stages.contains(k.relation()), "every key relied on is looked up");
        }
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
        List<String> columns = new ArrayList<>();
        for (int p : key.positions()) {
            PlanText.check(s.terms().get(p) instanceof Variable, "a lookup's key columns hold variables");
            String v = ((Variable) s.terms().get(p)).name();
            if (!columns.contains(v)) {
                columns.add(v);
            }
        }
        PlanText.check(columns.equals(l.key()) && known.containsAll(l.key()), "a lookup's key variables are known");
        PlanText.check(s.variables().containsAll(l.added()), "a lookup adds variables of its atom");
        known.addAll(l.added());
    }

    private static int indexOf(List<ConjunctiveQuery.Key> keys, String relation) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).relation().equals(relation)) {
                return i;
            }
        }
        return -1;
    }

    /** The keys as the query writes them, e.g. {@code orders(ok), customer(ck)}. */
    private String keyList(List<ConjunctiveQuery.Key> list) {
        List<String> out = new ArrayList<>();
        for (ConjunctiveQuery.Key k : list) {
            out.add(query.keyText(k));
        }
        return String.join(", ", out);
    }

    @Override
    public String guarantee() {
        return "amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1) on databases where the"
                + " keys hold (" + keyList(keys) + "; Berkholz, Keppeler, Schweikardt, ICDT 2018); "
                + PlanText.lookups(closed);
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        sb.append("Keys relied on (a row that breaks one is rejected): ")
                .append(keyList(keys))
                .append('\n');
        List<ConjunctiveQuery.Key> unused = new ArrayList<>(query.keys());
        unused.removeAll(keys);
        if (!unused.isEmpty()) {
            sb.append("Keys not relied on (not checked): ")
                    .append(keyList(unused))
                    .append('\n');
        }
        sb.append("Closure under the keys (")
                .append(closure)
                .append("): ")
                .append(closedQuery())
                .append('\n');
        if (!addedHead.isEmpty()) {
            sb.append("  the head gains ")
                    .append(String.join(",", addedHead))
                    .append(": ")
                    .append(chain(headLookups))
                    .append('\n');
        }
        for (Enrichment e : enrichments) {
            sb.append("  ")
                    .append(query.body().get(e.atom()))
                    .append(" gains ")
                    .append(String.join(",", e.gained()))
                    .append(": ")
                    .append(chain(e.lookups()))
                    .append('\n');
        }
        sb.append("Classification of the closure:\n");
        for (String line : closed.classification().describe().split("\n")) {
            sb.append("  ").append(line).append('\n');
        }
        sb.append("Key stages (in front of the view trees, in this order; a row that arrives before its key row")
                .append(" waits there, O(1), and is released once):\n");
        for (ConjunctiveQuery.Key k : keys) {
            sb.append("  ").append(query.keyText(k)).append(": one row per key");
            List<String> uses = new ArrayList<>();
            for (KeyLookup l : headLookups) {
                if (l.relation().equals(k.relation())) {
                    uses.add("determines the head's " + String.join(",", l.added()));
                }
            }
            for (Enrichment e : enrichments) {
                for (KeyLookup l : e.lookups()) {
                    if (l.relation().equals(k.relation())) {
                        uses.add("adds " + String.join(",", l.added()) + " to "
                                + query.body().get(e.atom()));
                    }
                }
            }
            sb.append(uses.isEmpty() ? "" : "; " + String.join("; ", uses)).append('\n');
        }
        closed.explainPlan(sb);
        if (!addedHead.isEmpty()) {
            sb.append("Results: ")
                    .append(subject(closedQuery()))
                    .append(" without ")
                    .append(String.join(",", addedHead))
                    .append(" is ")
                    .append(subject(query))
                    .append(" (one to one where the keys hold)\n");
        }
        return PlanText.tail(sb, this);
    }

    private static String subject(ConjunctiveQuery q) {
        return q.name() + "(" + String.join(",", q.head()) + ")";
    }

    private static String chain(List<KeyLookup> lookups) {
        List<String> out = new ArrayList<>();
        for (KeyLookup l : lookups) {
            out.add(l.toString());
        }
        return String.join(", then ", out);
    }

    @Override
    public String toMermaid() {
        String inner = closed.toMermaid();
        StringBuilder sb = new StringBuilder();
        int firstLine = inner.indexOf('\n') + 1;
        sb.append(inner, 0, firstLine);
        for (int s = 0; s < keys.size(); s++) {
            sb.append("  k")
                    .append(s)
                    .append("[\"key stage ")
                    .append(query.keyText(keys.get(s)))
                    .append("\"]\n");
        }
        for (Atom a : query.body()) {
            int own = stage(a.relation());
            Enrichment e = enrichment(a.index());
            int from = own;
            if (e != null) {
                for (KeyLookup l : e.lookups()) {
                    int to = stage(l.relation());
                    sb.append(from >= 0 ? "  k" + from : "  in" + a.index() + "[\"" + a + "\"]")
                            .append(" -.-> k")
                            .append(to)
                            .append('\n');
                    from = to;
                }
            }
            if (from >= 0) {
                sb.append("  k")
                        .append(from)
                        .append(" -.-> a")
                        .append(a.index())
                        .append('\n');
            }
        }
        return sb.append(inner, firstLine, inner.length()).toString();
    }

    @Override
    public String toString() {
        return PlanText.toString(this);
    }
}
