package io.flinkivm.flink.common;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.mark;
import static io.flinkivm.flink.common.Harnesses.second;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.ChainComponent;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.qtree.QTreeSinkOperator;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.DeltaTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import io.flinkivm.flink.viewtree.ViewTreeOperator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Payloads with MIN and MAX over chains of strings and dates as operator state, on the heap (flink-ivm's
 * own maps and managed state) and on RocksDB, straight through and with a snapshot and a restore into a
 * fresh operator in the middle: a view tree over the product semiring (insert-only) and the q-tree sink
 * over its ring (deletes; multisets of strings in state).
 */
class ChainPayloadStateTest {
    static final ProductSemiring K = ProductSemiring.of(List.of(
            ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
            ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE")),
            LongComponent.INTEGER));
    static final ProductRing RING = (ProductRing) Semirings.ringFor(K);
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    /** One tree, V[A] over the join view V[A,B] of R (names) and S (dates): payloads kept at V[A,B]. */
    static final ViewTreePlan TREE = (ViewTreePlan) Planner.plan(QueryParser.parse("Q(A) :- R(A,B), S(A,B,C)"), K);

    static List<Arguments> layouts() {
        return List.of(
                Arguments.of(Backend.HEAP, false),
                Arguments.of(Backend.HEAP, true),
                Arguments.of(Backend.ROCKSDB, true));
    }

    /** A row of R: a name (or NULL: the zero, ⊤) and a sum; the one for the date. */
    static Product name(String name, long sum) {
        return K.payload(
                new long[] {1, name == null ? Chain.TOP : Chain.VALUE, Chain.TOP, sum},
                new Object[] {null, name, null, null});
    }

    /** A row of S: a date (days since 1970) and a sum; the one (⊥) for the name. */
    static Product date(long day, long sum) {
        return K.payload(new long[] {1, Chain.BOTTOM, day, sum}, new Object[4]);
    }

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Product>, RootUpdate<Product>> tree(
            Backend backend, boolean managed, OperatorSubtaskState restored) throws Exception {
        int length = ViewTreeOperator.keyLength(TREE.viewTrees().get(0));
        int[] prefix = new int[length];
        for (int i = 0; i < length; i++) {
            prefix[i] = i;
        }
        KeySelector<Delta<Product>, Tuple> keys =
                d -> d.partition() != null ? d.partition() : d.key().project(prefix);
        return Harnesses.keyed(
                () -> new ViewTreeOperator<>(
                        TREE,
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
                        managed,
                        StateTtl.NONE,
                        null),
                keys,
                backend,
                restored);
    }

    static List<Delta<Product>> deltas(String relation, Tuple tuple, Product payload, long epoch) {
        AtomRouter router = new CompiledPlan(TREE).router();
        List<Delta<Product>> out = new ArrayList<>();
        router.route(
                router.checkedRelation(relation, tuple.arity()),
                tuple,
                payload,
                (a, key, p) -> out.add(
                        new Delta<>(epoch, a, key, p, Epochs.insertId(0, 1), key.arity() == 0 ? Tuple.of(0) : null)));
        return out;
    }

