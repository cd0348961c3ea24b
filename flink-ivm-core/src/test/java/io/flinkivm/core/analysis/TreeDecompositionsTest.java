package io.flinkivm.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TreeDecompositionsTest {

    private static TreeDecomposition of(String query) {
        ConjunctiveQuery q = QueryParser.parse(query);
        TreeDecomposition td = TreeDecompositions.optimal(q);
        assertThat(td.violation(edges(q)))
                .as("valid decomposition of %s", query)
                .isNull();
        return td;
    }

    private static List<List<String>> edges(ConjunctiveQuery q) {
        List<List<String>> out = new ArrayList<>();
        q.body().forEach(a -> out.add(a.variables()));
        return out;
    }

    @Test
    void triangle() {
        TreeDecomposition td = of("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)");
        assertThat(td.width()).isEqualTo(1.5);
        assertThat(td.widthText()).isEqualTo("1.5");
        assertThat(td.bags()).containsExactly(List.of("A", "B", "C"));
        assertThat(td.rho()).containsExactly(1.5);
        assertThat(td.treeEdges()).isEmpty();
    }

    @Test
    void triangleWithEars() {
        TreeDecomposition td = of("Q(A,B,C) :- R(A,B,D), S(B,C), T(A,C,E)");
        assertThat(td.width()).isEqualTo(1.5);
        assertThat(td.bags()).hasSize(3);
        assertThat(td.bags().get(0)).containsExactly("A", "B", "C");
    }

    @Test
    void fourCycleHasTwoBagsOfWidthTwo() {
        TreeDecomposition td = of("Q(A,B,C,D) :- R(A,B), S(B,C), T(C,D), U(D,A)");
        assertThat(td.width()).isEqualTo(2.0);
        assertThat(td.bags()).hasSize(2).allSatisfy(b -> assertThat(b).hasSize(3));
        assertThat(td.rho()).containsExactly(2.0, 2.0);
        assertThat(td.treeEdges()).containsExactly(List.of(1, 0));
        assertThat(td.keyToParent(1)).hasSize(2);
        // ρ* of the whole cycle is 2 as well.
        assertThat(EdgeCover.rho(
                        edges(QueryParser.parse("Q() :- R(A,B), S(B,C), T(C,D), U(D,A)")), List.of("A", "B", "C", "D")))
                .isEqualTo(2.0);
    }

    @Test
    void fourCliqueAndLongerCycles() {
        TreeDecomposition k4 = of("Q(A,B,C,D) :- R(A,B), S(A,C), T(A,D), U(B,C), V(B,D), W(C,D)");
        assertThat(k4.width()).isEqualTo(2.0);
        assertThat(k4.bags()).containsExactly(List.of("A", "B", "C", "D"));
        assertThat(of("Q() :- R(A,B), S(B,C), T(C,D), U(D,E), V(E,A)").width()).isEqualTo(2.0);
        assertThat(of("Q() :- R(A,B,C), S(C,D,E), T(E,F,A)").width()).isEqualTo(1.5);
        // The Loomis-Whitney query LW4: every triple of four variables; ρ* = 4/3.
        assertThat(of("Q() :- R(A,B,C), S(A,B,D), T(A,C,D), U(B,C,D)").widthText())
                .isEqualTo("4/3");
    }

    @Test
    void acyclicQueriesHaveWidthOne() {
        assertThat(of("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)")
                        .width())
                .isEqualTo(1.0);
        assertThat(of("Q(A,D) :- R(A,B), S(B,C), T(C,D)").width()).isEqualTo(1.0);
        assertThat(of("Q() :- R(A,B,C), S(A,B), T(B,C)").width()).isEqualTo(1.0);
        assertThat(of("Q(A) :- R(A)").bags()).containsExactly(List.of("A"));
    }

    @Test
    void disconnectedPartsHangBelowTheRoot() {
        TreeDecomposition td = of("Q() :- R(A,B), S(B,C), T(A,C), U(X,Y)");
        assertThat(td.width()).isEqualTo(1.5);
        assertThat(td.bags()).containsExactly(List.of("A", "B", "C"), List.of("X", "Y"));
        assertThat(td.keyToParent(1)).isEmpty();
        assertThat(td.describe())
                .isEqualTo("bag 0 {A,B,C}: ρ* = 1.5\n" + "  bag 1 {X,Y}: ρ* = 1, no variable shared with bag 0\n");
    }

    @Test
    void agreesWithBruteForceOverAllOrdersOnRandomHypergraphs() {
        Random r = new Random(7);
        for (int round = 0; round < 50; round++) {
            int vars = 3 + r.nextInt(3);
            List<List<String>> edges = new ArrayList<>();
            for (int e = 2 + r.nextInt(4); e > 0; e--) {
                List<String> edge = new ArrayList<>();
                for (int v = 0; v < vars; v++) {
                    if (r.nextInt(3) == 0) {
                        edge.add("V" + v);
                    }
                }
                if (edge.isEmpty()) {
                    edge.add("V" + r.nextInt(vars));
                }
                edges.add(edge);
            }
            TreeDecomposition td = TreeDecompositions.optimal(edges);
            assertThat(td.violation(edges)).as("%s", edges).isNull();
            for (int t = 0; t < td.bags().size(); t++) {
                assertThat(td.rho().get(t))
                        .isEqualTo(EdgeCover.rho(edges, td.bags().get(t)));
            }
            assertThat(td.width()).as("fhtw of %s", edges).isEqualTo(BruteForce.fhtw(edges));
        }
    }

    @Test
    void sizeLimit() {
        List<List<String>> edges = new ArrayList<>();
        for (int i = 0; i <= TreeDecompositions.MAX_VERTEX_CLASSES; i++) {
            edges.add(List.of("X" + i, "X" + (i + 1)));
        }
        assertThat(TreeDecompositions.limitViolation(edges)).contains("classes of variables");
        assertThatThrownBy(() -> TreeDecompositions.optimal(edges))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("too large");
        // Twins collapse: many variables in the same edges are one class.
        List<List<String>> wide = List.of(
                List.of("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R"),
                List.of("R", "S"),
                List.of("S", "A"));
        assertThat(TreeDecompositions.limitViolation(wide)).isNull();
        assertThat(TreeDecompositions.fhtw(wide)).isEqualTo(1.5);
    }

    /** fhtw by trying every elimination order directly. */
    private static final class BruteForce {
        private static final Map<String, Double> MEMO = new HashMap<>();

        static double fhtw(List<List<String>> edges) {
            List<String> vs = new ArrayList<>();
            edges.forEach(e -> e.forEach(v -> {
                if (!vs.contains(v)) {
                    vs.add(v);
                }
            }));
            return permute(edges, vs, new ArrayList<>(), Double.POSITIVE_INFINITY);
        }

        private static double permute(List<List<String>> edges, List<String> rest, List<String> order, double best) {
            if (rest.isEmpty()) {
                return Math.min(best, width(edges, order));
            }
            for (int i = 0; i < rest.size(); i++) {
                List<String> r = new ArrayList<>(rest);
                order.add(r.remove(i));
                best = permute(edges, r, order, best);
                order.remove(order.size() - 1);
            }
            return best;
        }

        /** Eliminates in order on the primal graph with fill-in; the largest ρ* of {v} ∪ later neighbours. */
        private static double width(List<List<String>> edges, List<String> order) {
            Map<String, Set<String>> adj = new HashMap<>();
            for (String v : order) {
                adj.put(v, new HashSet<>());
            }
            for (List<String> e : edges) {
                for (String a : e) {
                    for (String b : e) {
                        if (!a.equals(b)) {
                            adj.get(a).add(b);
                        }
                    }
                }
            }
            double w = 0;
            Set<String> gone = new HashSet<>();
            for (String v : order) {
                List<String> nb = new ArrayList<>();
                for (String u : adj.get(v)) {
                    if (!gone.contains(u)) {
                        nb.add(u);
                    }
                }
                List<String> bag = new ArrayList<>(nb);
                bag.add(v);
                bag.sort(null);
                w = Math.max(w, MEMO.computeIfAbsent(edges + "|" + bag, k -> EdgeCover.rho(edges, bag)));
                for (String a : nb) {
                    for (String b : nb) {
                        if (!a.equals(b)) {
                            adj.get(a).add(b);
                        }
                    }
                }
                gone.add(v);
            }
            return w;
        }
    }
}
