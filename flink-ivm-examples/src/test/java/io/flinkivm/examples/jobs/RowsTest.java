package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RowsTest {

    @Test
    void numbersInsideValuesCompareAsNumbers() {
        List<Tuple> tuples = new ArrayList<>(List.of(
                Tuple.of("a10", "c1"),
                Tuple.of("a2", "c3"),
                Tuple.of("a2", "c20"),
                Tuple.of("a1", "c9"),
                Tuple.of("b", "c1"),
                Tuple.of("a02", "c3")));

        tuples.sort(Rows.NATURAL_ORDER);

        assertThat(tuples)
                .containsExactly(
                        Tuple.of("a1", "c9"),
                        Tuple.of("a02", "c3"),
                        Tuple.of("a2", "c3"),
                        Tuple.of("a2", "c20"),
                        Tuple.of("a10", "c1"),
                        Tuple.of("b", "c1"));
    }

    @Test
    void otherValueTypesUseTheTupleOrder() {
        assertThat(Rows.NATURAL_ORDER.compare(Tuple.of(2L), Tuple.of(10L))).isNegative();
        assertThat(Rows.NATURAL_ORDER.compare(Tuple.of(), Tuple.of("a"))).isNegative();
    }

    @Test
    void firstSortsAndLimits() {
        Map<Tuple, Long> result = Map.of(Tuple.of("a3"), 1L, Tuple.of("a1"), 5L, Tuple.of("a2"), 3L);
        Comparator<ResultTuple<Long>> byPayload = Comparator.comparing(ResultTuple::payload);

        assertThat(Rows.first(result, byPayload, 2))
                .extracting(ResultTuple::tuple)
                .containsExactly(Tuple.of("a3"), Tuple.of("a2"));
    }

    @Test
    void formatsARow() {
        assertThat(Rows.format("Q", Tuple.of("a1", "c2"), "180")).isEqualTo("Q(a1, c2) = 180");
        assertThat(Rows.format("Q", Tuple.EMPTY, "20")).isEqualTo("Q() = 20");
    }
}
