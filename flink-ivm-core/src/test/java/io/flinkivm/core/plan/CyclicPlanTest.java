package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.analysis.TreeDecompositions;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.SemiringProperty;
import io.flinkivm.core.semiring.Semirings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The planner's plan for p-hierarchical queries whose join of the root views is cyclic. */
class CyclicPlanTest {
    static final String EARS = "Q(A,B,C) :- R(A,B,D), S(B,C), T(A,C,E)";
    static final String TRIANGLE = "Q(A,B,C) :- R(A,B), S(B,C), T(A,C)";
    static final String FOUR_CYCLE = "Q(A,B,C,D) :- R(A,B), S(B,C), T(C,D), U(D,A)";
    static final String FOUR_CLIQUE = "Q(A,B,C,D) :- R(A,B), S(A,C), T(A,D), U(B,C), V(B,D), W(C,D)";

    private static MaintenancePlan plan(String query) {
        MaintenancePlan p = Planner.plan(QueryParser.parse(query), Semirings.byName("natural"));
        p.validate();
        return p;
    }

    private static CyclicPHierarchicalPlan cyclic(String query) {
        MaintenancePlan p = plan(query);
        assertThat(p).isInstanceOf(CyclicPHierarchicalPlan.class);
        return (CyclicPHierarchicalPlan) p;
    }

