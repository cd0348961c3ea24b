package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The paper's plan for a query rewritten under its keys ({@link KeyChase}): the query is not α-acyclic
 * p-hierarchical, its rewriting is, and on databases where the keys hold both have the same result.
 * The head's closure appends the variables that the head determines (one closed result tuple per
 * result tuple: drop them at output); the atoms' closure extends an atom's rows by the values that
 * other atoms' keys give them (a join on a key adds exactly those values); absorption folds a key
 * table into an atom that looks it up by its key, which then also multiplies in the key row's payload,
 * and drops the key table's atom from the query. At run time the rows pass key stages in front of the
 * view trees, one per key looked up (and, with {@link #keyChecks()}, per key only the head's closure
 * relies on), in {@link #stages()} order: a stage keeps one row per key value (a key row that its
 * atoms' selection drops as a mark), rejects a row that breaks the key, and looks up the values (and
 * payloads) an enrichment needs, keeping a row that arrives before its key row until that row comes
 * (O(1) per row, released once).
 *
 * @param query the query as given, with its keys: inputs and results are over it
 * @param classification the classification of {@code query}
 * @param closure which rewriting this is, e.g. "the head's closure" or "the absorbed query"
 * @param keys the keys the plan relies on, in the order rows pass their first stages
 * @param stageOrder every key stage a row may pass, copies included ({@link KeyStage}), in the order
 *     rows pass them, with key checks (the stages of the trusted keys included)
 * @param keyChecks whether keys relied on only through the head's closure get a stage that checks them;
 *     without one they are trusted (as Flink trusts {@code NOT ENFORCED})
 * @param addedHead the head's closure: variables appended to the head of the closed query
 * @param headLookups how the head determines them (one lookup each step)
 * @param absorptions the atoms folded into others, in the order they were folded
 * @param enrichments the atoms that gain variables or absorb others, in body order
 * @param closed the plan of the closed query ({@code closed.query()}), whose atoms are the query's
 *     atoms that are not absorbed, in body order: the α-acyclic p-hierarchical plan, or under deletes the
 *     q-hierarchical plan, whose changelog relations are the closed relations whose rows, or whose key
 *     rows looked up, have deletes
 * @param inputs which of the query's relations have deletes and updates (then the stages keep the rows
 *     that look each key up, to retract and re-emit them when the key row changes)
 * @param tables the table each relation's rows come from, where several relations take the rows of one
 *     table (the SQL front end's aliases of one table with different filters); empty if none do. A row
 *     that breaks the key of such a table is reported once ({@link #reporter})
 */
@Internal
public record KeyedPlan(
        ConjunctiveQuery query,
        Classification classification,
        String closure,
        List<ConjunctiveQuery.Key> keys,
        List<KeyStage> stageOrder,
        boolean keyChecks,
        List<String> addedHead,
        List<KeyLookup> headLookups,
        List<Absorption> absorptions,
        List<Enrichment> enrichments,
        ViewTreePlan closed,
        Inputs inputs,
        Map<String, String> tables)
        implements MaintenancePlan {

    public KeyedPlan {
        tables = Map.copyOf(tables);
        for (String r : tables.keySet()) {
            if (!query.relations().contains(r)) {
                throw new IllegalArgumentException("table of " + r + ", which is no relation of " + query);
            }
        }
        keys = List.copyOf(keys);
        stageOrder = List.copyOf(stageOrder);
        addedHead = List.copyOf(addedHead);
        headLookups = List.copyOf(headLookups);
        absorptions = List.copyOf(absorptions);
        enrichments = List.copyOf(enrichments);
        KeyedPlanChecks.validate(query, keys, stageOrder, addedHead, headLookups, absorptions, enrichments, closed);
        PlanText.check(
                inputs.isInsertOnly() == closed.inputs().isInsertOnly()
                        && inputs.isInsertOnly() == !(closed instanceof QHierarchicalPlan),
                "a plan with deletes closes over the q-hierarchical plan, an insert-only one over the p-hierarchical");
    }

    /** A plan whose relations each take the rows of a table of their own. */
    public KeyedPlan(
            ConjunctiveQuery query,
            Classification classification,
            String closure,
            List<ConjunctiveQuery.Key> keys,
            List<KeyStage> stageOrder,
            boolean keyChecks,
            List<String> addedHead,
            List<KeyLookup> headLookups,
            List<Absorption> absorptions,
            List<Enrichment> enrichments,
            ViewTreePlan closed,
            Inputs inputs) {
        this(
                query,
                classification,
                closure,
                keys,
                stageOrder,
                keyChecks,
                addedHead,
                headLookups,
                absorptions,
                enrichments,
                closed,
                inputs,
                Map.of());
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

    /**
     * This plan with key stages that check the keys relied on only through the head's closure
     * ({@code true}), or trusting them ({@code false}, the planner's default).
     */
    @Override
    public KeyedPlan withKeyChecks(boolean checks) {
        return checks == keyChecks
                ? this
                : new KeyedPlan(
                        query,
                        classification,
                        closure,
                        keys,
                        stageOrder,
                        checks,
                        addedHead,
                        headLookups,
                        absorptions,
                        enrichments,
                        closed,
                        inputs,
                        tables);
    }

    /**
     * This plan where the relations in {@code tableOfRelation} take the rows of the tables it names:
     * a row that breaks the key of a table that some of its relations absorb is then reported once, by
     * the stage of one of them ({@link #reporter}); the other stages of the table reject it too, and stay
     * silent.
     */
    @Override
    public KeyedPlan withTables(Map<String, String> tableOfRelation) {
        Map<String, String> shared = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : tableOfRelation.entrySet()) {
            if (query.relations().contains(e.getKey())) {
                shared.put(e.getKey(), e.getValue());
            }
        }
        return shared.equals(tables)
                ? this
                : new KeyedPlan(
                        query,
                        classification,
                        closure,
                        keys,
                        stageOrder,
                        keyChecks,
                        addedHead,
                        headLookups,
                        absorptions,
                        enrichments,
                        closed,
                        inputs,
                        shared);
    }

    /**
     * The relation whose key stage reports the rows of {@code relation} that break its key: the first
     * absorbed relation of the same table ({@link #tables()}) in stage order, else {@code relation} itself.
     */
    public String reporter(String relation) {
        return order().reporter(relation);
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

    /** The absorption of atom {@code atom}, or null if it is not folded into another. */
    public Absorption absorption(int atom) {
        for (Absorption a : absorptions) {
            if (a.atom() == atom) {
                return a;
            }
        }
        return null;
    }

    /** The index in the closed query of the query's atom {@code atom}, or -1 if it is absorbed. */
    public int closedAtom(int atom) {
        if (absorption(atom) != null) {
            return -1;
        }
        int closedIndex = 0;
        for (int a = 0; a < atom; a++) {
            closedIndex += absorption(a) == null ? 1 : 0;
        }
        return closedIndex;
    }

    /** The query's atom that the closed query's atom {@code closedAtom} stands for. */
    public int originalAtom(int closedAtom) {
        int seen = -1;
        for (Atom a : query.body()) {
            seen += absorption(a.index()) == null ? 1 : 0;
            if (seen == closedAtom) {
                return a.index();
            }
        }
        throw new IllegalArgumentException("the closed query has no atom " + closedAtom);
    }

    /** Whether an atom of {@code relation} is absorbed: a second row with a key value is then a violation. */
    public boolean absorbs(String relation) {
        return order().absorbs(relation);
    }

    /** Whether some enrichment looks up {@code relation}'s key (its stage then keeps marks of dropped key rows). */
    public boolean isLookedUp(String relation) {
        return order().isLookedUp(relation);
    }

    /** The keys relied on only through the head's closure: nothing looks them up while rows flow. */
    public List<ConjunctiveQuery.Key> headOnlyKeys() {
        return order().headOnlyKeys();
    }

    /** The keys relied on without a stage that checks them: {@link #headOnlyKeys()} unless {@link #keyChecks()}. */
    public List<ConjunctiveQuery.Key> trusted() {
        return order().trusted();
    }

    /** The key stages, in the order rows pass them: {@link #stageOrder()} without the trusted keys' stages. */
    public List<KeyStage> stages() {
        return order().stages();
    }

    /** The index of the first stage of {@code relation}'s key in {@link #stages()}, or -1 if it has none. */
    public int stage(String relation) {
        return stage(relation, 0);
    }

    /** The index of copy {@code copy} of {@code relation}'s key stage in {@link #stages()}, or -1. */
    public int stage(String relation, int copy) {
        return order().stage(relation, copy);
    }

    private KeyStageOrder order() {
        return new KeyStageOrder(keys, stageOrder, keyChecks, absorptions, enrichments, tables);
    }

    @Override
    public void validate() {
        closed.validate();
        KeyedPlanChecks.validate(query, keys, stageOrder, addedHead, headLookups, absorptions, enrichments, closed);
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
        String bound = inputs.isInsertOnly()
                ? "amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1)"
                : "O(1) per insert or delete, except that a change of a key row that rows look up costs O(rows"
                        + " that look it up), which its stage retracts and re-emits (as Flink SQL's join re-emits"
                        + " them), and constant-delay enumeration (q-hierarchical: Berkholz, Keppeler, Schweikardt,"
                        + " PODS 2017)";
        return bound + " on databases where the keys hold (" + keyList(keys)
                + "; Berkholz, Keppeler, Schweikardt, ICDT 2018); " + PlanText.lookups(closed)
                + PlanText.payloadCost(semiring());
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        List<ConjunctiveQuery.Key> checked = new ArrayList<>(keys);
        checked.removeAll(trusted());
        if (!checked.isEmpty()) {
            sb.append("Keys relied on (a row that breaks one is rejected): ")
                    .append(keyList(checked))
                    .append('\n');
        }
        if (!trusted().isEmpty()) {
            sb.append("Keys trusted (relied on through the head's closure only, so no stage looks them up: not")
                    .append(" checked, as Flink trusts NOT ENFORCED; IvmOptions.withKeyChecks(true) or --key-checks")
                    .append(" checks them): ")
                    .append(keyList(trusted()))
                    .append('\n');
        }
        List<ConjunctiveQuery.Key> unused = new ArrayList<>(query.keys());
        unused.removeAll(keys);
        if (!unused.isEmpty()) {
            sb.append("Keys not relied on (not checked): ")
                    .append(keyList(unused))
                    .append('\n');
        }
        if (!absorptions.isEmpty()) {
            sb.append("Key tables absorbed (each folded into an atom that looks it up by its key: R' = R ⋈ S,")
                    .append(" S's payload multiplied in once, by the taker's rows):\n");
            for (Absorption a : absorptions) {
                sb.append("  ")
                        .append(query.body().get(a.atom()))
                        .append(" folded into ")
                        .append(atomName(a.into()))
                        .append(" by ")
                        .append(String.join(",", a.key()))
                        .append("; payload taken by ")
                        .append(atomName(a.taker()))
                        .append('\n');
            }
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
                    .append(e.gained().isEmpty() ? " gains nothing" : " gains " + String.join(",", e.gained()))
                    .append(": ")
                    .append(chain(e.lookups()))
                    .append('\n');
        }
        sb.append("Classification of the closure:\n");
        for (String line : closed.classification().describe().split("\n")) {
            sb.append("  ").append(line).append('\n');
        }
        if (!checked.isEmpty()) {
            sb.append("Key stages (in front of the view trees, in this order; a row that arrives before its key row")
                    .append(" waits there, O(1), and is released once");
            if (!absorptions.isEmpty() || !enrichments.isEmpty()) {
                sb.append("; a key row that its atoms' selection drops is kept as a mark, and the rows that look")
                        .append(" it up are dropped");
            }
            if (!inputs.isInsertOnly()) {
                sb.append("; with deletes and updates each stage keeps the rows that look it up, and a change of")
                        .append(" a key row retracts and re-emits them: O(rows that reference it)");
            }
            sb.append("):\n");
        }
        for (KeyStage stage : stages()) {
            ConjunctiveQuery.Key k = stage.key();
            sb.append("  ").append(stageName(stage));
            if (stage.copy() > 0) {
                sb.append(": the rows of ")
                        .append(stageName(new KeyStage(k, stage.copy() - 1)))
                        .append(", for rows that meet the key again");
            } else {
                sb.append(": one row per key");
                if (absorbs(k.relation())) {
                    sb.append(", absorbed (a second row with the key, identical or not, is rejected)");
                }
                String reporter = reporter(k.relation());
                if (!reporter.equals(k.relation())) {
                    sb.append(", its rejected rows reported by ")
                            .append(reporter)
                            .append("'s stage (one table)");
                } else if (tables.containsKey(k.relation())) {
                    List<String> others = order().reportedFor(k.relation());
                    if (!others.isEmpty()) {
                        sb.append(", reports the rows of table ")
                                .append(tables.get(k.relation()))
                                .append(" that break its key once, also for ")
                                .append(String.join(", ", others));
                    }
                }
            }
            List<String> uses = new ArrayList<>();
            for (KeyLookup l : headLookups) {
                if (l.relation().equals(k.relation()) && stage.copy() == 0) {
                    uses.add("determines the head's " + String.join(",", l.added()));
                }
            }
            for (Enrichment e : enrichments) {
                for (KeyLookup l : e.lookups()) {
                    if (l.relation().equals(k.relation()) && l.copy() == stage.copy()) {
                        String what = l.added().isEmpty() ? "" : String.join(",", l.added());
                        if (l.payload()) {
                            what += what.isEmpty() ? "its payload" : " and its payload";
                        }
                        uses.add("adds " + what + " to " + query.body().get(e.atom()));
                    }
                }
            }
            sb.append(uses.isEmpty() ? "" : "; " + String.join("; ", uses)).append('\n');
        }
        explainClosed(sb);
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

    private void explainClosed(StringBuilder sb) {
        if (closed instanceof PHierarchicalPlan p) {
            p.explainPlan(sb);
        } else if (closed instanceof QHierarchicalPlan q) {
            q.explainPlan(sb);
        } else {
            throw new IllegalStateException("a keyed plan's closed plan is α-acyclic: " + closed.kind());
        }
    }

    /** A stage as explain and the Flink job name it, e.g. {@code nation(nk)} or {@code nation(nk) copy 1}. */
    public String stageName(KeyStage stage) {
        return query.keyText(stage.key()) + (stage.copy() == 0 ? "" : " copy " + stage.copy());
    }

    /** An atom by its relation's name, or by the atom itself where its relation has several. */
    private String atomName(int atom) {
        Atom a = query.body().get(atom);
        return query.atomsOfRelation(a.relation()).size() > 1 ? a.toString() : a.relation();
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
        List<KeyStage> stages = stages();
        for (int s = 0; s < stages.size(); s++) {
            sb.append("  k")
                    .append(s)
                    .append("[\"key stage ")
                    .append(stageName(stages.get(s)))
                    .append("\"]\n");
            if (stages.get(s).copy() > 0) {
                sb.append("  k")
                        .append(stage(stages.get(s).relation(), stages.get(s).copy() - 1))
                        .append(" -.-> k")
                        .append(s)
                        .append('\n');
            }
        }
        for (Atom a : query.body()) {
            int own = stage(a.relation());
            Enrichment e = enrichment(a.index());
            int from = own;
            if (e != null) {
                for (KeyLookup l : e.lookups()) {
                    int to = stage(l.relation(), l.copy());
                    sb.append(from >= 0 ? "  k" + from : "  in" + a.index() + "[\"" + a + "\"]")
                            .append(" -.-> k")
                            .append(to)
                            .append('\n');
                    from = to;
                }
            }
            int closedIndex = closedAtom(a.index());
            if (from >= 0 && closedIndex >= 0) {
                sb.append("  k")
                        .append(from)
                        .append(" -.-> a")
                        .append(closedIndex)
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
