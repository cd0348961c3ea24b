package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.bench.state.StateReport;
import io.flinkivm.bench.state.ThreadCpu;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.examples.jobs.Ex10Job;
import io.flinkivm.flink.types.InputRecord;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SoakStreamTest {

    @Test
    void insertsAreDeterministicAndFitTheQuery() {
        ConjunctiveQuery q = QueryParser.parse(Ex10Job.QUERY);
        SoakStream<Long> s = new SoakStream<>(q, NaturalSemiring.INSTANCE, 100_000, false, 3);
        SoakStream<Long> same = new SoakStream<>(q, NaturalSemiring.INSTANCE, 100_000, false, 3);
        Map<String, Set<Object>> valuesOfA = new HashMap<>();
        Set<Object> valuesOfB = new HashSet<>();
        for (long i = 0; i < 100_000; i++) {
            InputRecord<Long> r = s.record(i);
            assertThat(r).isEqualTo(same.record(i));
            assertThat(r.tuple().arity()).isEqualTo(q.arityOf(r.relation()));
            assertThat(r.payload()).isBetween(1L, 3L);
            if (!r.relation().equals("R4")) {
                valuesOfA
                        .computeIfAbsent(r.relation(), k -> new HashSet<>())
                        .add(r.tuple().get(0));
            }
            if (r.relation().equals("R1")) {
                valuesOfB.add(r.tuple().get(1));
            }
        }
        assertThat(valuesOfA).containsOnlyKeys("R1", "R2", "R3", "R5");
        // A is free: n / 200 = 500 values; B is bound and shared: 8 values.
        assertThat(valuesOfA.get("R1")).hasSize(500).contains("a1", "a500");
        assertThat(valuesOfB).hasSize(SoakStream.SHARED_BOUND_DOMAIN);
        assertThat(new SoakStream<>(q, NaturalSemiring.INSTANCE, 100_000, false, 4).record(0))
                .isNotEqualTo(s.record(0));
    }

    @Test
    void aGrowingDomainOffersTheFirstIOver200ValuesAtInsertI() {
        ConjunctiveQuery q = QueryParser.parse(Ex10Job.QUERY);
        SoakStream<Long> s = new SoakStream<>(q, NaturalSemiring.INSTANCE, 100_000, false, true, 3);
        Set<Object> firstHalf = new HashSet<>();
        Set<Object> all = new HashSet<>();
        for (long i = 0; i < 100_000; i++) {
            InputRecord<Long> r = s.record(i);
            assertThat(r).isEqualTo(s.record(i));
            Object c =
                    r.tuple().get(r.relation().equals("R4") ? 0 : r.relation().equals("R5") ? 1 : 0);
            int rank = Integer.parseInt(c.toString().substring(1));
            assertThat(rank).as("insert %d: %s", i, r).isBetween(1, s.domainAt(i));
            if (!r.relation().equals("R4")) {
                (i < 50_000 ? firstHalf : all).add(r.tuple().get(0));
                all.add(r.tuple().get(0));
            }
        }
        assertThat(s.domainAt(0)).isEqualTo(5);
        assertThat(s.domainAt(1_999)).isEqualTo(10);
        assertThat(s.domainAt(99_999)).isEqualTo(500);
        // The domain at the end is the fixed one (n / 200 = 500 values of A; the last few are offered to
        // a few inserts only); halfway it was half of it.
        assertThat(all.size()).isBetween(480, 500);
        assertThat(firstHalf.size()).isBetween(240, 250);
    }

    @Test
    void aGrowingDomainIsUniformOnly() {
        ConjunctiveQuery q = QueryParser.parse(Ex10Job.QUERY);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> new SoakStream<>(q, NaturalSemiring.INSTANCE, 1_000, true, true, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uniformly");
    }

    @Test
    void constantsAreMatchedByHalfTheValuesAndPayloadsFitTheSemiring() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,'x'), S(A)");
        SoakStream<Double> s = new SoakStream<>(q, MinPlusSemiring.INSTANCE, 10_000, true, 1);
        int matching = 0;
        int r = 0;
        for (long i = 0; i < 10_000; i++) {
            InputRecord<Double> rec = s.record(i);
            assertThat(rec.payload()).isBetween(0.0, 9.0);
            if (rec.relation().equals("R")) {
                r++;
                matching += rec.tuple().get(1).equals("x") ? 1 : 0;
            }
        }
        assertThat(matching).isBetween(r * 4 / 10, r * 6 / 10);
    }

    @Test
    void tenthsAreTheStretchesBetweenMarks() {
        List<SoakReport.Tenth> t = SoakRun.tenths(List.of(
                new SoakRun.Mark(ProgressOperator.START, 256L, 1000L),
                new SoakRun.Mark(ProgressOperator.TENTH, 1024L, 2000L),
                new SoakRun.Mark(ProgressOperator.TENTH, 2048L, 2500L),
                new SoakRun.Mark(ProgressOperator.SNAPSHOT, 2050L, 2600L)));
        assertThat(t)
                .containsExactly(
                        new SoakReport.Tenth(256, 1024, 1000, 2000), new SoakReport.Tenth(1024, 2048, 2000, 2500));
        assertThat(t.get(1).throughput()).isEqualTo(2048.0);
        assertThat(t.get(1).cpuMicrosPerInsert()).isNaN();
        assertThat(t.get(1).threadMicrosPerInsert(ThreadCpu.COMPACTION)).isNaN();
        assertThat(new SoakReport(2050, t, List.of(), 0, 0, 0, true, 0, List.of(), StateReport.NONE).lastToFirst())
                .isEqualTo(2048.0 / 768.0);
    }

    @Test
    void tenthsTakeTheCpuTimeOfEachThreadGroupBetweenTheirSamples() {
        List<SoakReport.Tenth> t = SoakRun.tenths(List.of(
                new SoakRun.Mark(
                        ProgressOperator.START,
                        0L,
                        1000L,
                        new ProgressOperator.Sample(5_000_000L, Map.of("task V", 1_000_000L))),
                new SoakRun.Mark(
                        ProgressOperator.TENTH,
                        1000L,
                        2000L,
                        new ProgressOperator.Sample(
                                9_000_000L, Map.of("task V", 2_000_000L, ThreadCpu.COMPACTION, 500_000L))),
                // The last tenth ends at the snapshot trigger: the process's CPU time only.
                new SoakRun.Mark(
                        ProgressOperator.TENTH, 3000L, 3000L, new ProgressOperator.Sample(15_000_000L, Map.of())),
                new SoakRun.Mark(ProgressOperator.SNAPSHOT, 3000L, 3100L)));

        assertThat(t).hasSize(2);
        assertThat(t.get(0).cpuMicrosPerInsert()).isEqualTo(4.0);
        assertThat(t.get(0).threadMicrosPerInsert("task V")).isEqualTo(1.0);
        assertThat(t.get(0).threadMicrosPerInsert(ThreadCpu.COMPACTION)).isEqualTo(0.5);
        assertThat(t.get(0).threadMicrosPerInsert(ThreadCpu.FLUSH)).isZero();
        assertThat(t.get(1).cpuMicrosPerInsert()).isEqualTo(3.0);
        assertThat(t.get(1).threadNanos()).isEmpty();
        assertThat(t.get(1).threadMicrosPerInsert(ThreadCpu.COMPACTION)).isNaN();
    }

    @Test
    void aWindowedStreamHasItsEventTimeLastAndHappensInTheClocksOrder() {
        ConjunctiveQuery q = QueryParser.parse("Q(W,A) :- bid(A,P,T,W,E), auction(A,S,U,W,E)");
        EventClock clock = new EventClock(10_000, 2, 1_000, 50);
        SoakStream<Long> s =
                new SoakStream<>(q, NaturalSemiring.INSTANCE, 10_000, false, SoakStream.Domain.FIXED, clock, 3);
        for (long i = 0; i < 10_000; i++) {
            InputRecord<Long> r = s.record(i);
            long j = clock.logical(i);
            assertThat(r).isEqualTo(s.recordAt(j));
            assertThat(r.tuple().arity()).isEqualTo(q.arityOf(r.relation()) - 2);
            assertThat((Long) r.tuple().get(2)).isBetween(clock.baseMillis(j) - 50, clock.baseMillis(j));
        }
    }

    @Test
    void aSlidingDomainDrawsTheNewestValuesOfTheGrowingOne() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B)");
        long n = 10_000_000;
        SoakStream<Long> s =
                new SoakStream<>(q, NaturalSemiring.INSTANCE, n, false, SoakStream.Domain.SLIDING, null, 5);
        Set<Object> late = new HashSet<>();
        for (long i = n - 100_000; i < n; i++) {
            int rank = Integer.parseInt(s.record(i).tuple().get(0).toString().substring(1));
            int top = s.domainAt(i);
            assertThat(rank).as("insert %d", i).isBetween(top - SoakStream.LIVE_VALUES + 1, top);
            late.add(rank);
        }
        // 100,000 draws from the newest 10,000 values (which move by 500 meanwhile) take nearly all of them.
        assertThat(late.size()).isBetween(9_900, 10_500);
        int early = Integer.parseInt(s.record(999).tuple().get(0).toString().substring(1));
        assertThat(early).isBetween(1, s.domainAt(999));
    }
}
