package io.flinkivm.core.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which variables close with their windows, which one keys the sink, and what explain says per view. */
class WindowsTest {
    static final Windows BID =
            Windows.NONE.with(WindowAssignment.of("bid", 1, WindowSpec.tumble(Duration.ofSeconds(10))));

    @Test
    void aVariableClosesWhenItIsOnlyAtWindowColumnsOfWindowedAtoms() {
        ConjunctiveQuery q = QueryParser.parse("Q(W,A,S) :- bid(A,T,W,E), seller(A,S)");
        assertThat(BID.isClosing(q, "W")).isTrue();
        assertThat(BID.isClosing(q, "E")).isTrue();
        assertThat(BID.isClosing(q, "A")).as("a column of rows").isFalse();
        assertThat(BID.isClosing(q, "X")).as("not in the query").isFalse();
        assertThat(BID.isClosing(QueryParser.parse("Q(W) :- bid(A,T,W,E), seller(W,S)"), "W"))
                .as("also a column of an unwindowed relation")
                .isFalse();
        Windows micros =
                BID.with(new WindowAssignment("auction", 1, WindowSpec.tumble(Duration.ofSeconds(10)), 0, 1000));
        assertThat(micros.isClosing(QueryParser.parse("Q(W) :- bid(A,T,W,E), auction(A,U,W,E)"), "W"))
                .as("time columns in other units")
                .isFalse();
        assertThat(Windows.NONE.isClosing(q, "W")).isFalse();
    }

    /**
     * A window aggregate's sink is keyed by its window; a windowed table joined with one that is not
     * (not p-hierarchical: the fallback, whose atoms do not all hold the window) keeps its state.
     */
    @Test
    void explainSaysWhichViewsAreCollectedByWindow() {
        MaintenancePlan aggregate = Planner.plan(QueryParser.parse("Q(A,W) :- bid(A,T,W,E)"), NaturalSemiring.INSTANCE);
        assertThat(BID.sinkVariable(aggregate)).isEqualTo("W");
        assertThat(BID.explain(aggregate))
                .contains(": collected by window (W) when the watermark passes its end\n")
                .contains("  closed windows: a view collected by window drops a window's state whole when the"
                        + " watermark passes the window's end - 1 ms + allowed lateness, after its last change was"
                        + " emitted\n");
        MaintenancePlan joined =
                Planner.plan(QueryParser.parse("Q(S,W) :- bid(A,T,W,E), seller(A,S)"), NaturalSemiring.INSTANCE);
        assertThat(BID.sinkVariable(joined)).isNull();
        assertThat(BID.explain(joined))
                .contains("relation bid(A,T,W,E): keyed by window (W), but kept: its operator's key holds no window\n")
                .contains("relation seller(A,S): not keyed by a window, grows with its tables\n")
                .contains("  closed windows: no operator is keyed by a window, so every view grows with its tables\n");
        assertThat(Windows.NONE.explain(aggregate)).isEmpty();
    }
}
