package io.flinkivm.core.plan;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which key stages of a {@link KeyedPlan} run, in the order rows pass them, and which of them reports
 * the rows that break a table's key. A key relied on only through the head's closure is trusted, and
 * its stage dropped, unless the plan checks keys; where several relations take the rows of one table,
 * one stage reports the table's violations and the others reject them silently.
 */
final class KeyStageOrder {
    private final List<ConjunctiveQuery.Key> keys;
    private final boolean keyChecks;
    private final List<Absorption> absorptions;
    private final List<Enrichment> enrichments;
    private final Map<String, String> tables;
    /** The stages that run: the plan's stage order without the trusted keys' stages. */
    private final List<KeyStage> stages;

    KeyStageOrder(
            List<ConjunctiveQuery.Key> keys,
            List<KeyStage> stageOrder,
            boolean keyChecks,
            List<Absorption> absorptions,
            List<Enrichment> enrichments,
            Map<String, String> tables) {
        this.keys = keys;
        this.keyChecks = keyChecks;
        this.absorptions = absorptions;
        this.enrichments = enrichments;
        this.tables = tables;
        List<ConjunctiveQuery.Key> trusted = trusted();
        List<KeyStage> running = new ArrayList<>();
        for (KeyStage k : stageOrder) {
            if (!trusted.contains(k.key())) {
                running.add(k);
            }
        }
        this.stages = running;
    }

    /** Whether an atom of {@code relation} is absorbed. */
    boolean absorbs(String relation) {
        for (Absorption a : absorptions) {
            if (a.relation().equals(relation)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some enrichment looks up {@code relation}'s key. */
    boolean isLookedUp(String relation) {
        for (Enrichment e : enrichments) {
            for (KeyLookup l : e.lookups()) {
                if (l.relation().equals(relation)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The keys relied on only through the head's closure: nothing looks them up while rows flow. */
    List<ConjunctiveQuery.Key> headOnlyKeys() {
        List<ConjunctiveQuery.Key> out = new ArrayList<>();
        for (ConjunctiveQuery.Key k : keys) {
            if (!isLookedUp(k.relation()) && !absorbs(k.relation())) {
                out.add(k);
            }
        }
        return out;
    }

    /** The keys relied on without a stage that checks them. */
    List<ConjunctiveQuery.Key> trusted() {
        return keyChecks ? List.of() : headOnlyKeys();
    }

    /** The stages that run, in the order rows pass them. */
    List<KeyStage> stages() {
        return new ArrayList<>(stages);
    }

    /** The index of copy {@code copy} of {@code relation}'s key stage in {@code stages}, or -1. */
    static int indexOf(List<KeyStage> stages, String relation, int copy) {
        for (int s = 0; s < stages.size(); s++) {
            if (stages.get(s).relation().equals(relation) && stages.get(s).copy() == copy) {
                return s;
            }
        }
        return -1;
    }

    /** The index of copy {@code copy} of {@code relation}'s key stage among the stages that run, or -1. */
    int stage(String relation, int copy) {
        return indexOf(stages, relation, copy);
    }

    /**
     * The relation whose key stage reports the rows of {@code relation} that break its key: the first
     * relation, in stage order, of the same table that is absorbed, whose stage gets every row of the
     * table (as a row or, where the relation's filter drops it, as a mark) and rejects any second row
     * with a key value, so it rejects every row that another stage of the table rejects (where the
     * table's rows of one key come in one order); else {@code relation} itself.
     */
    String reporter(String relation) {
        String table = tables.get(relation);
        if (table == null) {
            return relation;
        }
        for (KeyStage s : stages) {
            String r = s.relation();
            if (s.copy() == 0 && table.equals(tables.get(r)) && absorbs(r) && isLookedUp(r)) {
                return r;
            }
        }
        return relation;
    }

    /** The other relations, in stage order, whose stages leave reporting their table's violations to {@code relation}'s. */
    List<String> reportedFor(String relation) {
        List<String> others = new ArrayList<>();
        for (KeyStage o : stages) {
            if (o.copy() == 0
                    && !o.relation().equals(relation)
                    && reporter(o.relation()).equals(relation)) {
                others.add(o.relation());
            }
        }
        return others;
    }
}
