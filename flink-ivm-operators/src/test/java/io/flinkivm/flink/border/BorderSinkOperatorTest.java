package io.flinkivm.flink.border;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.second;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.partition.CellRouter;
import io.flinkivm.core.partition.HyperCube;
import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.Snapshots;
import io.flinkivm.flink.common.CellLayout;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The border sink in a harness: root updates (input 1) and the ingest subtasks' epoch ends (input 2)
 * in, snapshots (rows with recovered payloads, an end marker with the cut) out when the watermark
 * passes an ended epoch. Natural numbers throughout.
 */
class BorderSinkOperatorTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    /** Trees V[A] (from R, S) and V[A,C] (from T); the sink is keyed by A, which both root schemas have. */
    static final ViewTreePlan SHARED =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)"), K);
    /** A cross product: no shared variable, the sink is spread over HyperCube cells. */
    static final ViewTreePlan CROSS = (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,C) :- R(A), S(C)"), K);
    /** An aggregate tree (partial sums) next to T(C). */
    static final ViewTreePlan COUNT = (ViewTreePlan) Planner.plan(QueryParser.parse("Q(C) :- R(A,B), S(B), T(C)"), K);
    /** The triangle, cyclic: one view tree per atom, one bag {A,B,C} above the border. */
    static final ViewTreePlan TRIANGLE =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)"), K);

    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    /** A count, an integer SUM and a MIN: payloads the sink keeps as longs and adds to in place. */
    static final ProductSemiring P = ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MIN));
    /** Trees V[A] (from R) and V[A,C] (from T), product payloads; keyed by A. */
    static final ViewTreePlan PRODUCTS = (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,C) :- R(A), T(A,C)"), P);

    static KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>> harness(
            ViewTreePlan plan, boolean changelog, Backend backend, OperatorSubtaskState restored) throws Exception {
        return harness(plan, K, changelog, backend, restored);
    }

    static <T> KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> harness(
            ViewTreePlan plan, Semiring<T> k, boolean changelog, Backend backend, OperatorSubtaskState restored)
            throws Exception {
        KeySelector<RootUpdate<T>, Tuple> keys =
                plan == SHARED || plan == PRODUCTS ? u -> u.tuple().project(new int[] {0}) : RootUpdate::cell;
        return Harnesses.keyedTwo(
                () -> new BorderSinkOperator<>(
                        plan,
                        new RootSinkSpec<>(
                                k,
                                PayloadTypes.of(k),
                                RootUpdateTypeInfo.of(k),
                                DEAD,
                                changelog,
                                false,
                                false,
                                StateTtl.NONE,
                                null,
                                false)),
                keys,
                backend,
                restored);
    }

    /** A watermark at the end of epoch {@code k} ({@link Harnesses#major}). */
    private static <IN> Step<IN> mark(long k) {
        return Harnesses.mark(Harnesses.major(k));
    }

    /** A delta of V[A] at (a), in epoch {@code epoch} ({@link Harnesses#major}). */
    private static RootUpdate<Long> v0(long epoch, long a, long delta) {
        return RootUpdate.of(Harnesses.major(epoch), 0, Tuple.of(a), delta);
    }

    /** A delta of V[A,C] at (a, c). */
    private static RootUpdate<Long> v1(long epoch, long a, long c, long delta) {
        return RootUpdate.of(Harnesses.major(epoch), 1, Tuple.of(a, c), delta);
    }

    private static EpochEnd end(int subtask, long epoch, long inserts) {
        return new EpochEnd(subtask, 0, Harnesses.major(epoch), inserts, true, true);
    }

    private static Map<Tuple, Long> rows(Object... tupleAndPayload) {
        Map<Tuple, Long> out = new HashMap<>();
        for (int i = 0; i < tupleAndPayload.length; i += 2) {
            out.put((Tuple) tupleAndPayload[i], (Long) tupleAndPayload[i + 1]);
        }
        return out;
    }

    private static List<ResultRecord<Long>> results(Outputs outputs) {
        return results(outputs, K);
    }

    /** The results of a sink of {@code k}'s payloads. */
    @SuppressWarnings("unchecked")
    private static <T> List<ResultRecord<T>> results(Outputs outputs, Semiring<T> k) {
        List<ResultRecord<T>> out = new ArrayList<>();
        for (Object v : outputs.values()) {
            out.add((ResultRecord<T>) v);
        }
        return out;
    }

    /**
     * Two ingest subtasks: the first ends epochs 1 and 2, the second epoch 1 only, then epoch 3 (it
     * skipped 2). A snapshot is emitted per ended epoch the watermark passes, with its cut; an update
     * of epoch 3 that arrives while epoch 2 is open waits; a cut that adds nothing is not emitted again.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void emitsTheSnapshotOfEachCutWithItsIdAndCut(Backend backend) throws Exception {
        try (var h = harness(SHARED, false, backend, null)) {
            List<Step<RootUpdate<Long>>> steps = List.of(
                    mark(0),
                    element(v0(1, 1, 2)),
                    element(v1(1, 1, 1, 3)),
                    element(v1(1, 2, 1, 5)), // V[A](2) is still zero: no result yet
                    second(end(0, 1, 2)),
                    second(end(1, 1, 1)),
                    mark(1),
                    element(v0(3, 1, 2)), // epoch 3 while 2 is open: waits
                    element(v0(2, 2, 1)),
                    second(end(0, 2, 3)),
                    mark(2),
                    second(end(1, 3, 3)),
                    second(end(0, 3, 3)), // nothing new from subtask 0
                    mark(3),
                    second(end(0, 4, 3)),
                    second(end(1, 4, 3)),
                    mark(4)); // the same cut again: no snapshot
            Harnesses.playTwo(h, steps);
            List<ResultRecord<Long>> out = results(Harnesses.outputs(h, null));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(out, 1);
            assertThat(snapshots).containsOnlyKeys(3L, 4L, 6L);
            assertThat(snapshots.get(3L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L));
            assertThat(snapshots.get(4L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(2L, 1L), 5L));
            assertThat(snapshots.get(6L)).isEqualTo(rows(Tuple.of(1L, 1L), 12L, Tuple.of(2L, 1L), 5L));
            assertThat(out)
                    .filteredOn(ResultRecord::isEnd)
                    .extracting(r -> List.of(r.cut()[0], r.cut()[1]))
                    .containsExactly(List.of(2L, 1L), List.of(3L, 1L), List.of(3L, 3L));
            assertThat(out).allSatisfy(r -> {
                assertThat(r.isPrefixExact()).isTrue();
                assertThat(r.insertCount()).isEqualTo(r.snapshotId());
            });
        }
    }

    /**
     * A cross product over HyperCube cells: every root update goes to the cells that agree with it,
     * each cell joins what it holds, and together the cells emit every result tuple exactly once.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theCellsOfACrossProductTogetherEmitEachResultOnce(Backend backend) throws Exception {
        List<ViewTree> trees = CROSS.viewTrees();
        Shares shares = HyperCube.shares(
                CROSS.query().head(), trees.stream().map(ViewTree::schema).toList(), 4);
        assertThat(shares.describe()).isEqualTo("A=2 C=2");
        CellLayout layout = CellLayout.create(shares, 4, 128);
        List<Step<RootUpdate<Long>>> steps = new ArrayList<>();
        steps.add(mark(0));
        KDatabase<Long> db = new KDatabase<>(K);
        int[] cells = new int[4];
        for (int i = 0; i < 12; i++) {
            int tree = i % 2;
            Tuple t = Tuple.of((long) i);
            db.insert(CROSS.query().body().get(trees.get(tree).atoms().get(0)).relation(), t, 1L + i);
            RootUpdate<Long> u = RootUpdate.of(Harnesses.major(1), tree, t, 1L + i);
            int n = new CellRouter(shares, trees.get(tree).schema()).cells(t, cells);
            assertThat(n).isEqualTo(2);
            for (int c = 0; c < n; c++) {
                steps.add(element(u.toCell(layout.key(cells[c]))));
            }
        }
        steps.add(second(end(0, 1, 12)));
        steps.add(mark(1));
        try (var h = harness(CROSS, false, backend, null)) {
            Harnesses.playTwo(h, steps);
            Map<Tuple, Long> result =
                    Snapshots.byId(results(Harnesses.outputs(h, null)), 1).get(12L);
            assertThat(result).hasSize(36).isEqualTo(NaiveEvaluator.evaluate(CROSS.query(), K, db.relations()));
        }
    }

    /** An aggregate tree's partial sums from two tree subtasks add up; its root tuple crosses the border once. */
    @Test
    void partialAggregatesAddUp() throws Exception {
        Shares shares = HyperCube.shares(List.of("C"), List.of(List.of(), List.of("C")), 1);
        Tuple cell = CellLayout.create(shares, 1, 128).key(0);
        try (var h = harness(COUNT, false, Backend.HEAP, null)) {
            Harnesses.playTwo(
                    h,
                    List.of(
                            mark(0),
                            element(new RootUpdate<>(1, 0, Tuple.EMPTY, 2L, cell)),
                            element(RootUpdate.of(Harnesses.major(1), 1, Tuple.of("c"), 5L)
                                    .toCell(cell)),
                            element(new RootUpdate<>(1, 0, Tuple.EMPTY, 3L, cell)),
                            second(end(0, 1, 4)),
                            mark(1),
                            element(new RootUpdate<>(2, 0, Tuple.EMPTY, 1L, cell)),
                            second(end(0, 2, 5)),
                            mark(2)));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(Harnesses.outputs(h, null)), 1);
            assertThat(snapshots.get(4L)).isEqualTo(rows(Tuple.of("c"), 25L));
            assertThat(snapshots.get(5L)).isEqualTo(rows(Tuple.of("c"), 30L));
            assertThat(((BorderSinkOperator<?>) h.getOperator()).liveJoinTuples())
                    .isEqualTo(2);
        }
    }

    /**
     * Deltas of a root view without state below it, straight from the ingest, add up in the sink; its
     * root tuple crosses once; an overflow is dead-lettered and leaves the payload as it was.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void deltasStraightFromTheIngestAddUp(Backend backend) throws Exception {
        try (var h = harness(SHARED, false, backend, null)) {
            Harnesses.playTwo(
                    h,
                    List.of(
                            mark(0),
                            element(v0(1, 1, 2)),
                            element(new RootUpdate<>(1, 1, Tuple.of(1L, 7L), 3L, null)),
                            element(new RootUpdate<>(1, 1, Tuple.of(1L, 7L), 4L, null)),
                            element(new RootUpdate<>(1, 1, Tuple.of(1L, 7L), Long.MAX_VALUE, null)),
                            second(end(0, 1, 4)),
                            mark(1)));
            Outputs out = Harnesses.outputs(h, DEAD);
            assertThat(Snapshots.byId(results(out), 1).get(4L)).isEqualTo(rows(Tuple.of(1L, 7L), 14L));
            assertThat(((BorderSinkOperator<?>) h.getOperator()).liveJoinTuples())
                    .isEqualTo(2);
            assertThat(out.side()).hasSize(1);
            @SuppressWarnings("unchecked")
            DeadLetter dead = ((org.apache.flink.streaming.runtime.streamrecord.StreamRecord<DeadLetter>)
                            out.side().get(0))
                    .getValue();
            assertThat(dead.origin()).isEqualTo("epoch 1");
            assertThat(dead.reason())
                    .startsWith("delta of V[A,C] (root of tree 1) at (1, 7) not added: natural-number overflow");
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void theJoinHeldBackUpdatesAndCutsSurviveSnapshotAndRestore(Backend backend) throws Exception {
        List<Step<RootUpdate<Long>>> before = List.of(
                mark(0),
                element(v0(1, 1, 2)),
                element(v1(1, 1, 1, 3)),
                element(v1(3, 2, 7, 1)), // held back across the snapshot
                element(v0(2, 2, 3)), // held back too
                second(end(0, 1, 2)),
                second(end(1, 2, 3)), // subtask 1 is ahead; its end of epoch 2 waits for subtask 0
                mark(1),
                element(v1(2, 1, 5, 1)));
        List<Step<RootUpdate<Long>>> after = List.of(
                second(end(0, 2, 4)),
                mark(2),
                element(v0(3, 1, 8)),
                second(end(0, 3, 5)),
                second(end(1, 3, 5)),
                mark(3));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(SHARED, false, backend, restored), Harnesses::playTwo, null, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(runs[0]), 1);
        assertThat(snapshots).containsOnlyKeys(2L, 7L, 10L);
        assertThat(snapshots.get(2L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L));
        assertThat(snapshots.get(7L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(1L, 5L), 2L));
        assertThat(snapshots.get(10L))
                .isEqualTo(rows(Tuple.of(1L, 1L), 30L, Tuple.of(1L, 5L), 10L, Tuple.of(2L, 7L), 3L));
    }

    /**
     * The cyclic plan's state (member sets, value lists, the bag and the Boolean join over it) survives
     * a snapshot and a restore into a fresh operator: random root updates of the triangle, an epoch
     * every ten inserts, each snapshot equal to the naive evaluator's result, the same outputs as a run
     * without the restore, and the join-size gauges recounted from the restored state.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theBagsSurviveSnapshotAndRestore(Backend backend) throws Exception {
        assertThat(TRIANGLE.kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
        Shares shares = HyperCube.shares(
                TRIANGLE.query().head(),
                TRIANGLE.viewTrees().stream().map(ViewTree::schema).toList(),
                1);
        Tuple cell = CellLayout.create(shares, 1, 128).key(0);
        Random random = new Random(5);
        KDatabase<Long> db = new KDatabase<>(K);
        Map<Long, Map<Tuple, Long>> expected = new TreeMap<>();
        List<Step<RootUpdate<Long>>> steps = new ArrayList<>();
        steps.add(mark(0));
        int inserts = 160;
        for (int n = 1; n <= inserts; n++) {
            ViewTree tree = TRIANGLE.viewTrees().get(random.nextInt(3));
            var atom = TRIANGLE.query().body().get(tree.atoms().get(0));
            Tuple t = Tuple.of((long) random.nextInt(5), (long) random.nextInt(5));
            long payload = 1 + random.nextInt(3);
            db.insert(atom.relation(), t, payload);
            long epoch = 1 + (n - 1) / 10;
            steps.add(element(RootUpdate.of(Harnesses.major(epoch), tree.index(), t, payload)
                    .toCell(cell)));
            if (n % 10 == 0) {
                steps.add(second(end(0, epoch, n)));
                steps.add(mark(epoch));
                expected.put((long) n, NaiveEvaluator.evaluate(TRIANGLE.query(), K, db.relations()));
            }
        }
        List<Step<RootUpdate<Long>>> before = steps.subList(0, steps.size() / 2);
        List<Step<RootUpdate<Long>>> after = steps.subList(steps.size() / 2, steps.size());
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(TRIANGLE, false, backend, restored), Harnesses::playTwo, null, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        assertThat(Snapshots.byId(results(runs[0]), 1)).isEqualTo(expected);
        Map<Tuple, Long> last = expected.get((long) inserts);
        assertThat(last).hasSizeGreaterThan(10);

        long[] straight = new long[2];
        try (var h = harness(TRIANGLE, false, backend, null)) {
            Harnesses.playTwo(h, steps);
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOperator();
            straight[0] = op.liveJoinTuples();
            straight[1] = op.bagTuples(0);
        }
        assertThat(straight)
                .as("one bag {A,B,C}, the root: each of its tuples is live and a result")
                .containsExactly(last.size(), last.size());
        OperatorSubtaskState snapshot;
        try (var h = harness(TRIANGLE, false, backend, null)) {
            Harnesses.playTwo(h, before);
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(TRIANGLE, false, backend, snapshot)) {
            Harnesses.playTwo(h, after);
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOperator();
            assertThat(new long[] {op.liveJoinTuples(), op.bagTuples(0)}).isEqualTo(straight);
        }
    }

    /**
     * Product payloads (a count, a SUM and a MIN, kept as longs and added to in place) through the sink
     * on either backend, with a changelog, across a snapshot and a restore: the result after every
     * trigger equals the naive evaluator's join of the root views, and the restored run emits what the
     * straight run emits.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void productPayloadsAddUpInPlaceAcrossARestore(Backend backend) throws Exception {
        assertThat(PRODUCTS.viewTrees()).extracting(ViewTree::schema).containsExactly(List.of("A"), List.of("A", "C"));
        ConjunctiveQuery roots = QueryParser.parse("Q(A,C) :- V0(A), V1(A,C)");
        Random random = new Random(11);
        KDatabase<Product> db = new KDatabase<>(P);
        Map<Long, Map<Tuple, Product>> expected = new TreeMap<>();
        List<Step<RootUpdate<Product>>> steps = new ArrayList<>();
        steps.add(mark(0));
        int inserts = 200;
        for (int n = 1; n <= inserts; n++) {
            int tree = random.nextInt(2);
            long a = random.nextInt(4);
            Tuple t = tree == 0 ? Tuple.of(a) : Tuple.of(a, (long) random.nextInt(4));
            Product delta = P.payload(1 + random.nextInt(2), random.nextInt(21) - 10, random.nextInt(50));
            db.insert("V" + tree, t, delta);
            long epoch = 1 + (n - 1) / 10;
            steps.add(element(RootUpdate.of(Harnesses.major(epoch), tree, t, delta)));
            if (n % 10 == 0) {
                steps.add(second(end(0, epoch, n)));
                steps.add(mark(epoch));
                expected.put((long) n, NaiveEvaluator.evaluate(roots, P, db.relations()));
            }
        }
        List<Step<RootUpdate<Product>>> before = steps.subList(0, steps.size() / 2);
        List<Step<RootUpdate<Product>>> after = steps.subList(steps.size() / 2, steps.size());
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(PRODUCTS, P, true, backend, restored), Harnesses::playTwo, null, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        assertThat(Snapshots.changelogStates(results(runs[0], P), 1)).isEqualTo(expected);
        assertThat(expected.get((long) inserts)).hasSizeGreaterThan(8);
    }

    /**
     * A progress epoch (a minor one, {@link Epochs}) applies its updates but emits no snapshot; the next
     * snapshot's cut includes it. A later minor epoch's update is applied at once, before the watermark
     * reaches it: no snapshot can fall between two epochs of one major, so nothing waits.
     */
    @Test
    void aProgressEpochEmitsNoSnapshotAndHoldsNothingBack() throws Exception {
        try (var h = harness(SHARED, false, Backend.HEAP, null)) {
            Harnesses.playTwo(
                    h,
                    List.of(
                            Harnesses.mark(0),
                            element(RootUpdate.of(1, 0, Tuple.of(1L), 2L)),
                            element(RootUpdate.of(1, 1, Tuple.of(1L, 1L), 3L)),
                            element(RootUpdate.of(3, 1, Tuple.of(1L, 3L), 1L)), // a subtask two minors ahead
                            second(new EpochEnd(0, 0, 1, 2, true, false)),
                            Harnesses.mark(1),
                            element(RootUpdate.of(2, 1, Tuple.of(1L, 2L), 1L)),
                            second(new EpochEnd(0, 0, Epochs.endOfMajor(2), 4, true, true))));
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOperator();
            assertThat(op.liveJoinTuples())
                    .as("every update applied, none held back")
                    .isEqualTo(4);
            Harnesses.playTwo(h, List.of(Harnesses.mark(Epochs.endOfMajor(2))));
            List<ResultRecord<Long>> out = results(Harnesses.outputs(h, null));
            assertThat(Snapshots.byId(out, 1)).containsOnlyKeys(4L);
            assertThat(Snapshots.byId(out, 1).get(4L))
                    .isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(1L, 2L), 2L, Tuple.of(1L, 3L), 2L));
        }
    }

    /**
     * In changelog mode a trigger holds only the rows whose payload changed since the previous one:
     * new ones as inserts, changed ones as updates.
     */
    @Test
    void aChangelogEmitsOnlyChangedRows() throws Exception {
        try (var h = harness(SHARED, true, Backend.HEAP, null)) {
            Harnesses.playTwo(
                    h,
                    List.of(
                            mark(0),
                            element(v0(1, 1, 2)),
                            element(v1(1, 1, 1, 3)),
                            element(v1(1, 1, 2, 1)),
                            second(end(0, 1, 3)),
                            mark(1),
                            element(v1(2, 1, 2, 3)),
                            second(end(0, 2, 4)),
                            mark(2)));
            List<ResultRecord<Long>> out = results(Harnesses.outputs(h, null));
            TreeMap<Long, Map<Tuple, Long>> changes = Snapshots.byId(out, 1);
            assertThat(changes.get(3L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(1L, 2L), 2L));
            assertThat(changes.get(4L)).isEqualTo(rows(Tuple.of(1L, 2L), 8L));
            assertThat(out)
                    .filteredOn(r -> !r.isEnd())
                    .extracting(ResultRecord::kind)
                    .containsExactlyInAnyOrder(
                            ResultRecord.Kind.INSERT, ResultRecord.Kind.INSERT, ResultRecord.Kind.UPDATE_AFTER);
        }
    }
}
