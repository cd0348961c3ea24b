package io.flinkivm.core.engine.maps;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.DeltaJoinEngine;
import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.PHierarchicalEngine;
import io.flinkivm.core.engine.maps.StateCounts.Role;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.Planner.Strategy;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The state operations the engines count: a worked example counted by hand, and the work per insert
 * on a growing stream, flat for the p-hierarchical plan and growing for the fallback.
 */
class StateCountsTest {
    private static final NaturalSemiring N = NaturalSemiring.INSTANCE;
    private static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";

    private static MaintenancePlan plan(Strategy strategy) {
        return Planner.plan(QueryParser.parse(EX10), N, strategy);
    }

    private static PHierarchicalPlan acyclic() {
        return (PHierarchicalPlan) plan(Strategy.AUTO);
    }

    private static FallbackPlan fallback() {
        return Planner.fallback(QueryParser.parse(EX10), N);
    }

    /**
     * Ex. 10's plan: tree 0 joins R1 and R2 at V[A,B,D], that with R3 at V[A,B], up to root V[A];
     * R5 projects to root V[A,C]; R4(C) is its own root; the Boolean join is V[A,C] over V[A] and R4(C).
     */
    @Test
    void workedExampleOnExample10() {
        assertThat(plan(Strategy.AUTO).kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        StateCounts c = new StateCounts();
        PHierarchicalEngine<Long> e = new PHierarchicalEngine<>(acyclic(), N, c);

        // Root R4(1): its record is read (absent) and added; it crosses the border and is live at once
        // (no join children; its key to V[A,C] is the tuple itself, so no live list), and finds no
        // V[A,C] tuple waiting for it (read).
        e.insert("R4", Tuple.of(1L), 1L);
        assertCounts(c, 0, 0, 1, 1, 1, 0);
        // R1: the new key (1,1,1) at V[A,B,D] (read, add); R2's slot is empty, so nothing goes up.
        e.insert("R1", Tuple.of(1L, 1L, 1L, 1L), 1L);
        assertCounts(c, 1, 1, 1, 1, 1, 0);
        // R2: key (1,1,1) at V[A,B,D] (read); the product goes up to the new key (1,1) at V[A,B] (read, add).
        e.insert("R2", Tuple.of(1L, 1L, 1L, 1L), 1L);
        assertCounts(c, 3, 2, 1, 1, 1, 0);
        // R3: key (1,1) at V[A,B] (read), root record V[A](1) (read, add); it is live at once and finds
        // nothing waiting (read).
        e.insert("R3", Tuple.of(1L, 1L, 1L), 1L);
        assertCounts(c, 4, 2, 2, 2, 2, 0);
        // R5: root record V[A,C](1,1) (read, add); it finds live partners in V[A] and R4 (their records,
        // two reads) and is live: at the top of the join tree that is all (enumeration scans the root).
        e.insert("R5", Tuple.of(1L, 1L, 1L), 1L);
        assertCounts(c, 4, 2, 5, 3, 2, 0);
        // A repeated R5 tuple only updates its root payload, in its record: it does not cross again.
        e.insert("R5", Tuple.of(1L, 1L, 1L), 2L);
        assertCounts(c, 4, 2, 6, 3, 2, 0);
        assertThat(c.reads()).isEqualTo(12);
        assertThat(c.writes()).isEqualTo(5);
        assertThat(c.operations()).isEqualTo(17);
        assertThat(c.operations(Role.DELTA_JOIN) + c.operations(Role.RESULT)).isZero();
        assertThat(e.lookup(Tuple.of(1L, 1L))).isEqualTo(3L);
    }

    private static void assertCounts(
            StateCounts c,
            long joinReads,
            long joinWrites,
            long rootReads,
            long rootWrites,
            long booleanReads,
            long booleanWrites) {
        assertThat(new long[] {
                    c.reads(Role.JOIN_VIEW),
                    c.writes(Role.JOIN_VIEW),
                    c.reads(Role.ROOT_VIEW),
                    c.writes(Role.ROOT_VIEW),
                    c.reads(Role.BOOLEAN_JOIN),
                    c.writes(Role.BOOLEAN_JOIN)
                })
                .as("join-view, root-view and Boolean-join reads and writes: %s", c)
                .containsExactly(joinReads, joinWrites, rootReads, rootWrites, booleanReads, booleanWrites);
    }

    @Test
    void snapshotIsACopy() {
        StateCounts c = new StateCounts();
        DeltaJoinEngine<Long> e = new DeltaJoinEngine<>(fallback(), N, c);
        e.insert("R4", Tuple.of(1L), 1L);
        StateCounts before = c.snapshot();
        e.insert("R4", Tuple.of(2L), 1L);
        assertThat(c.operations()).isGreaterThan(before.operations());
        assertThat(before.operations(Role.DELTA_JOIN)).isPositive();
        assertThat(before.operations(Role.JOIN_VIEW) + before.operations(Role.ROOT_VIEW))
                .isZero();
    }

    /**
     * Ex. 10 over a stream whose key domain grows with it (A, B, C drawn from ⌈√i⌉ values at insert i),
     * so that the joins' fan-out stays the same while the state grows: state operations per insert in
     * each window, from a tenth of a checkpoint to it.
     */
    private static double[] opsPerInsert(IvmEngine<Long> engine, StateCounts counts, int[] checkpoints) {
        Random r = new Random(7);
        double[] rates = new double[checkpoints.length];
        long opsAtStart = 0;
        int windowStart = 0;
        int k = 0;
        for (int i = 1; k < checkpoints.length; i++) {
            if (i - 1 == checkpoints[k] / 10) {
                opsAtStart = counts.operations();
                windowStart = i - 1;
            }
            long keys = (long) Math.ceil(Math.sqrt(i));
            long a = r.nextLong(keys);
            long b = r.nextLong(keys);
            long c = r.nextLong(keys);
            long d = r.nextLong(2);
            long x = r.nextLong(4);
            long payload = 1 + r.nextLong(3);
            switch (r.nextInt(5)) {
                case 0 -> engine.insert("R1", Tuple.of(a, b, d, x), payload);
                case 1 -> engine.insert("R2", Tuple.of(a, b, d, x), payload);
                case 2 -> engine.insert("R3", Tuple.of(a, b, x), payload);
                case 3 -> engine.insert("R4", Tuple.of(c), payload);
                default -> engine.insert("R5", Tuple.of(a, c, x), payload);
            }
            if (i == checkpoints[k]) {
                rates[k] = (double) (counts.operations() - opsAtStart) / (i - windowStart);
                k++;
            }
        }
        return rates;
    }

    @Test
    void pHierarchicalWorkPerInsertStaysFlatAsTheStreamGrows() {
        StateCounts counts = new StateCounts();
        PHierarchicalEngine<Long> e = new PHierarchicalEngine<>(acyclic(), N, counts);
        int[] checkpoints = {1_000, 10_000, 100_000};
        double[] rates = opsPerInsert(e, counts, checkpoints);
        // Per insert: at most two join views (a read and an add each), a root view (a read and a write)
        // and the Boolean join's amortized share; measured: 3.4 in every window.
        for (int k = 0; k < rates.length; k++) {
            assertThat(rates[k])
                    .as("state operations per insert up to %d inserts", checkpoints[k])
                    .isBetween(1.0, 10.0);
        }
        assertThat(rates[2] / rates[0])
                .as("growth of the work per insert over 100x the stream: %s", Arrays.toString(rates))
                .isLessThan(1.25);
        assertThat(counts.reads(Role.JOIN_VIEW) + counts.writes(Role.ROOT_VIEW))
                .as("deltas reach views")
                .isPositive();
        assertThat(e.borderCrossings()).isPositive();
    }

    @Test
    void fallbackWorkPerInsertGrowsWithTheStream() {
        StateCounts counts = new StateCounts();
        DeltaJoinEngine<Long> e = new DeltaJoinEngine<>(fallback(), N, counts);
        int[] checkpoints = {100, 1_000, 10_000};
        double[] rates = opsPerInsert(e, counts, checkpoints);
        // The delta joins walk every partner of the inserted tuple: the fan-out through A and C grows
        // with the number of tuples (measured: 9, 32 and 266 per insert).
        assertThat(rates[2] / rates[0])
                .as("growth of the work per insert over 100x the stream: %s", Arrays.toString(rates))
                .isGreaterThan(8.0);
    }

    @Test
    void countingEnginesComputeTheSameResults() {
        for (Strategy s : List.of(Strategy.AUTO, Strategy.FALLBACK)) {
            IvmEngine<Long> plain = Engines.create(plan(s), N);
            IvmEngine<Long> counting = Engines.create(plan(s), N, new StateCounts());
            Random r = new Random(3);
            for (int i = 0; i < 1_000; i++) {
                List<Long> values = new ArrayList<>();
                String rel = "R" + (1 + r.nextInt(5));
                int arity = switch (rel) {
                    case "R1", "R2" -> 4;
                    case "R3", "R5" -> 3;
                    default -> 1;
                };
                for (int v = 0; v < arity; v++) {
                    values.add(r.nextLong(4));
                }
                Tuple t = Tuple.of(values.toArray());
                plain.insert(rel, t, 1L);
                counting.insert(rel, t, 1L);
            }
            assertThat(result(counting)).isEqualTo(result(plain)).isNotEmpty();
        }
    }

    private static Map<Tuple, Long> result(IvmEngine<Long> e) {
        Map<Tuple, Long> out = new HashMap<>();
        e.enumerate().forEachRemaining(t -> out.put(t.tuple(), t.payload()));
        return out;
    }
}
