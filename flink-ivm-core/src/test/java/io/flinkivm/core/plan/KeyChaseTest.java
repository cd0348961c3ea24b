package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyChaseTest {

    private static List<KeyChase.Candidate> candidates(String query) {
        return KeyChase.candidates(QueryParser.parse(query));
    }

    @Test
    void aKeyWhoseColumnsHoldVariablesGivesADependency() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B,C), S(C,'x',D), T(E,E,F) KEY R(A,B), S(#0,#1), T(#0,#1)");
        assertThat(KeyDerivation.dependencies(q))
                .containsExactly(
                        new KeyDerivation.Dependency(0, "R", List.of("A", "B"), List.of("C")),
                        // A repeated variable is one key variable.
                        new KeyDerivation.Dependency(2, "T", List.of("E"), List.of("F")));
        // S's key has a constant: 'x' matches 'x' only, but a numeric constant matches 3 and '3', so a
        // constant never stands in a key's columns.
    }

    @Test
    void aKeyThatDeterminesNothingMoreGivesNoDependency() {
        assertThat(KeyDerivation.dependencies(QueryParser.parse("Q(A) :- R(A,B) KEY R(A,B)")))
                .isEmpty();
        assertThat(candidates("Q(A) :- R(A,B) KEY R(A,B)")).isEmpty();
    }

    @Test
    void revenuePerSegmentGainsThroughTwoHops() {
        List<KeyChase.Candidate> c =
                candidates("Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok) KEY customer(ck), orders(ok)");
        assertThat(c).extracting(KeyChase.Candidate::name).containsExactly("the head's and the atoms' closure");
        KeyChase.Candidate repaired = c.get(0);
        assertThat(repaired.closed()).hasToString("Q(seg) :- customer(ck,seg), orders(ok,ck,seg), lineitem(ok,ck,seg)");
        assertThat(repaired.addedHead()).isEmpty();
        assertThat(repaired.enrichments())
                .containsExactly(
                        new Enrichment(
                                1,
                                "orders",
                                List.of("seg"),
                                List.of(new KeyLookup(0, "customer", List.of("ck"), List.of("seg")))),
                        new Enrichment(
                                2,
                                "lineitem",
                                List.of("ck", "seg"),
                                List.of(
                                        new KeyLookup(1, "orders", List.of("ok"), List.of("ck")),
                                        new KeyLookup(0, "customer", List.of("ck"), List.of("seg")))));
        // Orders' rows pass their own stage, then customer's.
        assertThat(repaired.relied())
                .containsExactly(ConjunctiveQuery.Key.of("orders", 0), ConjunctiveQuery.Key.of("customer", 0));
        assertThat(repaired.problem()).isNull();
    }

    @Test
    void theHeadGainsWhatTheFreeVariablesDetermine() {
        List<KeyChase.Candidate> c = candidates(
                "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok) KEY customer(ck), orders(ok)");
        KeyChase.Candidate head = c.get(0);
        assertThat(head.name()).isEqualTo("the head's closure");
        assertThat(head.closed()).hasToString("Q(ok,od,sp,ck) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok)");
        assertThat(head.headLookups()).containsExactly(new KeyLookup(1, "orders", List.of("ok"), List.of("ck")));
        assertThat(head.relied()).containsExactly(ConjunctiveQuery.Key.of("orders", 0));
    }

    @Test
    void aChainOfHeadLookupsKeepsOnlyWhatItNeeds() {
        KeyChase.Candidate head =
                candidates("Q(x) :- E(x,y), E(y,z), F(z,w) KEY E(#0), F(#0)").get(0);
        assertThat(head.addedHead()).containsExactly("y", "z", "w");
        assertThat(head.headLookups())
                .extracting(KeyLookup::toString)
                .containsExactly("E(x) → y", "E(y) → z", "F(z) → w");
    }

    @Test
    void anAtomOfASelfJoinThatGainsIsRenamed() {
        // The repair adds b to R's first atom through S, whose own rows stay as they are.
        KeyChase.Candidate c = candidates("Q() :- R(a), R(b), S(a,b) KEY S(a)").stream()
                .filter(x -> x.name().contains("atoms"))
                .findFirst()
                .orElseThrow();
        assertThat(c.closed()).hasToString("Q() :- R_0(a,b), R(b), S(a,b)");
        assertThat(c.enrichments()).extracting(Enrichment::relation).containsExactly("R_0");
    }

    @Test
    void lookupsThatComeBackToTheirOwnRelationGoThroughACopyOfItsStage() {
        // E(x,y) gains z through E(y,z)'s key: a row of E passes E's stage, then a copy of it.
        KeyChase.Candidate c = candidates("Q() :- E(x,y), E(y,z), F(x,z) KEY E(#0)").stream()
                .filter(x -> !x.enrichments().isEmpty())
                .findFirst()
                .orElseThrow();
        assertThat(c.problem()).isNull();
        assertThat(c.enrichments().get(0).lookups()).extracting(KeyLookup::copy).containsExactly(1);
        assertThat(c.stages())
                .containsExactly(
                        KeyStage.of(ConjunctiveQuery.Key.of("E", 0)), new KeyStage(ConjunctiveQuery.Key.of("E", 0), 1));
    }

    @Test
    void lookupsThatWouldRunInACycleTakeACopy() {
        // R's rows look S up, S's rows look R up: S's lookups go through a copy of R's stage.
        ConjunctiveQuery q = QueryParser.parse("Q() :- R(a,b,x), S(b,a,y) KEY R(a), S(b)");
        List<Enrichment> cyclic = List.of(
                new Enrichment(0, "R", List.of("y"), List.of(new KeyLookup(1, "S", List.of("b"), List.of("y")))),
                new Enrichment(1, "S", List.of("x"), List.of(new KeyLookup(0, "R", List.of("a"), List.of("x")))));
        List<Enrichment> copied = KeyChase.withCopies(q, java.util.Set.of("R", "S"), cyclic);
        assertThat(copied.get(0).lookups().get(0).copy()).isZero();
        assertThat(copied.get(1).lookups().get(0).copy()).isEqualTo(1);
        List<KeyStage> order = new ArrayList<>();
        assertThat(KeyChase.stageOrder(q, List.of(), List.of(), copied, order)).isNull();
        assertThat(order)
                .containsExactly(
                        KeyStage.of(ConjunctiveQuery.Key.of("R", 0)),
                        KeyStage.of(ConjunctiveQuery.Key.of("S", 0)),
                        new KeyStage(ConjunctiveQuery.Key.of("R", 0), 1));
    }

    @Test
    void stagesComeInTheOrderRowsPassThem() {
        List<KeyStage> order = new ArrayList<>();
        ConjunctiveQuery q = QueryParser.parse("Q() :- R(a,b,x), S(b,a,y) KEY R(a), S(b)");
        List<Enrichment> cyclic = List.of(
                new Enrichment(0, "R", List.of("y"), List.of(new KeyLookup(1, "S", List.of("b"), List.of("y")))),
                new Enrichment(1, "S", List.of("x"), List.of(new KeyLookup(0, "R", List.of("a"), List.of("x")))));
        assertThat(KeyChase.stageOrder(q, List.of(), List.of(), cyclic, order))
                .contains("in a cycle through the key stages of R, S");
        // R's rows pass R's stage (the head looks its key up) before S's, where they gain y.
        List<KeyLookup> head = List.of(new KeyLookup(0, "R", List.of("a"), List.of("b")));
        assertThat(KeyChase.stageOrder(q, head, List.of(), cyclic.subList(0, 1), order))
                .isNull();
        assertThat(order)
                .containsExactly(
                        KeyStage.of(ConjunctiveQuery.Key.of("R", 0)), KeyStage.of(ConjunctiveQuery.Key.of("S", 0)));
        order.clear();
        assertThat(KeyChase.stageOrder(q, List.of(), List.of(), cyclic.subList(0, 1), order))
                .isNull();
        assertThat(order).containsExactly(KeyStage.of(ConjunctiveQuery.Key.of("S", 0)));
    }
}
