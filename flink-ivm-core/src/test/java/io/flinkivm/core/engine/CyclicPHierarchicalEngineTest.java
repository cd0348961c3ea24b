package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.flinkivm.core.engine.border.LiveJoin;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.TestSemirings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cyclic p-hierarchical engine against the naive oracle: random streams over every built-in
 * semiring for cyclic p-hierarchical queries (triangles with and without bound ears, 4-cycles, the
 * 4-clique, Loomis-Whitney, self-joins, constants, nullary and disconnected root views), compared
 * after every few inserts; and worked examples.
 */
class CyclicPHierarchicalEngineTest {

    static final List<String> QUERIES = List.of(
            "Q(A,B,C) :- R(A,B,D), S(B,C), T(A,C,E)",
            "Q(A,B,C) :- R(A,B), S(B,C), T(A,C)",
            "Q(A,B,C,D) :- R(A,B), S(B,C), T(C,D), U(D,A)",
            "Q(A,B,C,D) :- R(A,B,X), S(B,C), T(C,D,Y), U(D,A,Z)",
            "Q(A,B,C,D) :- R(A,B), S(A,C), T(A,D), U(B,C), V(B,D), W(C,D)",
            "Q(A,B,C,D) :- R(A,B,C), S(A,B,D), T(A,C,D), U(B,C,D)",
            "Q(A,B,C) :- E(A,B), E(B,C), E(A,C)",
            "Q(A,B,C) :- R(A,B,'1'), S(B,C,C), T(A,C), U(D)",
            "Q(A,B,C,D) :- R(A,B), S(B,C), T(A,C), P(C,D,E), P2(C,D)",
            "Q(A,B,C,X) :- R(A,B), S(B,C), T(A,C,H), H2(A,C,H,G), U(X,Y)");

    /** Random streams per semiring and query; fewer for provenance, whose oracle is slow. */
    private static final int STREAMS = 40;

