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
    /** TPC-H's revenue query: root views V[C] (customers), V[O,C] (orders) and V[O] (lineitems). */
    private static final List<List<String>> TPCH = List.of(List.of("C"), List.of("O", "C"), List.of("O"));

    @Test
    void ratesMoveTheSharesToTheFastRelations() {
        assertThat(HyperCube.shares(List.of("O", "C"), TPCH, 4).describe()).isEqualTo("O=2 C=2");
        // TPC-H table sizes: lineitems arrive 40 times as fast as customers; keying by O sends a
        // customer to all 4 cells but each lineitem and order to one.
        Shares s = HyperCube.shares(List.of("O", "C"), TPCH, new double[] {150_000, 1_500_000, 6_001_215}, 4);
        assertThat(s.describe()).isEqualTo("O=4");
        assertThat(s.replication(List.of("C"))).isEqualTo(4);
        assertThat(s.replication(List.of("O"))).isEqualTo(1);
        // Equal weights are the unweighted shares.
        assertThat(HyperCube.shares(List.of("O", "C"), TPCH, new double[] {5, 5, 5}, 4))
                .isEqualTo(HyperCube.shares(List.of("O", "C"), TPCH, 4));
        // The mirror image: customers fast, lineitems slow.
        assertThat(HyperCube.shares(List.of("O", "C"), TPCH, new double[] {6_000_000, 1_500_000, 150_000}, 4)
                        .describe())
                .isEqualTo("C=4");
    }

    /** The chosen shares have the least expected load per cell of all share vectors (brute force). */
    @Test
    void weightedSharesMinimiseTheLoadPerCell() {
        List<String> vars = List.of("A", "B", "C");
        List<List<String>> schemas = List.of(List.of("A", "B"), List.of("B", "C"), List.of("A", "C"), List.of("C"));
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            double[] w = new double[schemas.size()];
            for (int r = 0; r < w.length; r++) {
                w[r] = Math.pow(10, 4 * random.nextDouble());
            }
            int p = 1 + random.nextInt(16);
            Shares s = HyperCube.shares(vars, schemas, w, p);
            assertThat(s.cells()).isLessThanOrEqualTo(p);
            double best = Double.POSITIVE_INFINITY;
            for (int a = 1; a <= p; a++) {
                for (int b = 1; a * b <= p; b++) {
                    for (int c = 1; a * b * c <= p; c++) {
                        best = Math.min(best, load(new Shares(vars, new int[] {a, b, c}), schemas, w));
                    }
                }
            }
            assertThat(load(s, schemas, w))
                    .as("weights %s at %d", java.util.Arrays.toString(w), p)
                    .isLessThanOrEqualTo(best * (1 + 1e-9));
        }
    }

    private static double load(Shares s, List<List<String>> schemas, double[] w) {
        double load = 0;
        for (int r = 0; r < schemas.size(); r++) {
            load += w[r] * s.replication(schemas.get(r)) / s.cells();
        }
        return load;
    }

    /**
     * Routed tuple by tuple, TPC-H-like streams load the busiest cell less with the weighted shares
     * than with the equal ones (the expected loads are 2.0M against 3.45M per 7.65M updates).
     */
    @Test
    void weightedSharesLoadTheBusiestCellLess() {
        double[] rates = {150_000, 1_500_000, 6_001_215};
        Shares weighted = HyperCube.shares(List.of("O", "C"), TPCH, rates, 4);
        Shares equal = HyperCube.shares(List.of("O", "C"), TPCH, 4);
        assertThat((double) busiestCell(weighted, rates)).isLessThan(busiestCell(equal, rates) * 0.7);
    }

    /** Updates the busiest cell receives when each root view gets rates/100 random tuples. */
    private static long busiestCell(Shares s, double[] rates) {
        long[] perCell = new long[s.cells()];
        int[] out = new int[s.cells()];
        Random random = new Random(5);
        for (int r = 0; r < TPCH.size(); r++) {
            CellRouter router = new CellRouter(s, TPCH.get(r));
            for (int i = 0; i < rates[r] / 100; i++) {
                Object[] values = new Object[TPCH.get(r).size()];
                for (int v = 0; v < values.length; v++) {
                    values[v] = (long) random.nextInt(1_000_000);
                }
                int n = router.cells(Tuple.of(values), out);
                for (int c = 0; c < n; c++) {
                    perCell[out[c]]++;
                }
            }
        }
        long max = 0;
        for (long c : perCell) {
            max = Math.max(max, c);
        }
        return max;
    }

    @Test
    void weightsMustFitTheSchemasAndBePositive() {
        assertThatThrownBy(() -> HyperCube.shares(List.of("O", "C"), TPCH, new double[] {1, 2}, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 weights for 3 schemas");
        assertThatThrownBy(() -> HyperCube.shares(List.of("O", "C"), TPCH, new double[] {1, 0, 2}, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weights must be positive and finite");
        assertThatThrownBy(() -> HyperCube.shares(List.of("O", "C"), TPCH, new double[] {1, Double.NaN, 2}, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weights must be positive and finite");
    }
}
