package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.Gyo;
import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.analysis.TreeDecompositions;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.SemiringProperty;
import io.flinkivm.core.semiring.Semirings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlannerTest {
    static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";

    private static MaintenancePlan plan(String query) {
        return Planner.plan(QueryParser.parse(query), Semirings.byName("natural"));
    }

    /** The plan of {@code query}, which must be of type {@code type}. */
    static <P extends MaintenancePlan> P plan(String query, Class<P> type) {
        MaintenancePlan p = plan(query);
        assertThat(p).isInstanceOf(type);
        return type.cast(p);
    }

    private static ViewNode node(ViewTreePlan p, String variable) {
        return p.viewNodes().stream()
                .filter(n -> n.variable().equals(variable))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> vars(ViewTreePlan p, List<Integer> ids) {
        List<String> out = new ArrayList<>();
        for (int id : ids) {
            out.add(p.viewNodes().get(id).variable());
        }
        return out;
    }

    @Test
    void rebuildsFigure3ForExample10() {
        PHierarchicalPlan p = plan(EX10, PHierarchicalPlan.class);
        assertThat(p.kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        // Bound variable orders: B -> {D -> {E, F}, G} and H.
        assertThat(vars(p, node(p, "B").children())).containsExactly("D", "G");
        assertThat(vars(p, node(p, "D").children())).containsExactly("E", "F");
        assertThat(node(p, "B").parent()).isEqualTo(-1);
        assertThat(node(p, "H").parent()).isEqualTo(-1);
        assertThat(node(p, "H").children()).isEmpty();
        // Atoms attached to their lowest bound variable (extended bound variable orders).
        assertThat(node(p, "E").atoms()).containsExactly(0);
        assertThat(node(p, "F").atoms()).containsExactly(1);
        assertThat(node(p, "G").atoms()).containsExactly(2);
        assertThat(node(p, "H").atoms()).containsExactly(4);
        // Join views keyed by path(X); root views over (A) and (A,C); trivial tree R4(C).
        assertThat(node(p, "D").schema()).containsExactly("A", "B", "D");
        assertThat(node(p, "B").schema()).containsExactly("A", "B");
        assertThat(p.viewTrees())
                .extracting(ViewTree::schema)
                .containsExactly(List.of("A"), List.of("A", "C"), List.of("C"));
        assertThat(p.viewTrees().get(2).isTrivial()).isTrue();
        assertThat(p.viewTrees().get(2).atoms()).containsExactly(3);
        // Only the joins at D and B need state (docs/design.md); E, F, G, H are redundant single-child views.
        assertThat(p.statefulNodes())
                .extracting(ViewNode::displayName)
                .containsExactly("V[A,B] (join over B)", "V[A,B,D] (join over D)");
        // Routes skip the stateless projections.
        assertThat(p.atomRoute(0)).isEqualTo(new Route(0, node(p, "D").id(), 0, List.of("A", "B", "D")));
        assertThat(p.atomRoute(1)).isEqualTo(new Route(0, node(p, "D").id(), 1, List.of("A", "B", "D")));
        assertThat(p.atomRoute(2)).isEqualTo(new Route(0, node(p, "B").id(), 1, List.of("A", "B")));
        assertThat(p.atomRoute(3)).isEqualTo(new Route(2, -1, 0, List.of("C")));
        assertThat(p.atomRoute(4)).isEqualTo(new Route(1, -1, 0, List.of("A", "C")));
        assertThat(p.nodeRoute(node(p, "D").id()))
                .isEqualTo(new Route(0, node(p, "B").id(), 0, List.of("A", "B")));
        assertThat(p.nodeRoute(node(p, "B").id())).isEqualTo(new Route(0, -1, 0, List.of("A")));
        // Boolean join tree: a join tree of the root schemas.
        assertThat(p.joinTree()).hasSize(3);
        assertThat(p.joinOrder()).hasSize(3);
        int root = p.joinOrder().get(0);
        assertThat(p.viewTrees().get(root).schema()).containsExactly("A", "C");
    }

    @Test
    void explainIsDeterministicGoldenText() {
        String expected = String.join(
                "\n",
                "Query: Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)",
                "Semiring: natural (commutative, positive)",
                "Classification:");
        String explain = plan(EX10).explain();
        assertThat(explain).startsWith(expected);
        assertThat(explain)
                .contains(String.join(
                        "\n",
                        "Plan: p-hierarchical — view trees over natural below the border, Boolean join of the root views above it",
                        "View trees (below the border):",
                        "  tree 0: root view V[A]",
                        "    Σ B: V[A,B] (join of 2 children, keyed by A,B)",
                        "      Σ D: V[A,B,D] (join of 2 children, keyed by A,B,D)",
                        "        Σ E: projection to V[A,B,D] (no state)",
                        "          R1(A,B,D,E)",
                        "        Σ F: projection to V[A,B,D] (no state)",
                        "          R2(A,B,D,F)",
                        "      Σ G: projection to V[A,B] (no state)",
                        "        R3(A,B,G)",
                        "  tree 1: root view V[A,C]",
                        "    Σ H: projection to V[A,C] (no state)",
                        "      R5(A,C,H)",
                        "  tree 2: root view R4(C) (trivial: an atom over free variables)",
                        "Border: 1[V[A]], 1[V[A,C]], 1[R4(C)] over boolean; only a root tuple that is new crosses it",
                        "Boolean join tree (above the border):",
                        "  V[A,C]",
                        "    V[A] on A",
                        "    R4(C) on C",
                        "Guarantee: amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1); "
                                + "payloads recovered by 3 lookups per result tuple",
                        ""));
        assertThat(explain).isEqualTo(plan(EX10).explain());
    }

    @Test
    void fallbackForQueriesThatAreNotPHierarchical() {
        FallbackPlan p = plan("Q() :- R(X), S(X,Y), T(Y)", FallbackPlan.class);
        assertThat(p.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(p.reasons())
                .singleElement()
                .asString()
                .startsWith("not p-hierarchical: ")
                .contains("Thm. 2");
        assertThat(p.explain())
                .contains(
                        "Plan: fallback — first-order delta joins over natural, result materialized",
                        "δR(X) ⋈ S(X,Y) on X ⋈ T(Y) on Y",
                        "δS(X,Y) ⋈ R(X) on X ⋈ T(Y) on Y");
        assertThat(p.deltaJoins().get(2))
                .containsExactly(new DeltaJoinStep(1, List.of("Y")), new DeltaJoinStep(0, List.of("X")));
    }

    @Test
    void cyclicBooleanJoinGetsTheCyclicPlan() {
        // More in CyclicPlanTest.
        MaintenancePlan p = plan("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)");
        assertThat(p).isInstanceOf(CyclicPHierarchicalPlan.class);
        assertThat(p.kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
    }

    @Test
    void nonPositiveSemiringGetsTheFallbackOrARefusal() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B), S(A)");
        EnumSet<SemiringProperty> commutativeOnly = EnumSet.of(SemiringProperty.COMMUTATIVE);
        MaintenancePlan p = Planner.plan(q, "sets", commutativeOnly, Planner.Strategy.AUTO);
        assertThat(p.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(((FallbackPlan) p).reasons()).singleElement().asString().contains("not positive");
        assertThatThrownBy(() -> Planner.plan(q, "sets", commutativeOnly, Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("not positive")
                .hasMessageContaining("fallback");
    }

    @Test
    void forcedFallbackAndSizeLimits() {
        ConjunctiveQuery q = QueryParser.parse(EX10);
        assertThat(Planner.plan(q, Semirings.byName("natural"), Planner.Strategy.FALLBACK)
                        .kind())
                .isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        StringBuilder big = new StringBuilder("Q(A) :- ");
        for (int i = 0; i <= Planner.MAX_ATOMS; i++) {
            big.append(i == 0 ? "" : ", ").append("R").append(i).append("(A)");
        }
        assertThatThrownBy(() -> plan(big.toString()))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("query too large to plan");
    }

    @Test
    void nullaryRootsAggregatesAndCrossProducts() {
        PHierarchicalPlan p = plan("Q(A) :- R(A), S(B)", PHierarchicalPlan.class);
        assertThat(p.viewTrees()).extracting(ViewTree::schema).containsExactly(List.of(), List.of("A"));
        PHierarchicalPlan agg = plan("Q() :- R(A,B), S(A,C)", PHierarchicalPlan.class);
        assertThat(agg.viewTrees()).singleElement().extracting(ViewTree::schema).isEqualTo(List.of());
        assertThat(agg.statefulNodes()).extracting(ViewNode::displayName).containsExactly("V[A] (join over A)");
        PHierarchicalPlan cross = plan("Q(A,B) :- R(A), S(B)", PHierarchicalPlan.class);
        assertThat(cross.joinTree())
                .anySatisfy(j -> assertThat(j.parent()).isGreaterThanOrEqualTo(0))
                .allSatisfy(j -> assertThat(j.key()).isEmpty());
        assertThat(cross.explain()).contains("× (cross product)");
    }

    @Test
    void planIsSerializable() throws Exception {
        MaintenancePlan p = plan(EX10);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            MaintenancePlan copy = (MaintenancePlan) in.readObject();
            assertThat(copy.explain()).isEqualTo(p.explain());
            assertThat(copy).isEqualTo(p);
        }
    }

    @Test
    void mermaidRendering() {
        assertThat(plan(EX10).toMermaid()).startsWith("flowchart BT\n").contains("V[A,B,D] (join over D)", "border");
    }
    /** The Boolean join tree of Ex. 10's root schemas: rooted at the widest, V[A,C]. */
    @Test
    void booleanJoinTreeOfExample10() {
        List<List<String>> schemas = List.of(List.of("A"), List.of("A", "C"), List.of("C"));
        List<JoinTreeNode> tree =
                Planner.booleanJoinTree(schemas, Gyo.reduce(schemas).parent());
        assertThat(tree)
                .containsExactly(
                        new JoinTreeNode(0, 1, List.of("A")),
                        new JoinTreeNode(1, -1, List.of()),
                        new JoinTreeNode(2, 1, List.of("C")));
        assertThat(Planner.preorder(tree)).containsExactly(1, 0, 2);
        List<List<String>> cross = List.of(List.of("A"), List.of("B"));
        assertThat(Planner.booleanJoinTree(cross, Gyo.reduce(cross).parent()))
                .containsExactly(new JoinTreeNode(0, -1, List.of()), new JoinTreeNode(1, 0, List.of()));
    }

    /** The triangle's root views need one bag over A, B, C of width 3/2 that joins all three. */
    @Test
    void bagsOfTheTriangle() {
        ViewTreeForest f = ViewTreeRewriteTest.rewrite("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)");
        List<List<String>> schemas = f.trees().stream().map(ViewTree::schema).toList();
        assertThat(Gyo.reduce(schemas).acyclic()).isFalse();
        List<BagNode> bags = Planner.bags(List.of("A", "B", "C"), f.trees(), TreeDecompositions.optimal(schemas));
        assertThat(bags).containsExactly(new BagNode(0, List.of("A", "B", "C"), 1.5, -1, List.of(), List.of(0, 1, 2)));
    }

    @Test
    void deltaJoinsJoinTheAtomSharingMostVariablesNext() {
        List<List<DeltaJoinStep>> joins =
                Planner.deltaJoins(QueryParser.parse("Q() :- R(X), S(X,Y), T(Y,Z), U(X,Y,Z)"));
        assertThat(joins.get(0))
                .containsExactly(
                        new DeltaJoinStep(1, List.of("X")),
                        new DeltaJoinStep(3, List.of("X", "Y")),
                        new DeltaJoinStep(2, List.of("Y", "Z")));
        assertThat(joins.get(2))
                .containsExactly(
                        new DeltaJoinStep(3, List.of("Y", "Z")),
                        new DeltaJoinStep(1, List.of("X", "Y")),
                        new DeltaJoinStep(0, List.of("X")));
    }

    @Test
    void anAttemptIsAPlanOrARefusalWithItsReasons() {
        ConjunctiveQuery q = QueryParser.parse(EX10);
        EnumSet<SemiringProperty> positive = EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE);
        Classification c = QueryClassifier.classify(q);
        assertThat(Planner.attempt(q, "natural", positive, c, Planner.Strategy.AUTO))
                .isInstanceOfSatisfying(
                        Planner.Attempt.Planned.class, p -> assertThat(p.plan()).isInstanceOf(PHierarchicalPlan.class));
        assertThat(Planner.attempt(q, "sets", EnumSet.of(SemiringProperty.COMMUTATIVE), c, Planner.Strategy.FALLBACK))
                .isInstanceOfSatisfying(
                        Planner.Attempt.Refused.class,
                        r -> assertThat(r.reasons())
                                .containsExactly(
                                        "the fallback plan was requested",
                                        "semiring sets is not positive (a+b=0 or"
                                                + " a·b=0 with non-zero operands is possible), so the Boolean border could drop live tuples"));
        assertThatThrownBy(() -> new Planner.Attempt.Refused(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