    private static FallbackPlan fallback(MaintenancePlan p) {
        assertThat(p).isInstanceOf(FallbackPlan.class);
        return (FallbackPlan) p;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                EARS,
                TRIANGLE,
                FOUR_CYCLE,
                FOUR_CLIQUE,
                "Q(A,B,C,D) :- R(A,B,X), S(B,C), T(C,D,Y), U(D,A)",
                "Q(A,B,C) :- E(A,B), E(B,C), E(A,C)",
                "Q(A,B,C) :- R(A,B), S(B,C), T(A,C), U(D)",
                "Q(A,B,C,D) :- R(A,B,C), S(A,B,D), T(A,C,D), U(B,C,D)"
            })
    void autoAndStrategyPHierarchicalPickTheCyclicPlan(String query) {
        CyclicPHierarchicalPlan p = cyclic(query);
        assertThat(p.kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
        assertThat(p.bags()).isNotEmpty();
        assertThat(p.fhtw()).isGreaterThan(1);
        MaintenancePlan forced =
                Planner.plan(QueryParser.parse(query), Semirings.byName("min-plus"), Planner.Strategy.P_HIERARCHICAL);
        assertThat(forced.kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
        assertThat(Planner.plan(QueryParser.parse(query), Semirings.byName("natural"), Planner.Strategy.FALLBACK)
                        .kind())
                .isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
    }

    @Test
    void triangleWithEarsExplainsItsDecomposition() {
        CyclicPHierarchicalPlan p = cyclic(EARS);
        assertThat(p.fhtw()).isEqualTo(1.5);
        assertThat(p.bags()).singleElement().satisfies(b -> {
            assertThat(b.variables()).containsExactly("A", "B", "C");
            assertThat(b.rho()).isEqualTo(1.5);
            assertThat(b.trees()).containsExactly(0, 1, 2);
        });
        String explain = p.explain();
        assertThat(explain).contains("fhtw = 1.5");
        assertThat(explain.substring(explain.indexOf("Plan:")))
                .isEqualTo(String.join(
                        "\n",
                        "Plan: cyclic p-hierarchical — view trees over natural below the border; above it, the bags of a tree"
                                + " decomposition of the root views' join, each maintained by a worst-case-optimal delta join,"
                                + " and the Boolean join of the bags",
                        "View trees (below the border):",
                        "  tree 0: root view V[A,B]",
                        "    Σ D: projection to V[A,B] (no state)",
                        "      R(A,B,D)",
                        "  tree 1: root view V[A,C]",
                        "    Σ E: projection to V[A,C] (no state)",
                        "      T(A,C,E)",
                        "  tree 2: root view S(B,C) (trivial: an atom over free variables)",
                        "Border: 1[V[A,B]], 1[V[A,C]], 1[S(B,C)] over boolean; only a root tuple that is new crosses it",
                        "Tree decomposition of the root views' join (above the border, fhtw = 1.5):",
                        "  bag 0 {A,B,C}: ρ* = 1.5, joins V[A,B], V[A,C], S(B,C)",
                        "Guarantee: amortized O(N^(fhtw-1)) = O(N^0.5) per insert and constant-delay enumeration (Thm. 1,"
                                + " fhtw = 1.5); payloads recovered by 3 lookups per result tuple",
                        ""));
        assertThat(p.toMermaid()).contains("-. border .-> sink", "1 bag, fhtw = 1.5");
    }

    @Test
    void fourCycleHasTwoBagsOfWidthTwo() {
        CyclicPHierarchicalPlan p = cyclic(FOUR_CYCLE);
        assertThat(p.fhtw()).isEqualTo(2.0);
        assertThat(p.bags()).hasSize(2).allSatisfy(b -> {
            assertThat(b.variables()).hasSize(3);
            assertThat(b.rho()).isEqualTo(2.0);
            assertThat(b.trees()).hasSize(4);
        });
        assertThat(p.bags().get(1).parent()).isZero();
        assertThat(p.bags().get(1).key()).hasSize(2);
        assertThat(p.explain())
                .contains("fhtw = 2)", "on " + String.join(",", p.bags().get(1).key()), "π[", "O(N) per insert");
    }

    @Test
    void fourCliqueIsOneBag() {
        CyclicPHierarchicalPlan p = cyclic(FOUR_CLIQUE);
        assertThat(p.fhtw()).isEqualTo(2.0);
        assertThat(p.bags()).singleElement().extracting(BagNode::variables).isEqualTo(List.of("A", "B", "C", "D"));
    }

    @Test
    void nullaryRootViewsJoinAtTheRootBag() {
        CyclicPHierarchicalPlan p = cyclic("Q(A,B,C) :- R(A,B), S(B,C), T(A,C), U(D)");
        int nullary = p.viewTrees().stream()
                .filter(t -> t.schema().isEmpty())
                .findFirst()
                .orElseThrow()
                .index();
        assertThat(p.bags().get(0).trees()).contains(nullary);
    }

    @Test
    void acyclicPlansAreUnchanged() {
        MaintenancePlan p = plan(PlannerTest.EX10);
        assertThat(p).isInstanceOf(PHierarchicalPlan.class);
        assertThat(((PHierarchicalPlan) p).fhtw()).isEqualTo(1.0);
        assertThat(plan("Q() :- R(X), S(X,Y), T(Y)")).isInstanceOf(FallbackPlan.class);
    }

    @Test
    void notPHierarchicalOrNotPositiveStillFallsBack() {
        // Bound B and C overlap in S without nesting: not p-hierarchical (the triangle with two bound corners).
        MaintenancePlan p = plan("Q(A) :- R(A,B), S(B,C), T(A,C)");
        assertThat(p.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(fallback(p).reasons()).singleElement().asString().startsWith("not p-hierarchical");
        ConjunctiveQuery triangle = QueryParser.parse(TRIANGLE);
        EnumSet<SemiringProperty> commutativeOnly = EnumSet.of(SemiringProperty.COMMUTATIVE);
        MaintenancePlan sets = Planner.plan(triangle, "sets", commutativeOnly, Planner.Strategy.AUTO);
        assertThat(sets.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(fallback(sets).reasons()).singleElement().asString().contains("not positive");
        assertThatThrownBy(() -> Planner.plan(triangle, "sets", commutativeOnly, Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("not positive");
    }

    @Test
    void beyondTheSearchLimitAutoFallsBackAndTheForcedPlanIsRefused() {
        // A cycle of 17 binary atoms: 17 classes of variables, one more than the search handles.
        int n = TreeDecompositions.MAX_VERTEX_CLASSES + 1;
        StringBuilder head = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < n; i++) {
            head.append(i == 0 ? "" : ",").append("X").append(i);
            body.append(i == 0 ? "" : ", ")
                    .append("R")
                    .append(i)
                    .append("(X")
                    .append(i)
                    .append(",X")
                    .append((i + 1) % n)
                    .append(")");
        }
        ConjunctiveQuery q = QueryParser.parse("Q(" + head + ") :- " + body);
        MaintenancePlan p = Planner.plan(q, Semirings.byName("natural"));
        assertThat(p.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(fallback(p).reasons())
                .singleElement()
                .asString()
                .contains("cyclic", "too large for the tree decomposition search", "17 classes of variables");
        assertThatThrownBy(() -> Planner.plan(q, Semirings.byName("natural"), Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("too large for the tree decomposition search")
                .hasMessageContaining("at most " + TreeDecompositions.MAX_VERTEX_CLASSES)
                .hasMessageContaining("Use the fallback");
    }

    @Test
    void cyclicPlanIsSerializable() throws Exception {
        CyclicPHierarchicalPlan p = cyclic(FOUR_CYCLE);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            CyclicPHierarchicalPlan copy = (CyclicPHierarchicalPlan) in.readObject();
            assertThat(copy.explain()).isEqualTo(p.explain());
            assertThat(copy.bags()).isEqualTo(p.bags());
            assertThat(copy).isEqualTo(p);
        }
    }
}
