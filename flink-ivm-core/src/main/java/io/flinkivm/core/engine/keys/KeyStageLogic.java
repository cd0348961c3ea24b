package io.flinkivm.core.engine.keys;

import io.flinkivm.core.plan.Enrichment;
import io.flinkivm.core.plan.KeyLookup;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomMatcher;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.flink.annotation.Internal;

/**
 * What the key stages of a {@link KeyedPlan} do with a row, once, for the in-memory engine and the
 * Flink operators (a plan compiled to array positions; immutable and serializable, so a Flink key
 * selector can hold it). Stage s keeps the rows of the relation of {@code plan.keys().get(s)} under
 * their key values:
 *
 * <ul>
 *   <li>a row of that relation ({@link #keyRow}): if no row is stored under its key value, it is
 *       stored and passed on, then every row waiting for it is released (each once, extended by the
 *       values it looked up); an identical row is passed on (its payload adds downstream, as a
 *       repeated row's does); a row with other values breaks the key: it is rejected, nothing changes;
 *   <li>a row of an enriched atom ({@link #probe}): if its key row is stored, it is extended by the
 *       looked-up values and goes on (to the next lookup's stage, or to the view trees); else it waits,
 *       O(1).
 * </ul>
 *
 * A row goes on to the view trees ({@link Output#toIngest}) as a row of the closed query's relation;
 * rows compare as relation tuples (the columns the query uses), never by payload. A row that fails
 * its atom's selection (constants, repeated variables) is not kept, nor is an enriched row whose key
 * row fails the looked-up atom's selection or disagrees with it on a shared variable (it would join
 * nothing).
 */
