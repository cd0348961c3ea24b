package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.flink.types.InputRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SoakWindowsTest {

    static final NaturalSemiring K = NaturalSemiring.INSTANCE;

    @Test
    void windowsEveryRelationOnItsLastColumn() {
        ConjunctiveQuery q = QueryParser.parse("Q(W,A) :- bid(A,T,W,E), auction(A,S,U,W,E)");
        SoakWindows w = SoakWindows.of(q, WindowSpec.tumble(Duration.ofSeconds(1)), new EventClock(10, 1, 10, 0));

        assertThat(w.windows().of("bid").timeColumn()).isEqualTo(1);
        assertThat(w.windows().of("auction").timeColumn()).isEqualTo(2);
        assertThat(w.describe()).contains("TUMBLE(size 1 s)", "10 inserts per second", "once, final");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Q(W,A) :- bid(A,P,T,W,E), auction(A,S,U,E,W)",
                "Q(W,A) :- bid(A,P,T,W,E), auction(A,S,W,E,U)",
                "Q(W,A) :- bid(A,P,T,W,W)",
                "Q(A) :- bid(A,W,E)"
            })
    void refusesAQueryThatDoesNotFallApartByWindow(String text) {
        ConjunctiveQuery q = QueryParser.parse(text);
        assertThatThrownBy(
                        () -> SoakWindows.of(q, WindowSpec.tumble(Duration.ofSeconds(1)), new EventClock(10, 1, 10, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window_");
    }

    @Test
    void aCumulatingWindowIsKnownByItsEnd() {
        ConjunctiveQuery q = QueryParser.parse("Q(W,A) :- bid(A,T,W,E)");
        WindowSpec cumulate = WindowSpec.cumulate(Duration.ofSeconds(1), Duration.ofSeconds(3));
        assertThatThrownBy(() -> SoakWindows.of(q, cumulate, new EventClock(10, 1, 10, 0)))
                .hasMessageContaining("window_end (E)");
        assertThat(SoakWindows.of(QueryParser.parse("Q(E,A) :- bid(A,T,W,E)"), cumulate, new EventClock(10, 1, 10, 0)))
                .isNotNull();
    }

    /**
     * The check replays the stream window by window: it accepts the result of one engine over the whole
     * windowed stream, and refuses it with one tuple missing or one payload changed.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tumble", "hop"})
    void theCheckFindsAMissingOrChangedTuple(String kind) {
        ConjunctiveQuery q = QueryParser.parse("Q(W,A) :- bid(A,P,T,W,E), auction(A,S,U,W,E)");
        MaintenancePlan plan = Planner.plan(q, K);
        WindowSpec spec = kind.equals("tumble")
                ? WindowSpec.tumble(Duration.ofMillis(500))
                : WindowSpec.hop(Duration.ofMillis(250), Duration.ofMillis(750));
        long n = 20_000;
        SoakWindows w = SoakWindows.of(q, spec, new EventClock(n, 2, 5_000, 100));
        SoakStream<Long> stream = new SoakStream<>(q, K, n, false, SoakStream.Domain.SLIDING, w.clock(), 1);
        IvmEngine<Long> whole = Engines.create(plan, K);
        long[] starts = new long[spec.maxWindows()];
        long[] ends = new long[spec.maxWindows()];
        for (long i = 0; i < n; i++) {
            InputRecord<Long> r = stream.record(i);
            WindowAssignment a = w.windows().of(r.relation());
            int k = spec.assign(a.millis(r.tuple()), starts, ends);
            for (int x = 0; x < k; x++) {
                whole.insert(r.relation(), a.withWindow(r.tuple(), starts[x], ends[x]), r.payload());
            }
        }
        WindowDigests right = w.digests();
        WindowDigests missing = w.digests();
        WindowDigests changed = w.digests();
        Iterator<ResultTuple<Long>> it = whole.enumerate();
        long tuples = 0;
        while (it.hasNext()) {
            ResultTuple<Long> t = it.next();
            right.add(t.tuple(), t.payload());
            if (tuples != 7) {
                missing.add(t.tuple(), t.payload());
            }
            changed.add(t.tuple(), tuples == 11 ? t.payload() + 1 : t.payload());
            tuples++;
        }
        assertThat(right.windows()).isGreaterThan(5);

        StringWriter text = new StringWriter();
        assertThat(w.check(plan, K, stream, right, new PrintWriter(text))).isTrue();
        assertThat(text.toString()).contains("window by window", String.format("%,d tuples", tuples));
        StringWriter failed = new StringWriter();
        assertThat(w.check(plan, K, stream, missing, new PrintWriter(failed))).isFalse();
        assertThat(failed.toString()).contains("Check FAILED", "these windows", "tuples, engine");
        StringWriter differs = new StringWriter();
        assertThat(w.check(plan, K, stream, changed, new PrintWriter(differs))).isFalse();
        assertThat(differs.toString()).contains("(payloads or tuples differ)");
    }
}
