package io.flinkivm.flink.common;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.second;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.Snapshots;
import io.flinkivm.flink.border.BorderSinkOperator;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.qtree.QTreeSinkOperator;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Idle state retention: the TTL configuration (as Flink SQL's), which states get it, and the sinks of
 * each plan family under a TTL in harnesses whose processing time the test sets, on heap and RocksDB:
 * the state of idle keys is dropped whole, and sinks whose keys expire between updates go on.
 */
class StateTtlTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    static final IntegerRing Z = IntegerRing.INSTANCE;
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);
    /** Trees V[A] (tree 0, from R, S) and V[A,C] (tree 1, from T); keyed by A. */
    static final ViewTreePlan SHARED =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)"), K);
    /** A path of three root views: lists of live tuples two levels deep. */
    static final ViewTreePlan PATH =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(C)"), K);
    /** The triangle: bags above the border. */
    static final ViewTreePlan TRIANGLE =
            (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)"), K);
    /** The q-tree sink of a plan with deletes. */
    static final QHierarchicalPlan QTREE = (QHierarchicalPlan) Planner.plan(
            QueryParser.parse("Q(A,C) :- R(A,B), S(A,C)"), Z, Planner.Strategy.AUTO, Inputs.changelog("R", "S"));

    static final long TTL = 100;

    @Test
    void configuresFlinksTtlAsFlinkSqlDoes() {
        StateTtlConfig c = new StateTtl(TTL).config();
        assertThat(c.isEnabled()).isTrue();
        assertThat(c.getTimeToLive()).isEqualTo(Duration.ofMillis(TTL));
        assertThat(c.getUpdateType()).isEqualTo(StateTtlConfig.UpdateType.OnCreateAndWrite);
        assertThat(c.getStateVisibility()).isEqualTo(StateTtlConfig.StateVisibility.NeverReturnExpired);
        assertThat(c.getTtlTimeCharacteristic()).isEqualTo(StateTtlConfig.TtlTimeCharacteristic.ProcessingTime);
        assertThat(c.getCleanupStrategies().getIncrementalCleanupStrategy().getCleanupSize())
                .isEqualTo(10);
        assertThat(c.getCleanupStrategies().getRocksdbCompactFilterCleanupStrategy())
                .isNotNull();
        assertThat(StateTtl.NONE.isSet()).isFalse();
        assertThatThrownBy(StateTtl.NONE::config)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no state TTL is set");
        assertThatThrownBy(() -> new StateTtl(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a state TTL must be >= 0 ms (0: none), got -1");
    }

    /** Every state the store gives out expires; without a TTL the store is the delegate. */
    @Test
    void everyStateOfTheStoreExpires() {
        List<org.apache.flink.api.common.state.StateDescriptor<?, ?>> seen = new ArrayList<>();
        KeyedStateStore recording = (KeyedStateStore) java.lang.reflect.Proxy.newProxyInstance(
                KeyedStateStore.class.getClassLoader(), new Class<?>[] {KeyedStateStore.class}, (p, m, args) -> {
                    seen.add((org.apache.flink.api.common.state.StateDescriptor<?, ?>) args[0]);
                    return null;
                });
        assertThat(StateTtl.NONE.states(recording)).isSameAs(recording);
        KeyedStateStore expiring = new StateTtl(TTL).states(recording);
        expiring.getMapState(new MapStateDescriptor<>(StateNames.view(0), Types.LONG, Types.LONG));
        expiring.getState(new ValueStateDescriptor<>(StateNames.KEY_ROW, Types.LONG));
        expiring.getListState(new ListStateDescriptor<>(StateNames.KEY_WAITING, Types.LONG));
        assertThat(seen)
                .extracting(d -> d.getName() + "=" + d.getTtlConfig().getTimeToLive())
                .containsExactly("view-0=PT0.1S", "key-row=PT0.1S", "key-waiting=PT0.1S");
    }

    private static <T> KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> sink(
            MaintenancePlan plan, Semiring<T> k, boolean changelog, Backend backend) throws Exception {
        return sink(plan, k, changelog, backend, null);
    }

    private static <T> KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> restored(
            MaintenancePlan plan, Semiring<T> k, Backend backend, OperatorSubtaskState snapshot) throws Exception {
        return sink(plan, k, false, backend, snapshot);
    }

    private static <T> KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> sink(
            MaintenancePlan plan, Semiring<T> k, boolean changelog, Backend backend, OperatorSubtaskState restored)
            throws Exception {
        RootSinkSpec<T> spec = new RootSinkSpec<>(
                k,
                PayloadTypes.of(k),
                RootUpdateTypeInfo.of(k),
                DEAD,
                changelog,
                false,
                true,
                new StateTtl(TTL),
                null,
                false);
        java.util.function.Supplier<TwoInputStreamOperator<RootUpdate<T>, EpochEnd, ResultRecord<T>>> operators =
                plan instanceof QHierarchicalPlan q
                        ? () -> new QTreeSinkOperator<>(q, spec)
                        : () -> new BorderSinkOperator<>((ViewTreePlan) plan, spec);
        KeySelector<RootUpdate<T>, Tuple> keys =
                plan == SHARED || plan == QTREE ? u -> u.tuple().project(new int[] {0}) : RootUpdate::cell;
        return Harnesses.keyedTwo(operators, keys, backend, restored);
    }

    /** An update of root view {@code tree}, in the one cell of the plans keyed by cells. */
    private static RootUpdate<Long> update(long epoch, int tree, Tuple t, long delta) {
        return RootUpdate.of(Harnesses.major(epoch), tree, t, delta).toCell(Tuple.of(0));
    }

    /** The sink's Flink keys with an entry in state {@code name}. */
    private static long keysIn(KeyedTwoInputStreamOperatorTestHarness<Tuple, ?, ?, ?> h, String name) throws Exception {
        try (var keys = ((AbstractStreamOperator<?>) h.getOperator())
                .getKeyedStateBackend()
                .getKeys(name, VoidNamespace.INSTANCE)) {
            return keys.count();
        }
    }

    /** Ends epoch {@code epoch} after {@code inserts} inserts, and moves the watermark past it. */
    private static <T> void end(
            KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> h,
            long epoch,
            long inserts)
            throws Exception {
        Harnesses.playTwo(
                h,
                List.<Step<RootUpdate<T>>>of(
                        second(new EpochEnd(0, 0, Harnesses.major(epoch), inserts, true, true)),
                        Harnesses.mark(Harnesses.major(epoch))));
    }

    @SuppressWarnings("unchecked")
    private static <T> List<ResultRecord<T>> results(
            KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<T>, EpochEnd, ResultRecord<T>> h) {
        List<ResultRecord<T>> out = new ArrayList<>();
        for (Object v : Harnesses.outputs(h, null).values()) {
            out.add((ResultRecord<T>) v);
        }
        return out;
    }

    /**
     * The sink drops a Flink key's state (keyed by A) once no update reached it for the TTL (timers at
     * 1 to 1.5 TTLs after its last update). Key 1 is written at 0, key 2 at 0 and 90. At 150 key 1's
     * state is gone, key 2's is not: V[A,C](1,2) finds no V[A](1), and the snapshot holds key 2's results
     * only (without a TTL: (1,1) = 6 and (1,2) = 10 too). V[A](1) written again at 200 starts from its new
     * delta alone and joins V[A,C](1,2). At 500 every key has gone: the state is empty.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theBorderSinkDropsTheStateOfIdleKeys(Backend backend) throws Exception {
        try (var h = sink(SHARED, K, false, backend)) {
            h.setProcessingTime(0);
            Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(0))));
            Harnesses.playTwo(
                    h,
                    List.of(
                            element(update(1, 0, Tuple.of(1L), 2L)),
                            element(update(1, 1, Tuple.of(1L, 1L), 3L)),
                            element(update(1, 0, Tuple.of(2L), 1L)),
                            element(update(1, 1, Tuple.of(2L, 7L), 1L))));
            end(h, 1, 4);
            h.setProcessingTime(90);
            Harnesses.playTwo(h, List.of(element(update(2, 1, Tuple.of(2L, 8L), 2L))));
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isEqualTo(2);
            h.setProcessingTime(150);
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isEqualTo(1);
            Harnesses.playTwo(h, List.of(element(update(2, 1, Tuple.of(1L, 2L), 5L))));
            end(h, 2, 6);
            h.setProcessingTime(200);
            Harnesses.playTwo(h, List.of(element(update(3, 0, Tuple.of(1L), 4L))));
            end(h, 3, 7);
            h.setProcessingTime(500);
            Harnesses.playTwo(h, List.of(second(new EpochEnd(0, 0, Harnesses.major(4), 7, true, true))));
            Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(4))));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(h), 1);
            assertThat(snapshots.get(4L)).isEqualTo(Map.of(Tuple.of(1L, 1L), 6L, Tuple.of(2L, 7L), 1L));
            assertThat(snapshots.get(6L)).isEqualTo(Map.of(Tuple.of(2L, 7L), 1L, Tuple.of(2L, 8L), 2L));
            assertThat(snapshots.get(7L))
                    .isEqualTo(Map.of(Tuple.of(1L, 2L), 20L, Tuple.of(2L, 7L), 1L, Tuple.of(2L, 8L), 2L));
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isZero();
            assertThat(keysIn(h, StateNames.JOIN_HEADS)).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
            assertThat(h.getSideOutput(DEAD)).isNull();
        }
    }

    /**
     * The sink's expiry survives a checkpoint: keys 1 (written at 0) and 2 (at 0 and 90) are snapshotted
     * at 100 and restored into a fresh operator, whose restored timers drop key 1 at 150 and key 2 at
     * 240, as without the restore.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theSinksTimersSurviveARestore(Backend backend) throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = sink(SHARED, K, false, backend)) {
            h.setProcessingTime(0);
            Harnesses.playTwo(
                    h,
                    List.of(
                            Harnesses.mark(Harnesses.major(0)),
                            element(update(1, 0, Tuple.of(1L), 2L)),
                            element(update(1, 1, Tuple.of(1L, 1L), 3L)),
                            element(update(1, 0, Tuple.of(2L), 1L))));
            h.setProcessingTime(90);
            Harnesses.playTwo(h, List.of(element(update(1, 1, Tuple.of(2L, 7L), 1L))));
            end(h, 1, 4);
            h.setProcessingTime(100);
            snapshot = h.snapshot(1, 100);
        }
        try (var h = restored(SHARED, K, backend, snapshot)) {
            h.setProcessingTime(100);
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isEqualTo(2);
            h.setProcessingTime(150);
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isEqualTo(1);
            h.setProcessingTime(240);
            assertThat(keysIn(h, StateNames.JOIN_RECORDS)).isZero();
            assertThat(h.numProcessingTimeTimers()).isZero();
        }
    }

    /**
     * Updates at random times, with gaps beyond the TTL now and then, so that keys expire between
     * them: every plan family's sink, in snapshot and changelog mode, goes on without a failure or a
     * dead letter.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void sinksGoOnWhenLinkedEntriesExpireOneByOne(Backend backend) throws Exception {
        for (MaintenancePlan plan : List.of(SHARED, PATH, TRIANGLE, QTREE)) {
            for (boolean changelog : new boolean[] {false, true}) {
                if (plan == QTREE && !changelog) {
                    continue;
                }
                Semiring<Long> k = plan == QTREE ? Z : K;
                fuzz(plan, k, changelog, backend, new Random(46 + plan.hashCode() % 7));
            }
        }
    }

    private static void fuzz(MaintenancePlan plan, Semiring<Long> k, boolean changelog, Backend backend, Random random)
            throws Exception {
        ViewTreePlan trees = (ViewTreePlan) plan;
        try (var h = sink(plan, k, changelog, backend)) {
            long now = 0;
            h.setProcessingTime(now);
            Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(0))));
            long inserts = 0;
            for (long epoch = 1; epoch <= 30; epoch++) {
                for (int i = 0; i < 12; i++) {
                    now += random.nextInt(10) == 0 ? 2 * TTL : random.nextInt(20);
                    h.setProcessingTime(now);
                    int tree = random.nextInt(trees.viewTrees().size());
                    int arity = trees.viewTrees().get(tree).schema().size();
                    Object[] values = new Object[arity];
                    for (int v = 0; v < arity; v++) {
                        values[v] = (long) random.nextInt(3);
                    }
                    Harnesses.playTwo(h, List.of(element(update(epoch, tree, Tuple.of(values), 1L))));
                    inserts++;
                }
                end(h, epoch, inserts);
            }
            assertThat(results(h))
                    .as("%s, changelog %s", plan.query(), changelog)
                    .isNotEmpty();
            assertThat(h.getSideOutput(DEAD)).isNull();
        }
    }
}
