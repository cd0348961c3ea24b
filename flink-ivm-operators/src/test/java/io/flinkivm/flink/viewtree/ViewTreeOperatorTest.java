package io.flinkivm.flink.viewtree;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.mark;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.partition.HyperCube;
import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.DeltaTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A whole view tree in one keyed operator, in a harness: deltas as the ingest makes them in, root
 * updates out; checked against the naive evaluator over the tree's subquery. Natural numbers.
 */
class ViewTreeOperatorTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    /** Ex. 10: tree 0 is V[A] over R1, R2 (joined at V[A,B,D]) and R3 (joined at V[A,B]). */
    static final ViewTreePlan EX10 = (ViewTreePlan)
            Planner.plan(QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)"), K);
    /** An aggregate: one tree with an empty root schema, keyed by its top variable B; R reaches it through V[B]. */
    static final ViewTreePlan COUNT = (ViewTreePlan) Planner.plan(QueryParser.parse("Q() :- R(A,B), S(B), T(C)"), K);

    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Long>, RootUpdate<Long>> harness(
            ViewTreePlan plan, int tree, Shares sinkShares, Backend backend, OperatorSubtaskState restored)
            throws Exception {
        return harness(plan, tree, sinkShares, 1, backend, restored);
    }

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Long>, RootUpdate<Long>> harness(
            ViewTreePlan plan, int tree, Shares sinkShares, int batch, Backend backend, OperatorSubtaskState restored)
            throws Exception {
        return harness(plan, tree, sinkShares, batch, StateTtl.NONE, backend, restored);
    }

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Long>, RootUpdate<Long>> harness(
            ViewTreePlan plan,
            int tree,
            Shares sinkShares,
            int batch,
            StateTtl ttl,
            Backend backend,
            OperatorSubtaskState restored)
            throws Exception {
        int length = ViewTreeOperator.keyLength(plan.viewTrees().get(tree));
        int[] prefix = new int[length];
        for (int i = 0; i < length; i++) {
            prefix[i] = i;
        }
        KeySelector<Delta<Long>, Tuple> keys =
                d -> d.partition() != null ? d.partition() : d.key().project(prefix);
        return Harnesses.keyed(
                () -> new ViewTreeOperator<>(
                        plan,
                        K,
                        tree,
                        PayloadTypes.of(K),
                        DeltaTypeInfo.of(K),
                        RootUpdateTypeInfo.of(K),
                        DEAD,
                        sinkShares,
                        4,
                        128,
                        batch,
                        false,
                        ttl,
                        null),
                keys,
                backend,
                restored);
    }

    /** The deltas the ingest sends to tree {@code tree} for one insert (self-joins: one per atom). */
    static List<Delta<Long>> deltas(
            ViewTreePlan plan, int tree, String relation, Tuple tuple, long payload, long epoch) {
        AtomRouter router = new CompiledPlan(plan).router();
        List<Delta<Long>> out = new ArrayList<>();
        router.route(router.checkedRelation(relation, tuple.arity()), tuple, payload, (a, key, p) -> {
            if (plan.atomRoute(a).tree() == tree) {
                out.add(new Delta<>(epoch, a, key, p, Epochs.insertId(0, 1), key.arity() == 0 ? Tuple.of(0) : null));
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<Tuple, Long> sums(Outputs outputs) {
        Map<Tuple, Long> out = new HashMap<>();
        for (Object v : outputs.values()) {
            RootUpdate<Long> u = (RootUpdate<Long>) v;
            out.merge(u.tuple(), u.payload(), Long::sum);
        }
        return out;
    }

    /**
     * Random inserts into R1, R2 and R3 over a small domain, in epochs of ten; the deltas sent for each
     * root tuple add up to V[A] by the naive evaluator, straight through and with a snapshot and restore
     * in the middle, and nothing is dead-lettered.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void rootUpdatesFollowTheTreesRootView(Backend backend) throws Exception {
        Random random = new Random(11);
        KDatabase<Long> db = new KDatabase<>(K);
        List<Step<Delta<Long>>> steps = new ArrayList<>();
        steps.add(mark(0));
        String[] relations = {"R1", "R2", "R3"};
        for (int n = 1; n <= 300; n++) {
            String r = relations[random.nextInt(3)];
            int arity = r.equals("R3") ? 3 : 4;
            Object[] values = new Object[arity];
            for (int i = 0; i < arity; i++) {
                values[i] = (long) random.nextInt(i < 2 ? 3 : 2);
            }
            Tuple t = Tuple.of(values);
            long payload = 1 + random.nextInt(3);
            db.insert(r, t, payload);
            long epoch = 1 + (n - 1) / 10;
            for (Delta<Long> d : deltas(EX10, 0, r, t, payload, epoch)) {
                steps.add(element(d));
            }
            if (n % 10 == 0) {
                steps.add(mark(epoch));
            }
        }
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(EX10, 0, null, backend, restored),
                Harnesses::play,
                DEAD,
                steps.subList(0, steps.size() / 2),
                steps.subList(steps.size() / 2, steps.size()));
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        Map<Tuple, Long> expected = NaiveEvaluator.evaluate(
                QueryParser.parse("V(A) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G)"), K, db.relations());
        assertThat(expected).isNotEmpty();
        assertThat(sums(runs[0])).isEqualTo(expected);
        assertThat(runs[0].side()).isEmpty();
    }

    /**
     * Under a state TTL of 100 ms (Flink's, on the harness's TTL clock), the view entries written at 0
     * have expired at 150: R3(1,1,2) finds no R1 and R2 partners and sends nothing, so the root updates
     * add up to the first phase's V[A] and the second's, each alone (without the TTL: V[A](1) = 2).
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void expiredViewEntriesNoLongerJoin(Backend backend) throws Exception {
        List<Object[]> first = List.of(
                new Object[] {"R1", Tuple.of(1L, 1L, 1L, 1L)},
                new Object[] {"R2", Tuple.of(1L, 1L, 1L, 5L)},
                new Object[] {"R3", Tuple.of(1L, 1L, 1L)},
                new Object[] {"R1", Tuple.of(2L, 1L, 1L, 1L)});
        List<Object[]> second =
                List.of(new Object[] {"R3", Tuple.of(1L, 1L, 2L)}, new Object[] {"R2", Tuple.of(2L, 1L, 1L, 1L)});
        try (var h = harness(EX10, 0, null, 1, new StateTtl(100), backend, null)) {
            h.setStateTtlProcessingTime(0);
            h.processWatermark(0);
            KDatabase<Long> one = new KDatabase<>(K);
            for (Object[] r : first) {
                one.insert((String) r[0], (Tuple) r[1], 1L);
                for (Delta<Long> d : deltas(EX10, 0, (String) r[0], (Tuple) r[1], 1L, 1)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            h.processWatermark(Harnesses.major(1));
            h.setStateTtlProcessingTime(150);
            KDatabase<Long> two = new KDatabase<>(K);
            KDatabase<Long> all = new KDatabase<>(K);
            for (Object[] r : first) {
                all.insert((String) r[0], (Tuple) r[1], 1L);
            }
            for (Object[] r : second) {
                two.insert((String) r[0], (Tuple) r[1], 1L);
                all.insert((String) r[0], (Tuple) r[1], 1L);
                for (Delta<Long> d : deltas(EX10, 0, (String) r[0], (Tuple) r[1], 1L, 2)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            h.processWatermark(Harnesses.major(2));
            ConjunctiveQuery v = QueryParser.parse("V(A) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G)");
            Map<Tuple, Long> expected = new HashMap<>(NaiveEvaluator.evaluate(v, K, one.relations()));
            NaiveEvaluator.evaluate(v, K, two.relations()).forEach((t, p) -> expected.merge(t, p, Long::sum));
            assertThat(expected).isEqualTo(Map.of(Tuple.of(1L), 1L));
            assertThat(NaiveEvaluator.evaluate(v, K, all.relations())).isEqualTo(Map.of(Tuple.of(1L), 2L));
            Outputs out = Harnesses.outputs(h, DEAD);
            assertThat(sums(out)).isEqualTo(expected);
            assertThat(out.side()).isEmpty();
        }
    }

    /**
     * With a batch, each root tuple's deltas of an epoch go out once, added up; the batch goes out when
     * the watermark passes its epoch, when it is full, and before a checkpoint barrier.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aBatchSendsEachRootTuplesLastUpdateOnce(Backend backend) throws Exception {
        try (var h = harness(EX10, 1, null, 3, backend, null)) {
            h.processWatermark(0);
            long[][] inserts = {{1, 2, 9, 4}, {1, 2, 8, 1}, {2, 2, 9, 1}, {1, 2, 7, 2}};
            for (long[] i : inserts) {
                for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(i[0], i[1], i[2]), i[3], 1)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .as("two root tuples, below the batch size")
                    .isEmpty();
            h.processWatermark(1);
            assertThat(Harnesses.outputs(h, null).values())
                    .as("in no particular order")
                    .containsExactlyInAnyOrder(
                            RootUpdate.of(1, 1, Tuple.of(1L, 2L), 7L), RootUpdate.of(1, 1, Tuple.of(2L, 2L), 1L));
            for (long a = 3; a <= 5; a++) {
                for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(a, 1L, 1L), 1, 2)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .as("a full batch goes out")
                    .hasSize(5);
            for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(6L, 1L, 1L), 1, 2)) {
                h.processElement(new StreamRecord<>(d));
            }
            h.prepareSnapshotPreBarrier(1);
            assertThat(Harnesses.outputs(h, null).values())
                    .as("before a barrier")
                    .hasSize(6);
        }
    }

    /**
     * A delta of a later major epoch than the lowest open one ({@link Epochs}) waits for the watermark;
     * its update keeps its epoch. A delta of a later minor epoch of the open major does not wait.
     */
    @Test
    void aDeltaOfALaterMajorEpochWaitsForTheWatermark() throws Exception {
        long one = Harnesses.major(1);
        long two = Harnesses.major(2);
        long three = Harnesses.major(3);
        try (var h = harness(EX10, 1, null, Backend.HEAP, null)) {
            h.processWatermark(one);
            // R5(A,C,H): tree 1's root view V[A,C], straight from the atom.
            for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(1L, 2L, 9L), 4, three)) {
                h.processElement(new StreamRecord<>(d));
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .as("epoch 3 while 2 is open")
                    .isEmpty();
            for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(1L, 2L, 8L), 1, two)) {
                h.processElement(new StreamRecord<>(d));
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .containsExactly(RootUpdate.of(two, 1, Tuple.of(1L, 2L), 1L));
            long minorAhead = one + 5; // a later minor of the open major (2)
            for (Delta<Long> d : deltas(EX10, 1, "R5", Tuple.of(1L, 3L, 8L), 2, minorAhead)) {
                h.processElement(new StreamRecord<>(d));
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .as("a later minor of the open major is applied at once")
                    .hasSize(2);
            h.processWatermark(two);
            assertThat(Harnesses.outputs(h, null).main())
                    .containsExactly(
                            new Watermark(one),
                            new StreamRecord<>(RootUpdate.of(two, 1, Tuple.of(1L, 2L), 1L)),
                            new StreamRecord<>(RootUpdate.of(minorAhead, 1, Tuple.of(1L, 3L), 2L)),
                            new StreamRecord<>(RootUpdate.of(three, 1, Tuple.of(1L, 2L), 4L)),
                            new Watermark(two));
        }
    }

    /**
     * An aggregate's tree sums each epoch's root deltas and sends the partial sum when the epoch ends,
     * to every sink cell; R's deltas go through the view V[B] with S, T's straight to the root (under
     * the key the ingest chose for them).
     */
    @Test
    void anAggregateSendsOnePartialPerEpoch() throws Exception {
        ViewTree tree = COUNT.viewTrees().get(0);
        assertThat(tree.schema()).isEmpty();
        Shares cells = HyperCube.shares(List.of(), List.of(List.of()), 4);
        try (var h = harness(COUNT, 0, cells, Backend.HEAP, null)) {
            h.processWatermark(0);
            for (Object[] insert : new Object[][] {
                {"R", Tuple.of(1L, 7L), 2L},
                {"S", Tuple.of(7L), 3L},
                {"R", Tuple.of(2L, 7L), 1L},
                {"S", Tuple.of(8L), 5L}
            }) {
                for (Delta<Long> d : deltas(COUNT, 0, (String) insert[0], (Tuple) insert[1], (Long) insert[2], 1)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            assertThat(Harnesses.outputs(h, null).values())
                    .as("nothing before the epoch ends")
                    .isEmpty();
            h.processWatermark(1);
            List<Object> out = Harnesses.outputs(h, null).values();
            // (2 + 1) * 3 at B = 7; one cell, so one partial.
            assertThat(out)
                    .containsExactly(new RootUpdate<>(
                            1, 0, Tuple.EMPTY, 9L, out.isEmpty() ? null : ((RootUpdate<?>) out.get(0)).cell()));
            assertThat(((RootUpdate<?>) out.get(0)).cell()).isNotNull();
        }
        assertThat(COUNT.viewTrees()).as("T(C) is a tree of its own").hasSize(2);
    }

    /** With HyperCube cells, a root update goes to every cell that agrees with it. */
    @Test
    void rootUpdatesReachTheCellsThatAgreeWithThem() throws Exception {
        Shares shares = HyperCube.shares(List.of("A", "C"), List.of(List.of("A"), List.of("A", "C"), List.of("C")), 4);
        assertThat(shares.describe()).isEqualTo("A=2 C=2");
        try (var h = harness(EX10, 0, shares, Backend.HEAP, null)) {
            h.processWatermark(0);
            // R3(A,B,G), R1(A,B,D,E) and R2(A,B,D,F) at A=1: V[A](1) becomes 1 and goes to both C-cells of A=1.
            for (Object[] insert : new Object[][] {
                {"R3", Tuple.of(1L, 1L, 1L)}, {"R1", Tuple.of(1L, 1L, 1L, 1L)}, {"R2", Tuple.of(1L, 1L, 1L, 1L)}
            }) {
                for (Delta<Long> d : deltas(EX10, 0, (String) insert[0], (Tuple) insert[1], 1, 1)) {
                    h.processElement(new StreamRecord<>(d));
                }
            }
            List<Object> out = Harnesses.outputs(h, null).values();
            assertThat(out).hasSize(2);
            assertThat(out)
                    .allSatisfy(u -> assertThat(((RootUpdate<?>) u).tuple()).isEqualTo(Tuple.of(1L)));
            assertThat(out.stream().map(u -> ((RootUpdate<?>) u).cell()).distinct())
                    .hasSize(2);
        }
    }

    /** An overflowing delta is dead-lettered with where it came from, and leaves every view as it was. */
    @Test
    void anOverflowIsDeadLetteredAndChangesNothing() throws Exception {
        try (var h = harness(EX10, 0, null, Backend.HEAP, null)) {
            h.processWatermark(0);
            List<Delta<Long>> in = new ArrayList<>();
            in.addAll(deltas(EX10, 0, "R3", Tuple.of(1L, 1L, 1L), 2, 1));
            in.addAll(deltas(EX10, 0, "R1", Tuple.of(1L, 1L, 1L, 1L), 1, 1));
            in.addAll(deltas(EX10, 0, "R2", Tuple.of(1L, 1L, 1L, 1L), 1, 1)); // V[A](1) = 2
            in.addAll(deltas(EX10, 0, "R1", Tuple.of(1L, 1L, 1L, 1L), Long.MAX_VALUE, 1)); // R1 overflows
            in.addAll(deltas(EX10, 0, "R2", Tuple.of(1L, 1L, 1L, 2L), 1, 1)); // V[A](1) = 2 + 1 * 1 * 2
            for (Delta<Long> d : in) {
                h.processElement(new StreamRecord<>(d));
            }
            Outputs out = Harnesses.outputs(h, DEAD);
            assertThat(sums(out)).isEqualTo(Map.of(Tuple.of(1L), 4L));
            assertThat(out.side()).hasSize(1);
            @SuppressWarnings("unchecked")
            DeadLetter d = ((StreamRecord<DeadLetter>) out.side().get(0)).getValue();
            assertThat(d.origin()).isEqualTo("record 1 of ingest subtask 0");
            assertThat(d.reason()).startsWith("update of V[A] (root of tree 0) failed: natural-number overflow");
        }
    }

    /** A window join: one tree keyed by its root tuple (W, A), with views over R's and S's window ends. */
    static final ConjunctiveQuery WINDOW_JOIN = QueryParser.parse("Q(W,A) :- R(A,T,W,E), S(A,U,W,E)");

    static final ViewTreePlan WINDOWED = (ViewTreePlan) Planner.plan(WINDOW_JOIN, K);
    static final Windows TUMBLES = Windows.NONE
            .with(WindowAssignment.of("R", 1, WindowSpec.tumble(Duration.ofMillis(10))))
            .with(WindowAssignment.of("S", 1, WindowSpec.tumble(Duration.ofMillis(10))));

    static KeyedTwoInputStreamOperatorTestHarness<Tuple, Delta<Long>, EpochEnd, RootUpdate<Long>> windowed(
            Backend backend, OperatorSubtaskState restored) throws Exception {
        ViewTree t = WINDOWED.viewTrees().get(0);
        int w = t.schema().indexOf("W");
        int length = ViewTreeOperator.keyLength(t);
        int[] prefix = new int[length];
        for (int i = 0; i < length; i++) {
            prefix[i] = i;
        }
        var h = new KeyedTwoInputStreamOperatorTestHarness<Tuple, Delta<Long>, EpochEnd, RootUpdate<Long>>(
                new ViewTreeOperator<>(
                        WINDOWED,
                        K,
                        0,
                        PayloadTypes.of(K),
                        DeltaTypeInfo.of(K),
                        RootUpdateTypeInfo.of(K),
                        DEAD,
                        null,
                        4,
                        128,
                        1,
                        false,
                        StateTtl.NONE,
                        WindowClose.of(WINDOW_JOIN, TUMBLES, "W", w)),
                d -> d.key().project(prefix),
                x -> Tuple.EMPTY,
                TupleTypeInfo.INSTANCE,
                Harnesses.MAX_PARALLELISM,
                1,
                0);
        return Harnesses.open(h, backend, restored);
    }

    /** Keys with an entry in any of the tree's views. */
    static long viewKeys(KeyedTwoInputStreamOperatorTestHarness<Tuple, ?, ?, ?> h) throws Exception {
        long n = 0;
        for (var node : WINDOWED.statefulNodes()) {
            try (var keys = ((AbstractStreamOperator<?>) h.getOperator())
                    .getKeyedStateBackend()
                    .getKeys(StateNames.view(node.id()), VoidNamespace.INSTANCE)) {
                n += keys.count();
            }
        }
        return n;
    }

    /** Inserts {@code rows} ({relation, A, T, W}) into epoch {@code epoch}, window [W, W + 10). */
    static void insert(
            KeyedTwoInputStreamOperatorTestHarness<Tuple, Delta<Long>, EpochEnd, RootUpdate<Long>> h,
            KDatabase<Long> db,
            long epoch,
            Object[]... rows)
            throws Exception {
        for (Object[] r : rows) {
            long w = (Long) r[3];
            Tuple tuple = Tuple.of(r[1], r[2], w, w + 10);
            db.insert((String) r[0], tuple, 1L);
            for (Delta<Long> d : deltas(WINDOWED, 0, (String) r[0], tuple, 1L, Harnesses.major(epoch))) {
                h.processElement1(new StreamRecord<>(d));
            }
        }
    }

    /** Ends epoch {@code epoch} at event time {@code time}. */
    static void end(
            KeyedTwoInputStreamOperatorTestHarness<Tuple, Delta<Long>, EpochEnd, RootUpdate<Long>> h,
            long epoch,
            long time)
            throws Exception {
        Harnesses.playTwo(
                h,
                List.<Step<Delta<Long>>>of(
                        Harnesses.second(new EpochEnd(0, 0, Harnesses.major(epoch), 0, true, true, time)),
                        mark(Harnesses.major(epoch))));
    }

    /**
     * A tree keyed by the window: the views of window [0, 10) are gone once a cut's event time reaches
     * 9, and their timers with them, also after a restore from a checkpoint taken while both windows
     * were open; the other window's views still join. The root updates add up to the naive evaluator's
     * result.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aWindowsViewsAreDroppedWhenItCloses(Backend backend) throws Exception {
        KDatabase<Long> db = new KDatabase<>(K);
        Map<Tuple, Long> sums = new HashMap<>();
        OperatorSubtaskState checkpoint;
        try (var h = windowed(backend, null)) {
            Harnesses.playTwo(h, List.of(mark(Harnesses.major(0))));
            insert(
                    h,
                    db,
                    1,
                    new Object[] {"R", 1L, 2L, 0L},
                    new Object[] {"S", 1L, 3L, 0L},
                    new Object[] {"R", 1L, 12L, 10L},
                    new Object[] {"R", 2L, 14L, 10L});
            end(h, 1, 5);
            assertThat(h.numEventTimeTimers()).as("keys (0,1), (10,1), (10,2)").isEqualTo(3);
            sums.putAll(sums(Harnesses.outputs(h, DEAD)));
            checkpoint = h.snapshot(1, 100);
        }
        try (var h = windowed(backend, checkpoint)) {
            long open = viewKeys(h);
            assertThat(open).isPositive();
            end(h, 2, 9);
            assertThat(h.numEventTimeTimers()).isEqualTo(2);
            assertThat(viewKeys(h)).isLessThan(open).isPositive();
            insert(h, db, 3, new Object[] {"S", 1L, 15L, 10L}, new Object[] {"S", 2L, 11L, 10L});
            end(h, 3, 19);
            assertThat(viewKeys(h)).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            Harnesses.outputs(h, DEAD).values().forEach(v -> {
                @SuppressWarnings("unchecked")
                RootUpdate<Long> u = (RootUpdate<Long>) v;
                sums.merge(u.tuple(), u.payload(), Long::sum);
            });
            assertThat(h.getSideOutput(DEAD)).isNull();
        }
        Map<Tuple, Long> expected = NaiveEvaluator.evaluate(WINDOW_JOIN, K, db.relations());
        Map<Tuple, Long> byRoot = new HashMap<>();
        List<String> schema = WINDOWED.viewTrees().get(0).schema();
        expected.forEach((t, p) -> {
            Object[] values = new Object[2];
            values[schema.indexOf("W")] = t.get(0);
            values[schema.indexOf("A")] = t.get(1);
            byRoot.put(Tuple.of(values), p);
        });
        assertThat(expected).hasSize(3);
        assertThat(sums).isEqualTo(byRoot);
    }
}
