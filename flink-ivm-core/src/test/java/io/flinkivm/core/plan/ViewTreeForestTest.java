package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The routes of a forest of view trees: deltas skip the stateless projections. */
class ViewTreeForestTest {

    @Test
    void example10RoutesSkipTheStatelessProjections() {
        ViewTreeForest f = ViewTreeRewriteTest.rewrite(PlannerTest.EX10);
        int b = 0;
        int d = 1;
        int e = 2;
        int h = 5;
        // R1 and R2 go through the projections at E and F into slots 0 and 1 of V[A,B,D].
        assertThat(f.atomRoutes().get(0)).isEqualTo(new Route(0, d, 0, List.of("A", "B", "D")));
        assertThat(f.atomRoutes().get(1)).isEqualTo(new Route(0, d, 1, List.of("A", "B", "D")));
        assertThat(f.atomRoutes().get(2)).isEqualTo(new Route(0, b, 1, List.of("A", "B")));
        // R4 is a trivial tree, R5 feeds root V[A,C] through H's projection.
        assertThat(f.atomRoutes().get(3)).isEqualTo(new Route(2, -1, 0, List.of("C")));
        assertThat(f.atomRoutes().get(4)).isEqualTo(new Route(1, -1, 0, List.of("A", "C")));
        assertThat(f.nodeRoutes().get(d)).isEqualTo(new Route(0, b, 0, List.of("A", "B")));
        assertThat(f.nodeRoutes().get(b)).isEqualTo(new Route(0, -1, 0, List.of("A")));
        assertThat(f.nodeRoutes().get(e)).isEqualTo(new Route(0, d, 0, List.of("A", "B", "D")));
        assertThat(f.nodeRoutes().get(h)).isEqualTo(new Route(1, -1, 0, List.of("A", "C")));
    }

    @Test
    void aChainOfSingleChildViewsRoutesStraightToTheRoot() {
        // B → C → D: the joins at B and C have an atom and a child each, D's view has one child (no state).
        ViewTreeForest f = ViewTreeRewriteTest.rewrite("Q(A) :- R(A,B,C,D), S(A,B,C), T(A,B)");
        assertThat(f.statefulNodes()).extracting(ViewNode::variable).containsExactly("B", "C");
        // The same chain with one atom: no view has two children, so R's delta goes straight to the root.
        f = ViewTreeRewriteTest.rewrite("Q(A) :- R(A,B,C,D)");
        assertThat(f.statefulNodes()).isEmpty();
        assertThat(f.atomRoutes().get(0)).isEqualTo(new Route(0, -1, 0, List.of("A")));
        assertThat(f.nodeRoutes()).allSatisfy(r -> assertThat(r).isEqualTo(new Route(0, -1, 0, List.of("A"))));
    }
}
