package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Variable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The fold of key tables into the atoms that look them up, to a fixpoint: while an atom S has a key
 * whose columns all hold variables and another atom R (of another relation, not folded itself)
 * holds all of them, S is folded into R, and R holds S's variables from then on. S goes before the
 * atoms that it holds the key of itself (a snowflake's outer dimension is folded into its inner one
 * first, which is then folded into the fact), and into an atom that has the key's variables of its
 * own before one that has them from a fold (then the first in body order). Each step removes an
 * atom, so the fold ends.
 */
final class KeyFold {
    /** Per atom: its variables and those of the atoms folded into it. */
    final List<Set<String>> vars = new ArrayList<>();
    /** The folded atoms, in the order they were folded. */
    final List<Integer> order = new ArrayList<>();

    private final ConjunctiveQuery q;
    /** Per atom: the variables of its key's columns, or null if it cannot be folded. */
    private final List<List<String>> keyVariables = new ArrayList<>();
    /** Per atom: the atom it is folded into, or -1. */
    private final int[] into;

    KeyFold(ConjunctiveQuery q, boolean absorb) {
        this.q = q;
        this.into = new int[q.body().size()];
        Arrays.fill(into, -1);
        for (Atom a : q.body()) {
            vars.add(new LinkedHashSet<>(a.variables()));
            keyVariables.add(absorb ? keyVariables(q, a) : null);
        }
        while (absorb && foldOne()) {
            // one more atom folded
        }
    }

    /** The variables at {@code a}'s key columns, or null if it has no key or a constant there. */
    private static List<String> keyVariables(ConjunctiveQuery q, Atom a) {
        ConjunctiveQuery.Key key = q.keyOf(a.relation());
        if (key == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int p : key.positions()) {
            if (!(a.terms().get(p) instanceof Variable v)) {
                return null;
            }
            if (!out.contains(v.name())) {
                out.add(v.name());
            }
        }
        return out;
    }

    /** The atoms {@code s} can be folded into now, in body order. */
    private List<Integer> targets(int s) {
        List<Integer> out = new ArrayList<>();
        List<String> key = keyVariables.get(s);
        if (key == null || into[s] >= 0) {
            return out;
        }
        String relation = q.body().get(s).relation();
        for (Atom r : q.body()) {
            if (r.index() != s
                    && into[r.index()] < 0
                    && !r.relation().equals(relation)
                    && vars.get(r.index()).containsAll(key)) {
                out.add(r.index());
            }
        }
        return out;
    }

    private boolean foldOne() {
        int chosen = -1;
        for (int s = 0; s < into.length && chosen < 0; s++) {
            if (targets(s).isEmpty()) {
                continue;
            }
            boolean leaf = true;
            for (int t = 0; t < into.length && leaf; t++) {
                leaf = t == s || !targets(t).contains(s);
            }
            chosen = leaf ? s : -1;
        }
        for (int s = 0; s < into.length && chosen < 0; s++) {
            chosen = targets(s).isEmpty() ? -1 : s;
        }
        if (chosen < 0) {
            return false;
        }
        List<Integer> targets = targets(chosen);
        int r = targets.get(0);
        for (int t : targets) {
            if (q.body().get(t).variables().containsAll(keyVariables.get(chosen))) {
                r = t;
                break;
            }
        }
        into[chosen] = r;
        vars.get(r).addAll(vars.get(chosen));
        order.add(chosen);
        return true;
    }

    /** The atoms that are not folded, in body order: the absorbed query's. */
    List<Integer> kept() {
        List<Integer> out = new ArrayList<>();
        for (int a = 0; a < into.length; a++) {
            if (into[a] < 0) {
                out.add(a);
            }
        }
        return out;
    }

    /** The atom of the absorbed query that {@code a} is folded into, through any folds in between. */
    int taker(int a) {
        int t = a;
        while (into[t] >= 0) {
            t = into[t];
        }
        return t;
    }

    List<Absorption> absorptions() {
        List<Absorption> out = new ArrayList<>();
        for (int s : order) {
            out.add(new Absorption(s, q.body().get(s).relation(), keyVariables.get(s), into[s], taker(s)));
        }
        return out;
    }

    /**
     * How a row of kept atom {@code a} finds the atoms folded into it: one lookup each, with its
     * payload, the next always the first one in body order whose key's variables the row has.
     */
    List<KeyLookup> chain(int a) {
        Set<String> known = new LinkedHashSet<>(q.body().get(a).variables());
        List<Integer> pending = new ArrayList<>();
        for (int s = 0; s < into.length; s++) {
            if (into[s] >= 0 && taker(s) == a) {
                pending.add(s);
            }
        }
        List<KeyLookup> out = new ArrayList<>();
        while (!pending.isEmpty()) {
            Integer next = null;
            for (int s : pending) {
                if (known.containsAll(keyVariables.get(s))) {
                    next = s;
                    break;
                }
            }
            if (next == null) {
                throw new IllegalStateException("a folded atom's key is out of reach of its taker");
            }
            pending.remove(next);
            Atom s = q.body().get(next);
            List<String> added = new ArrayList<>();
            for (String v : s.variables()) {
                if (known.add(v)) {
                    added.add(v);
                }
            }
            out.add(new KeyLookup(next, s.relation(), keyVariables.get(next), added, true));
        }
        return out;
    }
}
