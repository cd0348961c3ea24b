package io.flinkivm.flink.qtree;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.second;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
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
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The q-tree sink in a harness, over the integers: root updates of {@code Q(A,C) :- R(A,B), S(A,C)}
 * (V[A] from R, V[A,C] from S) and epoch ends in, the changelog out, with a snapshot and a restore into
 * a fresh operator between the second and the third trigger, on each state layout.
 */
class QTreeSinkOperatorTest {
    static final IntegerRing Z = IntegerRing.INSTANCE;
    static final QHierarchicalPlan PLAN = (QHierarchicalPlan) Planner.plan(
            QueryParser.parse("Q(A,C) :- R(A,B), S(A,C)"), Z, Planner.Strategy.AUTO, Inputs.changelog("R", "S"));
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    static List<Arguments> layouts() {
        return List.of(
                Arguments.of(Backend.HEAP, false),
                Arguments.of(Backend.HEAP, true),
                Arguments.of(Backend.ROCKSDB, true));
    }

    static KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>> harness(
            Backend backend, boolean managed, OperatorSubtaskState restored) throws Exception {
        return Harnesses.keyedTwo(
                () -> new QTreeSinkOperator<>(
                        PLAN,
                        new RootSinkSpec<>(
                                Z,
                                PayloadTypes.of(Z),
                                RootUpdateTypeInfo.of(Z),
                                DEAD,
                                true,
                                true,
                                managed,
                                StateTtl.NONE,
                                null,
                                false)),
                u -> u.tuple().project(new int[] {0}),
                backend,
                restored);
    }

    /** The tree whose root schema has {@code arity} variables. */
    private static int tree(int arity) {
        for (ViewTree t : PLAN.viewTrees()) {
            if (t.schema().size() == arity) {
                return t.index();
            }
        }
        throw new AssertionError("no tree of arity " + arity);
    }

    private static Step<RootUpdate<Long>> r(long epoch, String a, long delta) {
        return element(RootUpdate.of(Harnesses.major(epoch), tree(1), Tuple.of(a), delta));
    }

    private static Step<RootUpdate<Long>> s(long epoch, String a, String c, long delta) {
        return element(RootUpdate.of(Harnesses.major(epoch), tree(2), Tuple.of(a, c), delta));
    }

    private static Step<RootUpdate<Long>> trigger(long epoch, long inserts) {
        return second(new EpochEnd(0, 0, Harnesses.major(epoch), inserts, true, true));
    }

    @ParameterizedTest(name = "{0} managed={1}")
    @MethodSource("layouts")
    void deletesLeaveTheResultAndTheStateSurvivesARestore(Backend backend, boolean managed) throws Exception {
        List<Step<RootUpdate<Long>>> before = List.of(
                Harnesses.mark(0),
                r(1, "a1", 2),
                s(1, "a1", "c1", 3),
                s(1, "a1", "c2", 1),
                trigger(1, 3),
                Harnesses.mark(Harnesses.major(1)),
                s(2, "a1", "c2", -1), // (a1,c2) leaves
                r(2, "a1", 1), // (a1,c1) 6 -> 9
                r(2, "a2", 5), // no S(a2, ·): no result
                trigger(2, 6),
                Harnesses.mark(Harnesses.major(2)));
        List<Step<RootUpdate<Long>>> after = List.of(
                r(3, "a1", -3), // R(a1) gone: (a1,c1) leaves
                s(3, "a2", "c3", 2), // (a2,c3) = 10 joins
                trigger(3, 8),
                Harnesses.mark(Harnesses.major(3)));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(backend, managed, restored), Harnesses::playTwo, DEAD, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        List<String> changes = new ArrayList<>();
        for (Object v : runs[0].values()) {
            @SuppressWarnings("unchecked")
            ResultRecord<Long> rec = (ResultRecord<Long>) v;
            if (!rec.isEnd()) {
                changes.add(rec.snapshotId() + " " + rec.kind() + " " + rec.tuple() + " " + rec.payload());
            }
        }
        assertThat(changes)
                .containsExactlyInAnyOrder(
                        "3 INSERT (a1, c1) 6",
                        "3 INSERT (a1, c2) 2",
                        "6 DELETE (a1, c2) 2",
                        "6 UPDATE_BEFORE (a1, c1) 6",
                        "6 UPDATE_AFTER (a1, c1) 9",
                        "8 DELETE (a1, c1) 9",
                        "8 INSERT (a2, c3) 10");
        assertThat(runs[0].side()).isEmpty();
    }
}
