package io.flinkivm.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HyperCubeTest {

    @Test
    void example10SplitsFourCellsOverAAndC() {
        // Root views of Ex. 10: V[A], V[A,C], V[C].
        Shares s = HyperCube.shares(List.of("A", "C"), List.of(List.of("A"), List.of("A", "C"), List.of("C")), 4);
        assertThat(s.describe()).isEqualTo("A=2 C=2");
        assertThat(s.cells()).isEqualTo(4);
        assertThat(s.replication(List.of("A"))).isEqualTo(2);
        assertThat(s.replication(List.of("A", "C"))).isEqualTo(1);
        assertThat(s.replication(List.of("C"))).isEqualTo(2);
        assertThat(s.soleVariable()).isNull();
    }

    @Test
    void aVariableInEverySchemaGetsAllCells() {
        Shares s = HyperCube.shares(List.of("A", "B"), List.of(List.of("A", "B"), List.of("A")), 4);
        assertThat(s.describe()).isEqualTo("A=4");
        assertThat(s.soleVariable()).isEqualTo("A");
        assertThat(s.replication(List.of("A"))).isEqualTo(1);
    }

    @Test
    void triangleSpreadsOverThreeVariables() {
        List<List<String>> schemas = List.of(List.of("A", "B"), List.of("B", "C"), List.of("A", "C"));
        Shares s = HyperCube.shares(List.of("A", "B", "C"), schemas, 8);
        assertThat(s.describe()).isEqualTo("A=2 B=2 C=2");
        assertThat(s.replication(List.of("A", "B"))).isEqualTo(2);
    }

    @Test
    void parallelismOneAndNoVariablesGiveOneCell() {
        assertThat(HyperCube.shares(List.of("A"), List.of(List.of("A")), 1).cells())
                .isEqualTo(1);
        Shares none = HyperCube.shares(List.of(), List.of(List.of()), 4);
        assertThat(none.cells()).isEqualTo(1);
        assertThat(none.describe()).isEqualTo("none");
        assertThatThrownBy(() -> HyperCube.shares(List.of("A"), List.of(List.of("A")), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism must be at least 1");
    }

    @Test
    void aPrimeParallelismUsesEveryCellItCan() {
        Shares s = HyperCube.shares(List.of("A", "C"), List.of(List.of("A"), List.of("A", "C"), List.of("C")), 3);
        assertThat(s.cells()).isEqualTo(3);
    }

    /** The HyperCube property: each full join result agrees with exactly one cell that holds all its parts. */
    @Test
    void everyJoinResultMeetsAllItsTuplesInExactlyOneCell() {
        List<String> vars = List.of("A", "B", "C");
        List<List<String>> schemas =
                List.of(List.of("A", "B"), List.of("B", "C"), List.of("A", "C"), List.of("C"), List.of());
        Random random = new Random(3);
        for (int p = 1; p <= 12; p++) {
            Shares s = HyperCube.shares(vars, schemas, p);
            assertThat(s.cells()).isLessThanOrEqualTo(p);
            List<CellRouter> routers = new ArrayList<>();
            for (List<String> schema : schemas) {
                routers.add(new CellRouter(s, schema));
            }
            int[] out = new int[s.cells()];
            for (int trial = 0; trial < 200; trial++) {
                Map<String, Object> row = new HashMap<>();
                for (String v : vars) {
                    row.put(v, random.nextBoolean() ? (Object) (long) random.nextInt(50) : "v" + random.nextInt(50));
                }
                Set<Integer> common = null;
                for (int r = 0; r < schemas.size(); r++) {
                    Object[] values = schemas.get(r).stream().map(row::get).toArray();
                    int n = routers.get(r).cells(Tuple.of(values), out);
                    assertThat(n).isEqualTo(s.replication(schemas.get(r)));
                    Set<Integer> cells = new HashSet<>();
                    for (int i = 0; i < n; i++) {
                        assertThat(out[i]).isBetween(0, s.cells() - 1);
                        cells.add(out[i]);
                    }
                    assertThat(cells).hasSize(n);
                    if (common == null) {
                        common = cells;
                    } else {
                        common.retainAll(cells);
                    }
                }
                assertThat(common)
                        .as("cells holding every part of %s at parallelism %d (%s)", row, p, s)
                        .hasSize(1);
            }
        }
    }

    @Test
    void coordinatesSpreadValuesEvenly() {
        int[] counts = new int[4];
        for (long v = 0; v < 40_000; v++) {
            counts[CellRouter.coordinate(v, 0, 4)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(9_500, 10_500);
        }
    }
}
