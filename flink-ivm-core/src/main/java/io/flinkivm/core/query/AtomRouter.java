package io.flinkivm.core.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Splits a physical insert into the deltas of the atoms it feeds: one per atom that names the
 * insert's relation and whose selection (constants, repeated variables) the tuple passes, in body
 * order (so a self-join's atoms are applied one after another), at the atom's key: the atom's tuple
 * over its variables, or a projection of it. The one copy of this step for the in-memory engines and
 * the Flink ingest; the caller decides what each delta does. Immutable.
 */
@Internal
public final class AtomRouter {

    /** Receives one atom's delta. */
    public interface Receiver<T> {
        /**
         * @param atom the atom's index in the body
         * @param key the atom's key (see {@link AtomRouter})
         * @param payload the insert's payload
         */
        void delta(int atom, Tuple key, T payload);
    }

    private final ConjunctiveQuery query;
    private final Map<String, Integer> relationIndex = new HashMap<>();
    private final int[][] atomsOfRelation;
    private final int[] arityOfRelation;
    private final AtomMatcher[] matchers;
    private final int[][] keyPositions;

    /** Keys are the atoms' tuples over their variables (in their order of first occurrence). */
    public AtomRouter(ConjunctiveQuery query) {
        this(query, null);
    }

    /**
     * @param keyPositions per atom, the positions in its variables of its key's values; null: the
     *     atom's tuple over its variables
     */
    public AtomRouter(ConjunctiveQuery query, int[][] keyPositions) {
        this.query = query;
        List<String> relations = query.relations();
        atomsOfRelation = new int[relations.size()][];
        arityOfRelation = new int[relations.size()];
        for (int r = 0; r < relations.size(); r++) {
            String name = relations.get(r);
            relationIndex.put(name, r);
            arityOfRelation[r] = query.arityOf(name);
            List<Integer> atoms = new ArrayList<>();
            for (Atom a : query.body()) {
                if (a.relation().equals(name)) {
                    atoms.add(a.index());
                }
            }
            atomsOfRelation[r] = atoms.stream().mapToInt(Integer::intValue).toArray();
        }
        matchers = new AtomMatcher[query.body().size()];
        for (Atom a : query.body()) {
            matchers[a.index()] = a.matcher();
        }
        if (keyPositions != null && keyPositions.length != matchers.length) {
            throw new IllegalArgumentException(
                    "key positions for " + keyPositions.length + " atoms, the query has " + matchers.length);
        }
        this.keyPositions = keyPositions == null ? null : keyPositions.clone();
    }

    /** The index of {@code relation} in {@link ConjunctiveQuery#relations()}, or -1 if the query has none such. */
    public int relation(String relation) {
        Integer r = relationIndex.get(relation);
        return r == null ? -1 : r;
    }

    /** Why an insert of {@code arity} values into {@code relation} fits no atom (unknown relation, wrong arity), or null. */
    public String problem(String relation, int arity) {
        int r = relation(relation);
        if (r < 0) {
            return "unknown relation '" + relation + "'; the query uses " + String.join(", ", query.relations());
        }
        if (arity != arityOfRelation[r]) {
            return "relation " + relation + " has arity " + arityOfRelation[r] + ", got " + arity + " values";
        }
        return null;
    }

    /**
     * The index of {@code relation}, checked against the arity of the insert.
     *
     * @throws IllegalArgumentException for an unknown relation or a wrong arity (the {@link #problem})
     */
    public int checkedRelation(String relation, int arity) {
        String problem = problem(relation, arity);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return relation(relation);
    }

    /** The key of atom {@code atom} for a tuple of its relation, or null if the tuple fails the atom's selection. */
    public Tuple key(int atom, Tuple tuple) {
        Tuple matched = matchers[atom].match(tuple);
        return matched == null || keyPositions == null ? matched : matched.project(keyPositions[atom]);
    }

    /**
     * Sends the deltas of one insert of {@code tuple} into relation {@code relation} (an index from
     * {@link #relation}; the arity checked) to {@code to}, in body order.
     *
     * @return the number of deltas sent
     */
    public <T> int route(int relation, Tuple tuple, T payload, Receiver<T> to) {
        int sent = 0;
        for (int a : atomsOfRelation[relation]) {
            Tuple key = key(a, tuple);
            if (key != null) {
                to.delta(a, key, payload);
                sent++;
            }
        }
        return sent;
    }
}
