package io.flinkivm.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeCoverTest {
    private static final List<List<String>> TRIANGLE = List.of(List.of("A", "B"), List.of("B", "C"), List.of("A", "C"));
    private static final List<List<String>> FOUR_CYCLE =
            List.of(List.of("A", "B"), List.of("B", "C"), List.of("C", "D"), List.of("D", "A"));

    @Test
    void triangleNeedsHalfOfEachEdge() {
        EdgeCover.Cover c = EdgeCover.optimal(TRIANGLE, List.of("A", "B", "C"));
        assertThat(c.value()).isEqualTo(1.5);
        assertThat(c.weights()).containsExactly(0.5, 0.5, 0.5);
        assertThat(EdgeCover.format(c.value())).isEqualTo("1.5");
    }

    @Test
    void fourCycleAndFourClique() {
        assertThat(EdgeCover.rho(FOUR_CYCLE, List.of("A", "B", "C", "D"))).isEqualTo(2.0);
        // A bag of three vertices of the 4-cycle: B and D share no edge, so both need weight 1.
        assertThat(EdgeCover.rho(FOUR_CYCLE, List.of("A", "B", "D"))).isEqualTo(2.0);
        List<List<String>> clique = List.of(
                List.of("A", "B"),
                List.of("A", "C"),
                List.of("A", "D"),
                List.of("B", "C"),
                List.of("B", "D"),
                List.of("C", "D"));
        assertThat(EdgeCover.rho(clique, List.of("A", "B", "C", "D"))).isEqualTo(2.0);
        assertThat(EdgeCover.rho(clique, List.of("A", "B", "C"))).isEqualTo(1.5);
    }

    @Test
    void inducedEdgesAreIntersections() {
        // Over {A,B} the edge S(B,C) counts as {B}; one edge covers both.
        assertThat(EdgeCover.rho(List.of(List.of("A", "B", "D"), List.of("B", "C")), List.of("A", "B")))
                .isEqualTo(1.0);
        assertThat(EdgeCover.rho(TRIANGLE, List.of())).isEqualTo(0.0);
        assertThat(EdgeCover.optimal(TRIANGLE, List.of("A")).weights()).containsExactly(1.0, 0.0, 0.0);
    }

    @Test
    void uncoverableVertexIsRefused() {
        assertThatThrownBy(() -> EdgeCover.rho(TRIANGLE, List.of("A", "Z")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("vertex Z lies in no edge");
    }

    @Test
    void formatting() {
        assertThat(EdgeCover.format(2.0)).isEqualTo("2");
        assertThat(EdgeCover.format(1.25)).isEqualTo("1.25");
        assertThat(EdgeCover.format(5.0 / 3)).isEqualTo("5/3");
        assertThat(EdgeCover.format(1.4999999999)).isEqualTo("1.5");
        assertThat(EdgeCover.format(0.5)).isEqualTo("0.5");
        assertThat(EdgeCover.format(Math.PI)).isEqualTo("3.1416");
    }
}
