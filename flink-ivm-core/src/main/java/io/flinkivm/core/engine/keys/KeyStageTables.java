package io.flinkivm.core.engine.keys;

import io.flinkivm.core.plan.Enrichment;
import io.flinkivm.core.plan.KeyLookup;
import io.flinkivm.core.plan.KeyStage;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomMatcher;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link KeyedPlan} compiled to array positions for {@link KeyStageLogic}: the query's relations,
 * the key stages and the lookup steps of the enriched atoms and the head, by index, so that a row's
 * way through the stages reads arrays only. Immutable once built, and serializable.
 */
abstract class KeyStageTables implements Serializable {
    private static final long serialVersionUID = 1L;

    final Map<String, Integer> relations = new HashMap<>();
    final String[] relationNames;
    /** Per relation: its key stage, or -1. */
    final int[] stageOfRelation;
    /** Per relation: whether it has an atom that neither gains nor is absorbed (its rows go on as they are). */
    final boolean[] direct;
    /** Per relation: its atoms (all, and the enriched ones). */
    final int[][] atomsOfRelation;

    final int[][] enrichedOfRelation;
    final AtomMatcher[] matchers;

    /** Per stage: its relation's index and the key's columns. */
    final int[] stageRelation;

    final int[][] stageColumns;
    final String[] stageKeys;
    /** Per stage: whether its relation is absorbed (one row per key value, identical or not). */
    final boolean[] stageAbsorbs;
    /** Per stage: whether rows look it up (it then keeps marks of dropped key rows). */
    final boolean[] stageLookedUp;
    /** Per stage: whether it reports the rows that break its key ({@link KeyedPlan#reporter}). */
    final boolean[] stageReports;
    /** Per stage: which copy it is, and the stage of the next copy (which it feeds), or -1. */
    final int[] stageCopy;

    final int[] nextCopy;
    /** Per atom (null if it gains nothing): its closed relation, and per lookup step the compiled step. */
    final String[] closedRelation;

    final LookupStep[][] steps;
    final int[][] finalColumns;
    /** The head's lookups, over the head tuple, and the closed head's columns in the extended tuple. */
    final LookupStep[] headSteps;

    final int[] headColumns;

    KeyStageTables(KeyedPlan plan) {
        ConjunctiveQuery q = plan.query();
        List<String> names = q.relations();
        relationNames = names.toArray(new String[0]);
        stageOfRelation = new int[names.size()];
        direct = new boolean[names.size()];
        atomsOfRelation = new int[names.size()][];
        enrichedOfRelation = new int[names.size()][];
        matchers = new AtomMatcher[q.body().size()];
        closedRelation = new String[q.body().size()];
        steps = new LookupStep[q.body().size()][];
        finalColumns = new int[q.body().size()][];
        for (Atom a : q.body()) {
            matchers[a.index()] = a.matcher();
        }
        for (int r = 0; r < names.size(); r++) {
            relations.put(names.get(r), r);
        }
        for (int r = 0; r < names.size(); r++) {
            stageOfRelation[r] = plan.stage(names.get(r));
            List<Integer> all = new ArrayList<>();
            List<Integer> enriched = new ArrayList<>();
            for (Atom a : q.atomsOfRelation(names.get(r))) {
                all.add(a.index());
                if (plan.absorption(a.index()) != null) {
                    continue;
                }
                if (plan.enrichment(a.index()) == null) {
                    direct[r] = true;
                } else {
                    enriched.add(a.index());
                }
            }
            atomsOfRelation[r] = toArray(all);
            enrichedOfRelation[r] = toArray(enriched);
        }
        List<KeyStage> stages = plan.stages();
        stageRelation = new int[stages.size()];
        stageColumns = new int[stages.size()][];
        stageKeys = new String[stages.size()];
        stageAbsorbs = new boolean[stages.size()];
        stageLookedUp = new boolean[stages.size()];
        stageReports = new boolean[stages.size()];
        stageCopy = new int[stages.size()];
        nextCopy = new int[stages.size()];
        for (int s = 0; s < stageRelation.length; s++) {
            ConjunctiveQuery.Key k = stages.get(s).key();
            stageRelation[s] = relations.get(k.relation());
            stageColumns[s] = k.positionArray();
            stageKeys[s] = q.keyText(k);
            stageAbsorbs[s] = plan.absorbs(k.relation());
            stageLookedUp[s] = plan.isLookedUp(k.relation());
            stageReports[s] = plan.reporter(k.relation()).equals(k.relation());
            stageCopy[s] = stages.get(s).copy();
            nextCopy[s] = plan.stage(k.relation(), stageCopy[s] + 1);
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
    private LookupStep[] compile(KeyedPlan plan, List<KeyLookup> lookups, Map<String, Integer> layout, int width) {
        ConjunctiveQuery q = plan.query();
        LookupStep[] out = new LookupStep[lookups.size()];
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
            out[i] = new LookupStep(
                    plan.stage(l.relation(), l.copy()),
                    relations.get(l.relation()),
                    keyAt,
                    s.matcher(),
                    toArray(shared),
                    append,
                    l.payload());
        }
        return out;
    }

    static int[] toArray(List<Integer> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }
}
