package io.flinkivm.core.query;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * An atom's selection compiled to positions: {@link #match(Tuple)} does what {@link Atom#match}
 * does without allocating anything but the projected tuple (and nothing at all for a plain atom).
 */
@Internal
public final class AtomMatcher implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int arity;
    private final boolean plain;
    private final int[] constantPositions;
    private final Constant[] constants;
    private final int[] repeatedPositions;
    private final int[] firstPositions;
    private final int[] projection;

    AtomMatcher(Atom atom) {
        this.arity = atom.arity();
        List<Integer> constantAt = new ArrayList<>();
        List<Constant> constantValues = new ArrayList<>();
        List<Integer> repeatedAt = new ArrayList<>();
        List<Integer> firstAt = new ArrayList<>();
        List<Integer> project = new ArrayList<>();
        Map<String, Integer> first = new HashMap<>();
        List<Term> terms = atom.terms();
        for (int i = 0; i < terms.size(); i++) {
            Term t = terms.get(i);
            if (t instanceof Constant c) {
                constantAt.add(i);
                constantValues.add(c);
            } else {
                String name = ((Variable) t).name();
                Integer f = first.putIfAbsent(name, i);
                if (f == null) {
                    project.add(i);
                } else {
                    repeatedAt.add(i);
                    firstAt.add(f);
                }
            }
        }
        this.plain = constantAt.isEmpty() && repeatedAt.isEmpty();
        this.constantPositions = toArray(constantAt);
        this.constants = constantValues.toArray(new Constant[0]);
        this.repeatedPositions = toArray(repeatedAt);
        this.firstPositions = toArray(firstAt);
        this.projection = toArray(project);
    }

    private static int[] toArray(List<Integer> values) {
        int[] out = new int[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }

    /**
     * The relation tuple projected onto the atom's variables, or {@code null} if it fails the
     * selection. The tuple's arity must be the atom's.
     */
    public Tuple match(Tuple relationTuple) {
        if (relationTuple.arity() != arity) {
            throw new IllegalArgumentException("expected a tuple of arity " + arity + ", got " + relationTuple.arity());
        }
        if (plain) {
            return relationTuple;
        }
        for (int i = 0; i < constantPositions.length; i++) {
            if (!constants[i].matches(relationTuple.get(constantPositions[i]))) {
                return null;
            }
        }
        for (int i = 0; i < repeatedPositions.length; i++) {
            if (!relationTuple.get(repeatedPositions[i]).equals(relationTuple.get(firstPositions[i]))) {
                return null;
            }
        }
        return relationTuple.project(projection);
    }
}
