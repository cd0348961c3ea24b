package io.flinkivm.core.analysis;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Classifies a conjunctive query: hierarchical, q-hierarchical (Def. 7), p-hierarchical (Def. 8),
 * α-acyclic and free-connex (Def. 6). Each atom counts as the set of its distinct variables;
 * constants are ignored. Witnesses list atoms in body order and variables in order of first
 * occurrence, so their texts are deterministic.
 */
@PublicEvolving
public final class QueryClassifier {

    private QueryClassifier() {}

    /** The classification of {@code q}, each negative verdict with a witness. */
    public static Classification classify(ConjunctiveQuery q) {
        Verdict hierarchical = hierarchical(q);
        Verdict qHierarchical =
                hierarchical.holds() ? qProperty(q) : Verdict.no("not hierarchical: " + hierarchical.witness());
        Gyo.Result gyo = Gyo.reduce(edges(q));
        Verdict acyclic =
                gyo.acyclic() ? Verdict.yes() : Verdict.no("cyclic: GYO reduction leaves " + atoms(q, gyo.residual()));
        Verdict freeConnex = gyo.acyclic()
                ? freeConnex(q)
                : Verdict.no("not α-acyclic: GYO reduction leaves " + atoms(q, gyo.residual()));
        String subject = q.name() + "(" + String.join(",", q.head()) + ")";
        return new Classification(hierarchical, qHierarchical, pHierarchical(q), acyclic, freeConnex, subject);
    }

    /** For all variables X, Y: at(X) and at(Y) are disjoint or one contains the other. */
    private static Verdict hierarchical(ConjunctiveQuery q) {
        List<String> vars = q.variables();
        for (int i = 0; i < vars.size(); i++) {
            for (int j = i + 1; j < vars.size(); j++) {
                String x = vars.get(i);
                String y = vars.get(j);
                BitSet atX = q.atomsOf(x);
                BitSet atY = q.atomsOf(y);
                if (overlapWithoutNesting(atX, atY)) {
                    return Verdict.no("variables " + x + " and " + y + " overlap in " + firstShared(q, atX, atY)
                            + " but neither's atoms contain the other's: at(" + x + ") = " + atomSet(q, atX)
                            + ", at(" + y + ") = " + atomSet(q, atY));
                }
            }
        }
        return Verdict.yes();
    }

    /** Def. 7 (2), for a hierarchical query: if at(X) ⊊ at(Y) and X is free, then Y is free. */
    private static Verdict qProperty(ConjunctiveQuery q) {
        for (String x : q.variables()) {
            if (!q.isFree(x)) {
                continue;
            }
            for (String y : q.bound()) {
                BitSet atX = q.atomsOf(x);
                BitSet atY = q.atomsOf(y);
                if (isSubset(atX, atY) && !atX.equals(atY)) {
                    return Verdict.no("free " + x + " and bound " + y + ": at(" + x + ") ⊊ at(" + y + "), with at("
                            + x + ") = " + atomSet(q, atX) + " and at(" + y + ") = " + atomSet(q, atY)
                            + "; see Def. 7 (2)");
                }
            }
        }
        return Verdict.yes();
    }

    /** Def. 8: bound variables nest among themselves (1), and a bound variable overlapping a free one lies inside it (2). */
    private static Verdict pHierarchical(ConjunctiveQuery q) {
        List<String> bound = q.bound();
        for (int i = 0; i < bound.size(); i++) {
            for (int j = i + 1; j < bound.size(); j++) {
                String x = bound.get(i);
                String y = bound.get(j);
                BitSet atX = q.atomsOf(x);
                BitSet atY = q.atomsOf(y);
                if (overlapWithoutNesting(atX, atY)) {
                    return Verdict.no("bound " + x + " and bound " + y + " overlap in " + firstShared(q, atX, atY)
                            + " but neither's atoms contain the other's: " + firstOnlyIn(q, atX, atY) + " has " + x
                            + " but not " + y + ", " + firstOnlyIn(q, atY, atX) + " has " + y + " but not " + x
                            + "; see Def. 8 (1)");
                }
            }
        }
        for (String x : bound) {
            for (String y : q.variables()) {
                if (!q.isFree(y)) {
                    continue;
                }
                BitSet atX = q.atomsOf(x);
                BitSet atY = q.atomsOf(y);
                if (atX.intersects(atY) && !isSubset(atX, atY)) {
                    return Verdict.no("bound " + x + " and free " + y + " share atom " + firstShared(q, atX, atY)
                            + " but at(" + x + ") ⊄ at(" + y + "): " + firstOnlyIn(q, atX, atY) + " has " + x
                            + " but not " + y + "; see Def. 8 (2)");
                }
            }
        }
        return Verdict.yes();
    }

    /** Def. 6, for an acyclic query: adding one atom over exactly the free variables keeps it acyclic. */
    private static Verdict freeConnex(ConjunctiveQuery q) {
        List<List<String>> edges = edges(q);
        edges.add(q.head());
        Gyo.Result gyo = Gyo.reduce(edges);
        if (gyo.acyclic()) {
            return Verdict.yes();
        }
        String free = "{" + String.join(",", q.head()) + "}";
        List<String> left = new ArrayList<>();
        for (int e : gyo.residual()) {
            left.add(e < q.body().size() ? q.body().get(e).toString() : "the added atom over " + free);
        }
        return Verdict.no("adding an atom over the free variables " + free + " makes the query cyclic: GYO leaves "
                + String.join(", ", left) + "; see Def. 6");
    }

    /** The hypergraph: one edge per atom, its distinct variables. */
    private static List<List<String>> edges(ConjunctiveQuery q) {
        List<List<String>> edges = new ArrayList<>();
        for (Atom a : q.body()) {
            edges.add(a.variables());
        }
        return edges;
    }

    private static boolean overlapWithoutNesting(BitSet a, BitSet b) {
        return a.intersects(b) && !isSubset(a, b) && !isSubset(b, a);
    }

    private static boolean isSubset(BitSet a, BitSet b) {
        BitSet rest = (BitSet) a.clone();
        rest.andNot(b);
        return rest.isEmpty();
    }

    private static Atom firstShared(ConjunctiveQuery q, BitSet a, BitSet b) {
        BitSet shared = (BitSet) a.clone();
        shared.and(b);
        return q.body().get(shared.nextSetBit(0));
    }

    /** The first atom in {@code a} but not in {@code b}; the caller knows there is one. */
    private static Atom firstOnlyIn(ConjunctiveQuery q, BitSet a, BitSet b) {
        BitSet rest = (BitSet) a.clone();
        rest.andNot(b);
        return q.body().get(rest.nextSetBit(0));
    }

    private static String atomSet(ConjunctiveQuery q, BitSet atoms) {
        List<Integer> indexes = new ArrayList<>();
        for (int i = atoms.nextSetBit(0); i >= 0; i = atoms.nextSetBit(i + 1)) {
            indexes.add(i);
        }
        return "{" + atoms(q, indexes) + "}";
    }

    private static String atoms(ConjunctiveQuery q, List<Integer> indexes) {
        List<String> out = new ArrayList<>();
        for (int i : indexes) {
            out.add(q.body().get(i).toString());
        }
        return String.join(", ", out);
    }
}
