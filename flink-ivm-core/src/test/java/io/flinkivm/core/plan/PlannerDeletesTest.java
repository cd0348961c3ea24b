package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The planner under deletes: which plan each class of query gets, and what explain says about it. */
class PlannerDeletesTest {
    private static final Semiring<?> INTEGER = Semirings.byName("integer");

    private static MaintenancePlan plan(String query, Semiring<?> semiring, String... changelog) {
        MaintenancePlan p =
                Planner.plan(QueryParser.parse(query), semiring, Planner.Strategy.AUTO, Inputs.changelog(changelog));
        p.validate();
        return p;
    }

    @Test
    void aQHierarchicalQueryKeepsItsViewTreesAndJoinsTheRootViewsAlongTheQTree() {
        QHierarchicalPlan p = (QHierarchicalPlan) plan("Q(A,C) :- R(A,B), S(A,C,D), T(A)", INTEGER, "S");
        assertThat(p.kind()).isEqualTo(PlanKind.Q_HIERARCHICAL);
        assertThat(p.inputs()).isEqualTo(Inputs.changelog("S"));
        // V[A] (R summed over B) and T(A) sit at A, V[A,C] at C below it.
        assertThat(p.qTree())
                .extracting(QTreeNode::variable, QTreeNode::path, QTreeNode::trees)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(null, List.of(), List.of()),
                        org.assertj.core.groups.Tuple.tuple("A", List.of("A"), List.of(0, 2)),
                        org.assertj.core.groups.Tuple.tuple("C", List.of("A", "C"), List.of(1)));
        assertThat(p.explain())
                .contains("Inputs: R, T insert-only; S with deletes and updates\n")
                .contains("Plan: q-hierarchical — view trees over integer below the border, the q-tree join of the"
                        + " root views above it\n")
                .contains("Border: 1[V[A]], 1[V[A,C]], 1[T(A)] over boolean; a root tuple crosses it when its"
                        + " payload turns non-zero and leaves it when its payload returns to zero\n")
                .contains("Q-tree (above the border; per entry a support count and, per child, the child's values"
                        + " that extend to a result):\n  A: V[A], T(A)\n    C: V[A,C]\n")
                .endsWith("Guarantee: O(1) per insert or delete and constant-delay enumeration (q-hierarchical:"
                        + " Berkholz, Keppeler, Schweikardt, PODS 2017); payloads recovered by 3 lookups per result"
                        + " tuple\n");
    }

    @Test
    void aPHierarchicalQueryThatIsNotQHierarchicalKeepsItsPlanWhileEveryInputIsInsertOnly() {
        String ex10 = PlannerTest.EX10;
        ProductRing ring = ProductRing.of(List.of(LongComponent.INTEGER));
        assertThat(plan(ex10, Semirings.byName("natural")).kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        FallbackPlan p = (FallbackPlan) plan(ex10, INTEGER, "R4", "R1");
        assertThat(p.reasons()).hasSize(1);
        assertThat(p.reasons().get(0))
                .startsWith("R1, R4 receive deletes and updates, and Q(A,C) is p-hierarchical but not q-hierarchical"
                        + " (not hierarchical: variables A and C overlap in R5(A,C,H)")
                .contains("With every input insert-only it would get the p-hierarchical plan; the deletes of R1, R4"
                        + " force the fallback")
                .contains("(Berkholz, Keppeler, Schweikardt, PODS 2017): unless the OMv conjecture fails");
        assertThat(p.explain())
                .contains("Inputs: R2, R3, R5 insert-only; R1, R4 with deletes and updates\n")
                .contains("Plan: fallback — first-order delta joins over integer, result materialized\n")
                .endsWith("Guarantee: an insert or delete costs the number of tuples its delta join touches: at least"
                        + " the result tuples it changes, O(result change), up to the size of the database; the"
                        + " result is materialized (a tuple whose payload returns to zero is removed), so"
                        + " enumeration has constant delay\n");
        assertThat(plan(ex10, ring, "R4").kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
    }

    @Test
    void aQueryThatIsNotPHierarchicalCitesTheDichotomyUnderDeletes() {
        FallbackPlan p = (FallbackPlan) plan("Q(A) :- R(A,B), S(B)", INTEGER, "S");
        assertThat(p.reasons().get(0))
                .startsWith("S receives deletes and updates, and Q(A) is not q-hierarchical (free A and bound B")
                .contains("nor p-hierarchical. Under inserts and deletes, exactly the q-hierarchical queries have O(1)"
                        + " updates and constant-delay enumeration");
    }

    @Test
    void minAndMaxAsMultisetsStateTheirCost() {
        ProductRing ring = ProductRing.of(List.of(LongComponent.INTEGER, LongComponent.MIN));
        MaintenancePlan q = plan("Q(A) :- R(A,B), S(A)", ring, "R");
        assertThat(q.guarantee())
                .endsWith("; MIN/MAX as multisets of values (as Flink SQL's retracting MIN/MAX): O(log n) more per"
                        + " value that enters or leaves a group of n values");
        MaintenancePlan f = plan("Q(A) :- R(A,B), S(B)", ring, "R");
        assertThat(f.guarantee()).contains("O(log n) more per value");
    }

    @Test
    void insertOnlyInputsKeepTheirPlans() {
        assertThat(plan("Q(A,C) :- R(A,B), S(A,C,D), T(A)", Semirings.byName("natural"))
                        .kind())
                .isEqualTo(PlanKind.P_HIERARCHICAL);
        // A ring without deletes is a semiring that is not positive: the fallback, as before (and on Flink).
        MaintenancePlan p = plan("Q(A,C) :- R(A,B), S(A,C,D), T(A)", INTEGER);
        assertThat(p.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        assertThat(p.inputs().isInsertOnly()).isTrue();
        assertThat(p.explain()).doesNotContain("Inputs:").contains("is not positive");
    }

    @Test
    void deletesNeedARingAndRelationsOfTheQuery() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B), S(A)");
        assertThatThrownBy(() ->
                        Planner.plan(q, Semirings.byName("natural"), Planner.Strategy.AUTO, Inputs.changelog("R")))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("R receives deletes and updates, which need a ring")
                .hasMessageContaining("integer for natural");
        assertThatThrownBy(() -> Planner.plan(q, INTEGER, Planner.Strategy.AUTO, Inputs.changelog("X")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("changelog relation X is not a relation of Q; it reads R, S");
    }

    @Test
    void strategiesUnderDeletes() {
        ConjunctiveQuery notQ = QueryParser.parse("Q(X,Y) :- R(X), S(X,Y), T(Y)");
        assertThatThrownBy(() -> Planner.plan(notQ, INTEGER, Planner.Strategy.P_HIERARCHICAL, Inputs.changelog("S")))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("no view-tree plan applies")
                .hasMessageContaining("Use the fallback");
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B), S(A)");
        MaintenancePlan forced = Planner.plan(q, INTEGER, Planner.Strategy.FALLBACK, Inputs.changelog("S"));
        assertThat(((FallbackPlan) forced).reasons()).containsExactly("the fallback plan was requested");
        assertThat(forced.inputs()).isEqualTo(Inputs.changelog("S"));
    }

    @Test
    void underDeletesAKeyedRewritingThatIsQHierarchicalRuns() {
        String keyed = "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok) KEY customer(ck), orders(ok)";
        assertThat(plan(keyed, Semirings.byName("natural"))).isInstanceOf(KeyedPlan.class);
        MaintenancePlan p = plan(keyed, INTEGER, "lineitem", "customer");
        assertThat(p).isInstanceOf(KeyedPlan.class);
        p.validate();
        KeyedPlan k = (KeyedPlan) p;
        assertThat(k.closed()).isInstanceOf(QHierarchicalPlan.class);
        assertThat(k.inputs()).isEqualTo(Inputs.changelog("customer", "lineitem"));
        // Orders looks customer up, so its closed rows change when a customer does; lineitem looks both up.
        assertThat(k.closed().inputs()).isEqualTo(Inputs.changelog("customer", "orders", "lineitem"));
        assertThat(p.explain())
                .contains("with deletes and updates each stage keeps the rows that look it up, and a change of a key"
                        + " row retracts and re-emits them: O(rows that reference it)")
                .contains("Guarantee: O(1) per insert or delete, except that a change of a key row that rows look up"
                        + " costs O(rows that look it up)")
                .contains("on databases where the keys hold");
        // The snowflake of the issue, with deletes in every table: absorbed, q-hierarchical.
        MaintenancePlan snowflake = plan(
                "Q() :- shipment(c,p,o), item_return(o), orders(o,r), product(p), carrier(c), region(r)"
                        + " KEY orders(o), product(p), carrier(c), region(r)",
                INTEGER,
                "shipment",
                "item_return",
                "orders",
                "product",
                "carrier",
                "region");
        assertThat(snowflake).isInstanceOf(KeyedPlan.class);
        assertThat(((KeyedPlan) snowflake).absorptions()).hasSize(4);
        // TPC-H Q3's shape: the head gains ck, lineitem gains what orders' key gives it (the full closure,
        // tried before absorbing).
        KeyedPlan q3 = (KeyedPlan) plan(
                "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok) KEY orders(ok)", INTEGER, "lineitem");
        assertThat(q3.closure()).isEqualTo("the full closure");
        assertThat(q3.closedQuery())
                .hasToString("Q(ok,od,sp,ck) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok,ck,od,sp)");
        assertThat(q3.closed().classification().qHierarchical().holds()).isTrue();
        // A query whose keys give no q-hierarchical rewriting takes the fallback, which says so.
        MaintenancePlan cycle = plan("Q() :- R(a,b), S(b,c), T(c,d), U(d,a) KEY R(a)", INTEGER, "S");
        assertThat(cycle).isInstanceOf(FallbackPlan.class);
        assertThat(cycle.explain()).contains("the keys do not help: ").contains("is not q-hierarchical either");
    }

    @Test
    void qTreesOfDisconnectedAndNullaryQueries() throws Exception {
        QHierarchicalPlan p = (QHierarchicalPlan) plan("Q(A,C) :- R(A), S(C), T(B)", INTEGER, "T");
        // V[] (T summed over B) sits at the root; A and C are two branches: a cross product.
        assertThat(p.qTree().get(0).trees()).hasSize(1);
        assertThat(p.qTree().get(0).children()).hasSize(2);
        assertThat(p.explain()).contains("  (no variable): V[]\n  A: R(A)\n  C: S(C)\n");
        new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(p);
    }
}
