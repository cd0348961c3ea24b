package io.flinkivm.core.query;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An atom {@code R(A, B, 'x')} of a query body. Each atom is its own logical relation (its
 * {@link #index()} in the body); atoms that name the same relation form a self-join.
 *
 * <p>Constants and repeated variables are selections: {@link #match(Tuple)} keeps a tuple of the
 * relation only if it has the constants at their positions and equal values at repeated
 * variables, and returns it projected onto {@link #variables()}.
 */
@PublicEvolving
public record Atom(int index, String relation, List<Term> terms) implements java.io.Serializable {

    public Atom {
        terms = List.copyOf(terms);
    }

    /** Number of columns of the relation. */
    public int arity() {
        return terms.size();
    }

    /** The distinct variables in order of first occurrence: the atom's schema. */
    public List<String> variables() {
        return List.copyOf(firstPositions().keySet());
    }

    /** Whether the atom has no constants and no repeated variables. */
    public boolean isPlain() {
        return firstPositions().size() == terms.size();
    }

    private Map<String, Integer> firstPositions() {
        Map<String, Integer> first = new LinkedHashMap<>();
        for (int i = 0; i < terms.size(); i++) {
            if (terms.get(i) instanceof Variable v) {
                first.putIfAbsent(v.name(), i);
            }
        }
        return first;
    }

    /** Positions in a relation tuple of {@link #variables()}, in order. */
    public int[] variablePositions() {
        return firstPositions().values().stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The relation tuple restricted to this atom's selection and projected onto its variables, or
     * {@code null} if the tuple does not satisfy the selection. The tuple's arity must be
     * {@link #arity()}. On hot paths use a {@link #matcher()} built once.
     */
    public Tuple match(Tuple relationTuple) {
        if (relationTuple.arity() != terms.size()) {
            throw new IllegalArgumentException("relation " + relation + " has arity " + terms.size()
                    + ", got a tuple of arity " + relationTuple.arity());
        }
        return matcher().match(relationTuple);
    }

    /** This atom's selection compiled to positions, for matching many tuples. */
    public AtomMatcher matcher() {
        return new AtomMatcher(this);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(relation).append('(');
        for (int i = 0; i < terms.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(terms.get(i));
        }
        return sb.append(')').toString();
    }
}