    private static final int PROVENANCE_STREAMS = 12;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String k : TestSemirings.BUILT_INS) {
            for (String q : QUERIES) {
                out.add(Arguments.of(k, q));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void agreesWithTheOracle(String semiring, String query) {
        check(TestSemirings.byName(semiring), QueryParser.parse(query));
    }

    private static <T> void check(Semiring<T> k, ConjunctiveQuery q) {
        MaintenancePlan plan = Planner.plan(q, k);
        assertThat(plan.kind()).as(plan.explain()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
        int streams = k.name().equals("provenance") ? PROVENANCE_STREAMS : STREAMS;
        long results = 0;
        for (int s = 0; s < streams; s++) {
            long seed = 31L * (31L * q.toString().hashCode() + k.name().hashCode()) + s;
            results += run(k, q, plan, seed);
        }
        assertThat(results)
                .as("result tuples seen at checkpoints (the streams must produce some)")
                .isPositive();
    }

    /** One random stream, compared with the oracle after every 1 to 6 inserts; returns the result tuples seen. */
    private static <T> long run(Semiring<T> k, ConjunctiveQuery q, MaintenancePlan plan, long seed) {
        Random r = new Random(seed);
        RandomStreams.Domain domain = new RandomStreams.Domain(
                2 + r.nextInt(3), r.nextBoolean() ? RandomStreams.ValueType.LONG : RandomStreams.ValueType.MIXED);
        List<Insert<T>> stream = RandomStreams.generate(q, k, r, 10 + r.nextInt(60), domain, TestSemirings.payloads(k));
        IvmEngine<T> engine = Engines.create(plan, k);
        assertThat(engine).isInstanceOf(PHierarchicalEngine.class);
        KDatabase<T> db = new KDatabase<>(k);
        long seen = 0;
        int next = 1 + r.nextInt(6);
        for (int i = 0; i < stream.size(); i++) {
            Insert<T> in = stream.get(i);
            engine.insert(in.relation(), in.tuple(), in.payload());
            db.insert(in.relation(), in.tuple(), in.payload());
            if (i + 1 == next || i + 1 == stream.size()) {
                next += 1 + r.nextInt(6);
                Map<Tuple, T> expected = NaiveEvaluator.evaluate(q, k, db.relations());
                String context = "semiring " + k.name() + ", seed " + seed + ", query " + q + ", after " + (i + 1)
                        + " inserts:\n" + RandomStreams.format(stream.subList(0, i + 1)) + "plan:\n" + plan.explain();
                List<Map.Entry<Tuple, T>> got = new ArrayList<>();
                for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                    ResultTuple<T> t = it.next();
                    got.add(Map.entry(t.tuple(), t.payload()));
                }
                assertThat(ResultDiff.compare(k, expected, got)).as(context).isEmpty();
                for (Map.Entry<Tuple, T> e : expected.entrySet()) {
                    assertThat(engine.lookup(e.getKey())).as(context).isEqualTo(e.getValue());
                }
                Tuple absent = domain.tuple(r, q.head().size());
                if (!expected.containsKey(absent)) {
                    assertThat(k.isZero(engine.lookup(absent)))
                            .as("lookup%s, %s", absent, context)
                            .isTrue();
                }
                seen += expected.size();
            }
        }
        assertThat(engine.insertCount()).isEqualTo(stream.size());
        return seen;
    }

    private static PHierarchicalEngine<Long> natural(String query) {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), NaturalSemiring.INSTANCE);
        assertThat(plan).isInstanceOf(CyclicPHierarchicalPlan.class);
        return new PHierarchicalEngine<>((CyclicPHierarchicalPlan) plan, NaturalSemiring.INSTANCE);
    }

    /** The engine's result as a map, checking that no tuple comes twice. */
    static Map<Tuple, Long> result(IvmEngine<Long> e) {
        Map<Tuple, Long> out = new HashMap<>();
        for (Iterator<ResultTuple<Long>> it = e.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> t = it.next();
            assertThat(out.put(t.tuple(), t.payload()))
                    .as("duplicate %s", t.tuple())
                    .isNull();
        }
        return out;
    }

    @Test
    void triangleWithEarsOverNaturalNumbers() {
        PHierarchicalEngine<Long> e = natural("Q(A,B,C) :- R(A,B,D), S(B,C), T(A,C,E)");
        e.insert("R", Tuple.of(1L, 2L, 7L), 2L);
        e.insert("S", Tuple.of(2L, 3L), 3L);
        assertThat(result(e)).isEmpty();
        e.insert("T", Tuple.of(1L, 3L, 8L), 5L);
        assertThat(result(e)).containsExactly(entry(Tuple.of(1L, 2L, 3L), 30L));
        // A second ear value changes the payload only: V[A,B](1,2) is not new, nothing crosses the border.
        long crossings = e.borderCrossings();
        e.insert("R", Tuple.of(1L, 2L, 9L), 1L);
        assertThat(e.borderCrossings()).isEqualTo(crossings);
        assertThat(result(e)).containsExactly(entry(Tuple.of(1L, 2L, 3L), 45L));
        e.insert("S", Tuple.of(2L, 4L), 1L);
        e.insert("T", Tuple.of(1L, 4L, 8L), 1L);
        assertThat(result(e)).containsOnly(entry(Tuple.of(1L, 2L, 3L), 45L), entry(Tuple.of(1L, 2L, 4L), 3L));
        assertThat(e.lookup(Tuple.of(1L, 2L, 4L))).isEqualTo(3L);
        assertThat(e.lookup(Tuple.of(2L, 2L, 4L))).isZero();
        assertThatThrownBy(() -> e.lookup(Tuple.of(1L, 2L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 3 values (A,B,C), got 2");
        assertThat(e.bagTuples()).isEqualTo(2);
    }

    @Test
    void everyBagTupleIsMaterializedOnce() {
        // All edges of the complete graph on 6 vertices, both directions: 6·5·4 triangles (a,b,c) of distinct vertices.
        PHierarchicalEngine<Long> e = natural("Q(A,B,C) :- E(A,B), E(B,C), E(A,C)");
        int n = 6;
        for (long a = 0; a < n; a++) {
            for (long b = 0; b < n; b++) {
                if (a != b) {
                    e.insert("E", Tuple.of(a, b), 1L);
                    e.insert("E", Tuple.of(a, b), 1L);
                }
            }
        }
        Map<Tuple, Long> result = result(e);
        assertThat(result).hasSize(n * (n - 1) * (n - 2));
        assertThat(result.values()).containsOnly(8L);
        assertThat(e.bagTuples()).isEqualTo(n * (n - 1) * (n - 2));
        // One border crossing per atom and edge: the second insert of an edge only adds to its payload.
        assertThat(e.borderCrossings()).isEqualTo(3L * n * (n - 1));
    }

    @Test
    void fourCycleAgreesWithTheFallbackOnADenseStream() {
        String query = "Q(A,B,C,D) :- R(A,B), S(B,C), T(C,D,X), U(D,A)";
        ConjunctiveQuery q = QueryParser.parse(query);
        NaturalSemiring k = NaturalSemiring.INSTANCE;
        IvmEngine<Long> cyclic = Engines.create(Planner.plan(q, k), k);
        IvmEngine<Long> fallback = Engines.create(Planner.plan(q, k, Planner.Strategy.FALLBACK), k);
        Random r = new Random(42);
        String[] relations = {"R", "S", "T", "U"};
        for (int i = 0; i < 3000; i++) {
            String rel = relations[r.nextInt(4)];
            Tuple t = rel.equals("T")
                    ? Tuple.of((long) r.nextInt(8), (long) r.nextInt(8), (long) r.nextInt(3))
                    : Tuple.of((long) r.nextInt(8), (long) r.nextInt(8));
            long payload = 1 + r.nextInt(3);
            cyclic.insert(rel, t, payload);
            fallback.insert(rel, t, payload);
            if (i % 500 == 499) {
                assertThat(result(cyclic)).isEqualTo(result(fallback)).isNotEmpty();
            }
        }
    }

    @Test
    void theRootViewsOfTheCyclicPlanHaveNoJoinTree() {
        ViewTreePlan cyclic = (ViewTreePlan)
                Planner.plan(QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)"), NaturalSemiring.INSTANCE);
        assertThatThrownBy(() -> new LiveJoin<Long>(new CompiledPlan(cyclic), false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no join tree");
    }
}