@Internal
public final class KeyStageLogic<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where a stage's rows go. */
    public interface Output<T> {
        /** {@code row} goes to stage {@code stage} (a later one). */
        void toStage(int stage, StageRow<T> row);

        /** An insert of {@code tuple} into the closed query's {@code relation} goes to the view trees. */
        void toIngest(String relation, Tuple tuple, T payload, String origin);
    }

    private final Map<String, Integer> relations = new HashMap<>();
    private final String[] relationNames;
    /** Per relation: its key stage, or -1. */
    private final int[] stageOfRelation;
    /** Per relation: whether it has an atom that gains nothing (its rows go on as they are). */
    private final boolean[] direct;
    /** Per relation: its atoms (all, and the enriched ones). */
    private final int[][] atomsOfRelation;

    private final int[][] enrichedOfRelation;
    private final AtomMatcher[] matchers;

    /** Per stage: its relation's index and the key's columns. */
    private final int[] stageRelation;

    private final int[][] stageColumns;
    private final String[] stageKeys;
    /** Per atom (null if it gains nothing): its closed relation, and per lookup step the compiled step. */
    private final String[] closedRelation;

    private final Step[][] steps;
    private final int[][] finalColumns;
    /** The head's lookups, over the head tuple, and the closed head's columns in the extended tuple. */
    private final Step[] headSteps;

    private final int[] headColumns;

    /** One lookup step over a row laid out as the relation tuple (or head tuple) and the values added so far. */
    private static final class Step implements Serializable {
        private static final long serialVersionUID = 1L;
        final int stage;
        /** Positions in the row of the key's values, in column order. */
        final int[] key;

        final AtomMatcher lookedUp;
        /** Pairs (position in the row, column of the key row) of variables the row already has. */
        final int[] shared;
        /** Columns of the key row appended to the row. */
        final int[] append;

        Step(int stage, int[] key, AtomMatcher lookedUp, int[] shared, int[] append) {
            this.stage = stage;
            this.key = key;
            this.lookedUp = lookedUp;
            this.shared = shared;
            this.append = append;
        }
    }

    public KeyStageLogic(KeyedPlan plan) {
        ConjunctiveQuery q = plan.query();
        List<String> names = q.relations();
        relationNames = names.toArray(new String[0]);
        stageOfRelation = new int[names.size()];
        direct = new boolean[names.size()];
        atomsOfRelation = new int[names.size()][];
        enrichedOfRelation = new int[names.size()][];
        matchers = new AtomMatcher[q.body().size()];
        closedRelation = new String[q.body().size()];
        steps = new Step[q.body().size()][];
        finalColumns = new int[q.body().size()][];
        for (Atom a : q.body()) {
            matchers[a.index()] = a.matcher();
        }
        for (int r = 0; r < names.size(); r++) {
            relations.put(names.get(r), r);
            stageOfRelation[r] = plan.stage(names.get(r));
            List<Integer> all = new ArrayList<>();
            List<Integer> enriched = new ArrayList<>();
            for (Atom a : q.atomsOfRelation(names.get(r))) {
                all.add(a.index());
                if (plan.enrichment(a.index()) == null) {
                    direct[r] = true;
                } else {
                    enriched.add(a.index());
                }
            }
            atomsOfRelation[r] = toArray(all);
            enrichedOfRelation[r] = toArray(enriched);
        }
        stageRelation = new int[plan.keys().size()];
        stageColumns = new int[plan.keys().size()][];
        stageKeys = new String[plan.keys().size()];
        for (int s = 0; s < stageRelation.length; s++) {
            ConjunctiveQuery.Key k = plan.keys().get(s);
            stageRelation[s] = relations.get(k.relation());
            stageColumns[s] = k.positionArray();
            stageKeys[s] = q.keyText(k);
        }
        for (Enrichment e : plan.enrichments()) {
            Atom a = q.body().get(e.atom());
            Map<String, Integer> layout = new LinkedHashMap<>();
            for (int p = 0; p < a.terms().size(); p++) {
                if (a.terms().get(p) instanceof Variable v) {
                    layout.putIfAbsent(v.name(), p);
                }
            }
            closedRelation[e.atom()] = e.relation();
            steps[e.atom()] = compile(plan, e.lookups(), layout, a.arity());
            finalColumns[e.atom()] = new int[a.arity() + e.gained().size()];
            for (int p = 0; p < a.arity(); p++) {
                finalColumns[e.atom()][p] = p;
            }
            for (int g = 0; g < e.gained().size(); g++) {
                finalColumns[e.atom()][a.arity() + g] = layout.get(e.gained().get(g));
            }
        }
        Map<String, Integer> head = new LinkedHashMap<>();
        for (String v : q.head()) {
            head.put(v, head.size());
        }
        headSteps = compile(plan, plan.headLookups(), head, head.size());
        List<String> closedHead = plan.closedQuery().head();
        headColumns = new int[closedHead.size()];
        for (int i = 0; i < headColumns.length; i++) {
            headColumns[i] = head.get(closedHead.get(i));
        }
    }

    /** The steps of {@code lookups} over a row whose variables are at {@code layout} (extended as steps add). */
    private static Step[] compile(KeyedPlan plan, List<KeyLookup> lookups, Map<String, Integer> layout, int width) {
        ConjunctiveQuery q = plan.query();
        Step[] out = new Step[lookups.size()];
        int next = width;
        for (int i = 0; i < out.length; i++) {
            KeyLookup l = lookups.get(i);
            Atom s = q.body().get(l.atom());
            ConjunctiveQuery.Key key = q.keyOf(s.relation());
            int[] keyAt = new int[key.positions().size()];
            for (int k = 0; k < keyAt.length; k++) {
                keyAt[k] = layout.get(((Variable) s.terms().get(key.positions().get(k))).name());
            }
            Map<String, Integer> first = new LinkedHashMap<>();
            List<Term> terms = s.terms();
            for (int p = 0; p < terms.size(); p++) {
                if (terms.get(p) instanceof Variable v) {
                    first.putIfAbsent(v.name(), p);
                }
            }
            List<Integer> shared = new ArrayList<>();
            for (Map.Entry<String, Integer> v : first.entrySet()) {
                if (layout.containsKey(v.getKey()) && !l.key().contains(v.getKey())) {
                    shared.add(layout.get(v.getKey()));
                    shared.add(v.getValue());
                }
            }
            int[] append = new int[l.added().size()];
            for (int k = 0; k < append.length; k++) {
                append[k] = first.get(l.added().get(k));
                layout.put(l.added().get(k), next++);
            }
            out[i] = new Step(plan.stage(l.relation()), keyAt, s.matcher(), toArray(shared), append);
        }
        return out;
    }

    private static int[] toArray(List<Integer> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }

    /** The number of key stages. */
    public int stages() {
        return stageRelation.length;
    }

    /** The index of {@code relation} among the query's relations, or -1. */
    public int relation(String relation) {
        Integer r = relations.get(relation);
        return r == null ? -1 : r;
    }

    /** The key value of {@code row} at stage {@code stage}: of a key row, its key's columns; of an enriched row, its lookup's key. */
    public Tuple key(int stage, StageRow<T> row) {
        return row.isKeyRow()
                ? row.values().project(stageColumns[stage])
                : row.values().project(steps[row.atom()][row.step()].key);
    }

    /**
     * The stages a row may go to from stage {@code from} (-1: from the entry, {@link #insert}), in
     * stage order.
     */
    public List<Integer> targets(int from) {
        Set<Integer> out = new java.util.TreeSet<>();
        for (int r = 0; r < relationNames.length; r++) {
            if (from < 0 && stageOfRelation[r] >= 0) {
                out.add(stageOfRelation[r]);
            }
            if ((from < 0 && stageOfRelation[r] < 0) || (from >= 0 && stageRelation[from] == r)) {
                for (int a : enrichedOfRelation[r]) {
                    out.add(steps[a][0].stage);
                }
            }
        }
        for (Step[] chain : steps) {
            for (int i = 0; from >= 0 && chain != null && i + 1 < chain.length; i++) {
                if (chain[i].stage == from) {
                    out.add(chain[i + 1].stage);
                }
            }
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    /**
     * One insert of {@code tuple} (non-zero payload, arity checked) into the query's relation with
     * index {@code relation}: to its key stage if the plan relies on its key, else on as
     * {@link #keyRow} passes a row on. A row that fails all of its relation's atoms goes nowhere.
     */
    public void insert(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        int stage = stageOfRelation[relation];
        if (stage < 0) {
            pass(relation, tuple, payload, origin, out);
            return;
        }
        for (int a : atomsOfRelation[relation]) {
            if (matchers[a].match(tuple) != null) {
                out.toStage(stage, StageRow.keyRow(tuple, payload, origin));
                return;
            }
        }
    }

    /** A row of relation {@code relation} goes on: as it is for its atoms that gain nothing, to its enriched atoms' first lookups. */
    private void pass(int relation, Tuple tuple, T payload, String origin, Output<T> out) {
        if (direct[relation]) {
            out.toIngest(relationNames[relation], tuple, payload, origin);
        }
        for (int a : enrichedOfRelation[relation]) {
            if (matchers[a].match(tuple) != null) {
                out.toStage(steps[a][0].stage, new StageRow<>(a, 0, tuple, payload, origin));
            }
        }
    }

    /**
     * A row of stage {@code stage}'s relation (see the class comment): stored and passed on, with the
     * rows waiting for it released; passed on if identical to the stored row; else rejected.
     *
     * @return the violation if the row breaks the key (then nothing changed), else null
     */
    public KeyViolation keyRow(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        Tuple key = row.values().project(stageColumns[stage]);
        Tuple stored = store.keyRow(key);
        if (stored != null && !stored.equals(row.values())) {
            return new KeyViolation(
                    relationNames[stageRelation[stage]], stageKeys[stage], stageColumns[stage], row.values(), stored);
        }
        pass(stageRelation[stage], row.values(), row.payload(), row.origin(), out);
        if (stored == null) {
            store.putKeyRow(key, row.values());
            for (StageRow<T> waiting : store.takeWaiting(key)) {
                extend(waiting, row.values(), out);
            }
        }
        return null;
    }

    /** A row of an enriched atom at stage {@code stage}: extended and sent on if its key row is stored, else kept waiting. */
    public void probe(int stage, KeyStageStore<T> store, StageRow<T> row, Output<T> out) {
        Tuple key = key(stage, row);
        Tuple stored = store.keyRow(key);
        if (stored == null) {
            store.addWaiting(key, row);
        } else {
            extend(row, stored, out);
        }
    }

    /** {@code row} extended by its step's values from {@code keyRow}, to the next stage or the view trees. */
    private void extend(StageRow<T> row, Tuple keyRow, Output<T> out) {
        int a = row.atom();
        Step step = steps[a][row.step()];
        Tuple extended = extend(step, row.values(), keyRow);
        if (extended == null) {
            return;
        }
        if (row.step() + 1 < steps[a].length) {
            out.toStage(
                    steps[a][row.step() + 1].stage,
                    new StageRow<>(a, row.step() + 1, extended, row.payload(), row.origin()));
        } else {
            out.toIngest(closedRelation[a], extended.project(finalColumns[a]), row.payload(), row.origin());
        }
    }

    /** {@code values} followed by the step's columns of {@code keyRow}; null if the key row cannot join them. */
    private static Tuple extend(Step step, Tuple values, Tuple keyRow) {
        if (step.lookedUp.match(keyRow) == null) {
            return null;
        }
        for (int i = 0; i < step.shared.length; i += 2) {
            if (!values.get(step.shared[i]).equals(keyRow.get(step.shared[i + 1]))) {
                return null;
            }
        }
        Object[] out = new Object[values.arity() + step.append.length];
        for (int i = 0; i < values.arity(); i++) {
            out[i] = values.get(i);
        }
        for (int i = 0; i < step.append.length; i++) {
            out[values.arity() + i] = keyRow.get(step.append[i]);
        }
        return Tuple.wrap(out);
    }

    /**
     * The closed query's head tuple of a result tuple {@code head} of the query: the head's closure
     * looked up in the stages' stored rows ({@code stores} by stage); null if a row it needs is missing
     * or does not fit (then the closed query has no such result tuple).
     */
    public Tuple closedHead(Tuple head, IntFunction<KeyStageStore<T>> stores) {
        Tuple values = head;
        for (Step step : headSteps) {
            Tuple stored = stores.apply(step.stage).keyRow(values.project(step.key));
            values = stored == null ? null : extend(step, values, stored);
            if (values == null) {
                return null;
            }
        }
        return values.project(headColumns);
    }
}
