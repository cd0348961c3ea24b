package io.flinkivm.core.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WindowAssignmentTest {

    private final WindowAssignment bids = WindowAssignment.of("bid", 1, WindowSpec.tumble(Duration.ofSeconds(10)));

    @Test
    void appendsTheWindowInTheTimeColumnsUnits() {
        WindowAssignment micros = new WindowAssignment("bid", 1, WindowSpec.tumble(Duration.ofSeconds(10)), 0, 1000);
        Tuple row = Tuple.of(7L, 12_345_678L);
        assertThat(micros.millis(row)).isEqualTo(12_345L);
        assertThat(micros.withWindow(row, 10_000, 20_000))
                .isEqualTo(Tuple.of(7L, 12_345_678L, 10_000_000L, 20_000_000L));
    }

    @Test
    void aRowIsLateOnceItsLastWindowsEndMinusOneReachedTheWatermark() {
        assertThat(bids.isLate(5_000, 9_998)).isFalse();
        assertThat(bids.isLate(5_000, 9_999)).isTrue();
        assertThat(bids.withLateness(2_000).isLate(5_000, 11_998)).isFalse();
        assertThat(bids.withLateness(2_000).isLate(5_000, 11_999)).isTrue();
        WindowAssignment hop =
                WindowAssignment.of("bid", 1, WindowSpec.hop(Duration.ofSeconds(5), Duration.ofSeconds(10)));
        // [0, 10) closed, [5, 15) still open: the row counts in [5, 15) only, as in Flink's window aggregate.
        assertThat(hop.isOpen(10_000, 9_999)).isFalse();
        assertThat(hop.isOpen(15_000, 9_999)).isTrue();
        assertThat(hop.isLate(7_000, 9_999)).isFalse();
        assertThat(hop.isLate(7_000, 14_999)).isTrue();
        assertThat(hop.lateReason(7_000, 14_999))
                .isEqualTo("late: window [1970-01-01T00:00:05Z, 1970-01-01T00:00:15Z) closed at watermark"
                        + " 1970-01-01T00:00:14.999Z");
    }

    @Test
    void saysWhyARowHasNoTime() {
        assertThat(bids.problem(Tuple.of(1L, 2L))).isNull();
        assertThat(bids.problem(Tuple.of(1L))).isEqualTo("bid is windowed on column 1, but the row (1) has 1 columns");
        assertThat(bids.problem(Tuple.of(1L, "noon")))
                .isEqualTo("the time column 1 of bid holds noon (String), not a timestamp (a long)");
    }

    @Test
    void checksTheAtomsHaveTheWindowColumns() {
        Windows w = Windows.NONE.with(bids);
        w.check(QueryParser.parse("Q(W,A) :- bid(A,T,W,E)"));
        assertThatThrownBy(() -> w.check(QueryParser.parse("Q(A) :- bid(A,T)")))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("bid is windowed on its column 1, so its atoms need its rows' columns and then"
                        + " window_start and window_end (at least 4 terms), but they have 2");
        assertThatThrownBy(() -> w.check(QueryParser.parse("Q(A) :- R(A,T,W,E)")))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("a window is assigned to bid, which is not a relation of the query");
        assertThat(w.windowVariables(QueryParser.parse("Q(W,A) :- bid(A,T,W,E), bid(A,U,W,F)")))
                .containsExactly("W", "E", "F");
    }
}