    @ParameterizedTest(name = "{0} managed={1}")
    @MethodSource("layouts")
    void aViewTreeKeepsStringsAndDatesThroughARestore(Backend backend, boolean managed) throws Exception {
        Random random = new Random(29);
        KDatabase<Product> db = new KDatabase<>(K);
        List<Step<Delta<Product>>> steps = new ArrayList<>();
        steps.add(mark(0));
        String[] names = {"pear", "apple", "\u00e9clair", "\uD841\uDF0E", "Apple", null};
        for (int n = 1; n <= 200; n++) {
            long a = random.nextInt(3);
            long b = random.nextInt(3);
            boolean r = random.nextBoolean();
            Tuple t = r ? Tuple.of(a, b) : Tuple.of(a, b, (long) random.nextInt(2));
            Product p = r
                    ? name(names[random.nextInt(names.length)], random.nextInt(9) - 4)
                    : date(19_000 + random.nextInt(40), random.nextInt(9) - 4);
            db.insert(r ? "R" : "S", t, p);
            long epoch = 1 + (n - 1) / 10;
            for (Delta<Product> d : deltas(r ? "R" : "S", t, p, epoch)) {
                steps.add(element(d));
            }
            if (n % 10 == 0) {
                steps.add(mark(epoch));
            }
        }
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> tree(backend, managed, restored),
                Harnesses::play,
                DEAD,
                steps.subList(0, steps.size() / 2),
                steps.subList(steps.size() / 2, steps.size()));
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        Map<Tuple, Product> expected =
                NaiveEvaluator.evaluate(QueryParser.parse("V(A) :- R(A,B), S(A,B,C)"), K, db.relations());
        assertThat(expected).hasSize(3);
        Map<Tuple, Product> sums = new HashMap<>();
        for (Object v : runs[0].values()) {
            @SuppressWarnings("unchecked")
            RootUpdate<Product> u = (RootUpdate<Product>) v;
            sums.merge(u.tuple(), u.payload(), K::plus);
        }
        assertThat(sums).isEqualTo(expected);
        assertThat(runs[0].side()).isEmpty();
    }

    /** Q(A,C) :- R(A,B), S(A,C) over the ring: V[A] (names from R) and V[A,C] (dates from S) meet at the sink. */
    static final QHierarchicalPlan QTREE = (QHierarchicalPlan) Planner.plan(
            QueryParser.parse("Q(A,C) :- R(A,B), S(A,C)"), RING, Planner.Strategy.AUTO, Inputs.changelog("R", "S"));

    static KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Product>, EpochEnd, ResultRecord<Product>> sink(
            Backend backend, boolean managed, OperatorSubtaskState restored) throws Exception {
        return Harnesses.keyedTwo(
                () -> new QTreeSinkOperator<>(
                        QTREE,
                        new RootSinkSpec<>(
                                RING,
                                PayloadTypes.of(RING),
                                RootUpdateTypeInfo.of(RING),
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

    private static int treeOfArity(int arity) {
        for (ViewTree t : QTREE.viewTrees()) {
            if (t.schema().size() == arity) {
                return t.index();
            }
        }
        throw new AssertionError("no tree of arity " + arity);
    }

    private static Step<RootUpdate<Product>> r(long epoch, String a, String name, int copies) {
        Product one = RING.lift(name(name, 1));
        return element(RootUpdate.of(
                Harnesses.major(epoch), treeOfArity(1), Tuple.of(a), copies < 0 ? RING.negate(one) : one));
    }

    private static Step<RootUpdate<Product>> s(long epoch, String a, String c, long day, int copies) {
        Product one = RING.lift(date(day, 0));
        return element(RootUpdate.of(
                Harnesses.major(epoch), treeOfArity(2), Tuple.of(a, c), copies < 0 ? RING.negate(one) : one));
    }

    private static Step<RootUpdate<Product>> trigger(long epoch, long inserts) {
        return second(new EpochEnd(0, 0, Harnesses.major(epoch), inserts, true, true));
    }

    @ParameterizedTest(name = "{0} managed={1}")
    @MethodSource("layouts")
    void theRingsMultisetsOfStringsSurviveDeletesAndARestore(Backend backend, boolean managed) throws Exception {
        List<Step<RootUpdate<Product>>> before = List.of(
                mark(0),
                r(1, "a1", "pear", 1),
                r(1, "a1", "apple", 1),
                s(1, "a1", "c1", 19_000, 1),
                trigger(1, 3),
                mark(Harnesses.major(1)),
                r(2, "a1", "apple", -1), // the MIN falls back to pear
                s(2, "a1", "c1", 19_005, 1), // the MAX date rises
                trigger(2, 5),
                mark(Harnesses.major(2)));
        List<Step<RootUpdate<Product>>> after = List.of(
                r(3, "a1", "\u00e9clair", 1), // above pear: the MIN stays
                s(3, "a1", "c1", 19_005, -1), // back to the first date
                trigger(3, 7),
                mark(Harnesses.major(3)));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> sink(backend, managed, restored), Harnesses::playTwo, DEAD, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        List<String> changes = new ArrayList<>();
        for (Object v : runs[0].values()) {
            @SuppressWarnings("unchecked")
            ResultRecord<Product> rec = (ResultRecord<Product>) v;
            if (!rec.isEnd()) {
                Product p = rec.payload();
                changes.add(rec.snapshotId() + " " + rec.kind() + " " + rec.tuple() + " " + p.object(1) + " "
                        + Chain.of(Chain.Kind.DATE, "DATE").format(p.get(2), null));
            }
        }
        assertThat(changes)
                .containsExactly(
                        "3 INSERT (a1, c1) apple 2022-01-08",
                        "5 UPDATE_BEFORE (a1, c1) apple 2022-01-08",
                        "5 UPDATE_AFTER (a1, c1) pear 2022-01-13",
                        "7 UPDATE_BEFORE (a1, c1) pear 2022-01-13",
                        "7 UPDATE_AFTER (a1, c1) pear 2022-01-08");
        assertThat(runs[0].side()).isEmpty();
    }
}
