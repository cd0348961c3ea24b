package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Algorithm 2 (Rewrite) on Algorithm 1's forest. */
class ViewTreeRewriteTest {

    static ViewTreeForest rewrite(String query) {
        ConjunctiveQuery q = QueryParser.parse(query);
        return ViewTreeRewrite.rewrite(q, VariableOrders.create(q));
    }

    private static ViewNode node(ViewTreeForest f, String variable) {
        return f.nodes().stream()
                .filter(n -> n.variable().equals(variable))
                .findFirst()
                .orElseThrow();
    }

    /** Ex. 19 and 20, Fig. 3 right: three view trees with root views V[A], V[A,C] and the atom R4(C). */
    @Test
    void example10GivesTheViewTreesOfFigure3() {
        ViewTreeForest f = rewrite(PlannerTest.EX10);
        assertThat(f.trees())
                .extracting(ViewTree::schema)
                .containsExactly(List.of("A"), List.of("A", "C"), List.of("C"));
        assertThat(f.trees()).extracting(ViewTree::atoms).containsExactly(List.of(0, 1, 2), List.of(4), List.of(3));
        assertThat(f.trees().get(2).isTrivial()).isTrue();
        // Nodes in pre-order, tree by tree; schema path(X) = free variables, bound ancestors, X.
        assertThat(f.nodes()).extracting(ViewNode::variable).containsExactly("B", "D", "E", "F", "G", "H");
        assertThat(f.nodes())
                .extracting(ViewNode::schema)
                .containsExactly(
                        List.of("A", "B"),
                        List.of("A", "B", "D"),
                        List.of("A", "B", "D", "E"),
                        List.of("A", "B", "D", "F"),
                        List.of("A", "B", "G"),
                        List.of("A", "C", "H"));
        assertThat(f.trees().get(0).rootNode()).isEqualTo(node(f, "B").id());
        assertThat(f.trees().get(1).rootNode()).isEqualTo(node(f, "H").id());
        // Slots: first the atoms hung under X, then the child variables' projections.
        assertThat(node(f, "D").children())
                .containsExactly(node(f, "E").id(), node(f, "F").id());
        assertThat(node(f, "F").slot()).isEqualTo(1);
        assertThat(node(f, "E").atoms()).containsExactly(0);
        // Only the joins at B and D have two children; the single-child views are Alg. 2's redundant ones.
        assertThat(f.statefulNodes()).extracting(ViewNode::variable).containsExactly("B", "D");
    }

    @Test
    void atomsAndChildVariablesShareTheSlotsOfAJoinView() {
        ViewTreeForest f = rewrite("Q(A) :- R(A,B), S(A,B,C), T(A,B)");
        ViewNode b = node(f, "B");
        assertThat(b.atoms()).containsExactly(0, 2);
        assertThat(b.children()).containsExactly(node(f, "C").id());
        assertThat(node(f, "C").slot()).isEqualTo(2);
        assertThat(b.arity()).isEqualTo(3);
    }

    @Test
    void anAggregateHasOneTreeWithAnEmptyRootSchema() {
        ViewTreeForest f = rewrite("Q() :- R(A,B), S(A,C)");
        assertThat(f.trees()).singleElement().extracting(ViewTree::schema).isEqualTo(List.of());
        assertThat(node(f, "A").schema()).containsExactly("A");
    }
}
