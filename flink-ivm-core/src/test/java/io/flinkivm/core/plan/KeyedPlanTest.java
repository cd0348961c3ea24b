package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.Semirings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Plans that rely on keys: the worked examples of docs/design.md ("Keys"), with golden explain fragments. */
class KeyedPlanTest {
    static final String REVENUE =
            "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok) KEY customer(ck), orders(ok)";
    static final String Q3 =
            "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok) KEY customer(ck), orders(ok)";
    static final String NEXMARK_Q3 =
            "Q(name,city,state,aid) :- auction(aid,seller), person(seller,name,city,state) KEY auction(aid), person(seller)";
    static final String Q10 = "Q(ck,cn,nn) :- customer(ck,cn,nk), orders(ok,ck), lineitem(ok), nation(nk,nn)"
            + " KEY customer(ck), orders(ok), nation(nk)";

    static MaintenancePlan plan(String query) {
        return Planner.plan(QueryParser.parse(query), Semirings.byName("natural"));
    }

    static KeyedPlan keyed(String query) {
        MaintenancePlan p = plan(query);
        assertThat(p).isInstanceOf(KeyedPlan.class);
        return (KeyedPlan) p;
    }

    @Test
    void revenuePerSegmentRunsOnItsClosure() {
        KeyedPlan p = keyed(REVENUE);
        assertThat(p.kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        assertThat(p.query()).isEqualTo(QueryParser.parse(REVENUE));
        assertThat(p.classification().pHierarchical().holds()).isFalse();
        assertThat(p.closedQuery()).hasToString("Q(seg) :- customer(ck,seg), orders(ok,ck,seg), lineitem(ok,ck,seg)");
        assertThat(p.closed().classification().qHierarchical().holds()).isTrue();
        assertThat(p.addedHead()).isEmpty();
        assertThat(p.stage("orders")).isZero();
        assertThat(p.stage("customer")).isEqualTo(1);
        assertThat(p.stage("lineitem")).isEqualTo(-1);
        assertThat(p.explain())
                .startsWith("Query: " + REVENUE + "\n")
                .contains("  Q(seg) is not p-hierarchical, not q-hierarchical, α-acyclic, free-connex\n")
                .contains(String.join(
                        "\n",
                        "Keys relied on (a row that breaks one is rejected): orders(ok), customer(ck)",
                        "Closure under the keys (the head's and the atoms' closure): Q(seg) :- customer(ck,seg),"
                                + " orders(ok,ck,seg), lineitem(ok,ck,seg)",
                        "  orders(ok,ck) gains seg: customer(ck) → seg",
                        "  lineitem(ok) gains ck,seg: orders(ok) → ck, then customer(ck) → seg",
                        "Classification of the closure:",
                        "  Q(seg) is p-hierarchical, q-hierarchical, α-acyclic, free-connex",
                        ""))
                .contains(String.join(
                        "\n",
                        "Key stages (in front of the view trees, in this order; a row that arrives before its key row"
                                + " waits there, O(1), and is released once; a key row that its atoms' selection drops is"
                                + " kept as a mark, and the rows that look it up are dropped):",
                        "  orders(ok): one row per key; adds ck to lineitem(ok)",
                        "  customer(ck): one row per key; adds seg to orders(ok,ck); adds seg to lineitem(ok)",
                        "Plan: p-hierarchical — view trees over natural below the border, Boolean join of the root"
                                + " views above it",
                        ""))
                .endsWith("Guarantee: amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1) on"
                        + " databases where the keys hold (orders(ok), customer(ck); Berkholz, Keppeler, Schweikardt,"
                        + " ICDT 2018); payloads recovered by 1 lookup per result tuple\n");
    }

    @Test
    void tpchQ3AsWrittenRunsOnItsHeadsClosureAndTrustsItsKey() {
        KeyedPlan p = keyed(Q3);
        assertThat(p.closedQuery()).hasToString("Q(ok,od,sp,ck) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok)");
        assertThat(p.addedHead()).containsExactly("ck");
        assertThat(p.enrichments()).isEmpty();
        assertThat(p.keys()).containsExactly(ConjunctiveQuery.Key.of("orders", 0));
        // Nothing looks orders' key up while rows flow: it is trusted, and the plan has no key stage.
        assertThat(p.trusted()).containsExactly(ConjunctiveQuery.Key.of("orders", 0));
        assertThat(p.stages()).isEmpty();
        assertThat(p.explain())
                .contains(String.join(
                        "\n",
                        "Keys trusted (relied on through the head's closure only, so no stage looks them up: not"
                                + " checked, as Flink trusts NOT ENFORCED; IvmOptions.withKeyChecks(true) or --key-checks"
                                + " checks them): orders(ok)",
                        "Keys not relied on (not checked): customer(ck)",
                        "Closure under the keys (the head's closure): Q(ok,od,sp,ck) :- customer(ck),"
                                + " orders(ok,ck,od,sp), lineitem(ok)",
                        "  the head gains ck: orders(ok) → ck",
                        "Classification of the closure:",
                        "  Q(ok,od,sp,ck) is p-hierarchical, not q-hierarchical, α-acyclic, free-connex",
                        ""))
                .doesNotContain("Keys relied on (a row that breaks one is rejected)")
                .doesNotContain("Key stages")
                .contains("Results: Q(ok,od,sp,ck) without ck is Q(ok,od,sp) (one to one where the keys hold)\n")
                .contains("Guarantee: amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1) on"
                        + " databases where the keys hold (orders(ok); ");
        // With key checks, orders gets today's check stage.
        KeyedPlan checked = p.withKeyChecks(true);
        checked.validate();
        assertThat(checked.trusted()).isEmpty();
        assertThat(checked.stages()).containsExactly(KeyStage.of(ConjunctiveQuery.Key.of("orders", 0)));
        assertThat(checked.explain())
                .contains("Keys relied on (a row that breaks one is rejected): orders(ok)\n")
                .doesNotContain("Keys trusted")
                .contains("  orders(ok): one row per key; determines the head's ck\n");
        assertThat(checked.withKeyChecks(false)).isEqualTo(p);
    }

    @Test
    void nexmarkQ3GainsTheSellerInItsHead() {
        KeyedPlan p = keyed(NEXMARK_Q3);
        assertThat(p.addedHead()).containsExactly("seller");
        assertThat(p.keys()).containsExactly(ConjunctiveQuery.Key.of("auction", 0));
        assertThat(p.explain())
                .contains("  the head gains seller: auction(aid) → seller\n")
                .contains("Guarantee: amortized O(1) per insert");
    }

    @Test
    void tpchQ10GainsInTheHeadAndInAnAtom() {
        KeyedPlan p = keyed(Q10);
        assertThat(p.closedQuery())
                .hasToString("Q(ck,cn,nn,nk) :- customer(ck,cn,nk), orders(ok,ck), lineitem(ok,ck), nation(nk,nn)");
        assertThat(p.explain())
                .contains("  the head gains nk: customer(ck) → nk\n")
                .contains("  lineitem(ok) gains ck: orders(ok) → ck\n")
                .contains("Keys not relied on (not checked): nation(nk)\n");
    }

    @Test
    void aQueryThatIsPHierarchicalItselfReliesOnNoKey() {
        MaintenancePlan p = plan("Q(A,C) :- R(A,B), S(A,C) KEY R(A)");
        assertThat(p).isInstanceOf(PHierarchicalPlan.class);
        assertThat(p.explain())
                .contains("Keys: R(A) (not relied on: the plan is exact on every database, and nothing checks them)\n")
                .contains("Guarantee: amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1);");
    }

    @Test
    void keysThatDoNotHelpLeaveTheFallbackAndSaySo() {
        MaintenancePlan p = plan("Q() :- R(a,b), S(b,c), T(c,d), U(d,a) KEY R(a)");
        assertThat(p).isInstanceOf(FallbackPlan.class);
        assertThat(p.explain())
                .contains("  - the keys do not help: the head's and the atoms' closure, Q() :- R(a,b), S(b,c), T(c,d),"
                        + " U(d,a,b), is not p-hierarchical either: bound a and bound d overlap in U(d,a,b)")
                .contains("; nor does absorbing the key tables: the absorbed query, Q() :- S(b,c), T(c,d), U(d,a,b), is"
                        + " not p-hierarchical either: bound b and bound c overlap in S(b,c)");
        assertThat(plan("Q() :- R(a), S(a,b), T(b) KEY S(a,b)").explain())
                .contains("  - the keys do not help: they determine no variable that the head or an atom lacks\n");
        assertThatThrownBy(() -> Planner.plan(
                        QueryParser.parse("Q() :- R(a,b), S(b,c), T(c,d), U(d,a) KEY R(a)"),
                        Semirings.byName("natural"),
                        Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("the keys do not help");
    }

    @Test
    void theFallbackStrategyAndNonPositiveSemiringsIgnoreKeys() {
        ConjunctiveQuery q = QueryParser.parse(REVENUE);
        assertThat(Planner.plan(q, Semirings.byName("natural"), Planner.Strategy.FALLBACK))
                .isInstanceOf(FallbackPlan.class);
        assertThat(Planner.plan(q, Semirings.byName("natural"), Planner.Strategy.P_HIERARCHICAL))
                .isInstanceOf(KeyedPlan.class);
    }

    @Test
    void explainsWithoutKeysDoNotChange() {
        String text = "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok)";
        MaintenancePlan p = plan(text);
        assertThat(p).isInstanceOf(FallbackPlan.class);
        assertThat(p.explain()).doesNotContain("key").doesNotContain("Key");
    }

    @Test
    void isSerializableAndValidates() throws Exception {
        KeyedPlan p = keyed(REVENUE);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(p);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            KeyedPlan back = (KeyedPlan) in.readObject();
            back.validate();
            assertThat(back.explain()).isEqualTo(p.explain());
        }
        assertThatThrownBy(() -> new KeyedPlan(
                        p.query(),
                        p.classification(),
                        p.closure(),
                        List.of(ConjunctiveQuery.Key.of("customer", 0), ConjunctiveQuery.Key.of("orders", 0)),
                        List.of(
                                KeyStage.of(ConjunctiveQuery.Key.of("customer", 0)),
                                KeyStage.of(ConjunctiveQuery.Key.of("orders", 0))),
                        false,
                        p.addedHead(),
                        p.headLookups(),
                        p.absorptions(),
                        p.enrichments(),
                        p.closed(),
                        p.inputs()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pass the key stages in order");
        assertThatThrownBy(() -> new KeyedPlan(
                        p.query(),
                        p.classification(),
                        p.closure(),
                        p.keys(),
                        p.stageOrder(),
                        false,
                        p.addedHead(),
                        p.headLookups(),
                        p.absorptions(),
                        p.enrichments().subList(0, 1),
                        p.closed(),
                        p.inputs()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("an atom without enrichment is unchanged");
    }

    @Test
    void mermaidShowsTheKeyStages() {
        assertThat(keyed(REVENUE).toMermaid())
                .startsWith("flowchart BT\n  k0[\"key stage orders(ok)\"]\n  k1[\"key stage customer(ck)\"]\n")
                .contains("  in2[\"lineitem(ok)\"] -.-> k0\n  k0 -.-> k1\n  k1 -.-> a2\n");
    }
}
