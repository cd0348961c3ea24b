package io.flinkivm.core.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.QueryParser;
import org.junit.jupiter.api.Test;

class QueryClassifierTest {

    private static Classification classify(String query) {
        return QueryClassifier.classify(QueryParser.parse(query));
    }

    @Test
    void example9BooleanQ1ViolatesCondition1AndIsNotHierarchical() {
        Classification c = classify("Q1() :- R(X), S(X,Y), T(Y)");
        assertThat(c.pHierarchical().holds()).isFalse();
        assertThat(c.pHierarchical().witness())
                .isEqualTo("bound X and bound Y overlap in S(X,Y) but neither's atoms"
                        + " contain the other's: R(X) has X but not Y, T(Y) has Y but not X; see Def. 8 (1)");
        assertThat(c.hierarchical().holds()).isFalse();
        assertThat(c.hierarchical().witness())
                .isEqualTo("variables X and Y overlap in S(X,Y) but neither's atoms"
                        + " contain the other's: at(X) = {R(X), S(X,Y)}, at(Y) = {S(X,Y), T(Y)}");
        assertThat(c.qHierarchical().holds()).isFalse();
        assertThat(c.qHierarchical().witness()).startsWith("not hierarchical: variables X and Y overlap in S(X,Y)");
        assertThat(c.alphaAcyclic().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isTrue();
    }

    @Test
    void example9Q2ViolatesCondition2AndIsHierarchicalButNotQHierarchical() {
        Classification c = classify("Q2(X) :- S(X,Y), T(Y)");
        assertThat(c.pHierarchical().holds()).isFalse();
        assertThat(c.pHierarchical().witness())
                .isEqualTo(
                        "bound Y and free X share atom S(X,Y) but at(Y) ⊄ at(X): T(Y) has Y but not X; see Def. 8 (2)");
        assertThat(c.hierarchical()).isEqualTo(Verdict.yes());
        assertThat(c.qHierarchical().holds()).isFalse();
        assertThat(c.qHierarchical().witness())
                .isEqualTo("free X and bound Y: at(X) ⊊ at(Y), with"
                        + " at(X) = {S(X,Y)} and at(Y) = {S(X,Y), T(Y)}; see Def. 7 (2)");
        assertThat(c.alphaAcyclic().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isTrue();
    }

    @Test
    void example9FullQ1IsPHierarchicalButNotQHierarchical() {
        Classification c = classify("Q1full(X,Y) :- R(X), S(X,Y), T(Y)");
        assertThat(c.pHierarchical().holds()).isTrue();
        assertThat(c.qHierarchical().holds()).isFalse();
        assertThat(c.qHierarchical().witness()).contains("variables X and Y overlap in S(X,Y)");
        assertThat(c.alphaAcyclic().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isTrue();
    }

    @Test
    void example10GoldenDescription() {
        Classification c = classify("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)");
        String notHierarchical = "variables A and C overlap in R5(A,C,H) but neither's atoms contain the other's:"
                + " at(A) = {R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R5(A,C,H)}, at(C) = {R4(C), R5(A,C,H)}";
        assertThat(c.describe())
                .isEqualTo(String.join(
                        "\n",
                        "Q(A,C) is p-hierarchical, not q-hierarchical, α-acyclic, free-connex",
                        "hierarchical: no — " + notHierarchical,
                        "q-hierarchical: no — not hierarchical: " + notHierarchical,
                        "p-hierarchical: yes",
                        "α-acyclic: yes",
                        "free-connex: yes"));
        assertThat(c.summary()).isEqualTo("p-hierarchical, not q-hierarchical, α-acyclic, free-connex");
    }

    @Test
    void pathQueryIsNotPHierarchicalAndNotFreeConnex() {
        Classification c = classify("P(A,D) :- R(A,B), S(B,C), T(C,D)");
        assertThat(c.pHierarchical().holds()).isFalse();
        assertThat(c.pHierarchical().witness())
                .isEqualTo("bound B and bound C overlap in S(B,C) but neither's atoms"
                        + " contain the other's: R(A,B) has B but not C, T(C,D) has C but not B; see Def. 8 (1)");
        assertThat(c.alphaAcyclic().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isFalse();
        assertThat(c.freeConnex().witness())
                .isEqualTo("adding an atom over the free variables {A,D} makes the query"
                        + " cyclic: GYO leaves R(A,B), S(B,C), T(C,D), the added atom over {A,D}; see Def. 6");
        assertThat(c.describe())
                .startsWith("P(A,D) is not p-hierarchical, not q-hierarchical, α-acyclic," + " not free-connex\n");
    }

    @Test
    void booleanPathQueryIsNotPHierarchicalButFreeConnex() {
        Classification c = classify("P() :- R(A,B), S(B,C), T(C,D)");
        assertThat(c.pHierarchical().holds()).isFalse();
        assertThat(c.pHierarchical().witness())
                .startsWith("bound B and bound C overlap in S(B,C)")
                .endsWith("see Def. 8 (1)");
        assertThat(c.hierarchical().holds()).isFalse();
        assertThat(c.alphaAcyclic().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isTrue();
        assertThat(c.describe()).startsWith("P() is not p-hierarchical, not q-hierarchical, α-acyclic, free-connex\n");
    }

    @Test
    void triangleIsCyclicButPHierarchicalAsAFullQuery() {
        Classification c = classify("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)");
        assertThat(c.alphaAcyclic().holds()).isFalse();
        assertThat(c.alphaAcyclic().witness()).isEqualTo("cyclic: GYO reduction leaves R(A,B), S(B,C), T(A,C)");
        assertThat(c.pHierarchical().holds()).isTrue();
        assertThat(c.hierarchical().holds()).isFalse();
        assertThat(c.qHierarchical().holds()).isFalse();
        assertThat(c.freeConnex().holds()).isFalse();
        assertThat(c.freeConnex().witness()).isEqualTo("not α-acyclic: GYO reduction leaves R(A,B), S(B,C), T(A,C)");
        assertThat(c.describe())
                .startsWith("Q(A,B,C) is p-hierarchical, not q-hierarchical, not α-acyclic, not free-connex\n");
    }

    @Test
    void cyclicWitnessNamesOnlyTheAtomsLeftByGyo() {
        Classification c = classify("Q() :- U(Z), R(A,B), S(B,C), T(A,C), V(C,Z)");
        assertThat(c.alphaAcyclic().witness()).isEqualTo("cyclic: GYO reduction leaves R(A,B), S(B,C), T(A,C)");
    }

    @Test
    void qHierarchicalQueryHasEveryClass() {
        Classification c = classify("Q(A,B) :- R(A,B,C), S(A,B,D), T(A,E)");
        assertThat(c)
                .isEqualTo(new Classification(
                        Verdict.yes(), Verdict.yes(), Verdict.yes(), Verdict.yes(), Verdict.yes(), "Q(A,B)"));
        assertThat(c.describe())
                .isEqualTo(String.join(
                        "\n",
                        "Q(A,B) is p-hierarchical, q-hierarchical, α-acyclic, free-connex",
                        "hierarchical: yes",
                        "q-hierarchical: yes",
                        "p-hierarchical: yes",
                        "α-acyclic: yes",
                        "free-connex: yes"));
    }

    @Test
    void selfJoinAtomsCountSeparately() {
        Classification c = classify("P(A,C) :- E(A,B), E(B,C)");
        assertThat(c.pHierarchical().witness())
                .isEqualTo(
                        "bound B and free A share atom E(A,B) but at(B) ⊄ at(A): E(B,C) has B but not A; see Def. 8 (2)");
        assertThat(c.alphaAcyclic().holds()).isTrue();
    }

    @Test
    void constantsAndRepeatedVariablesAreIgnored() {
        Classification c = classify("Q(A) :- R(A,'x',B,B), S(A,B,3)");
        assertThat(c.qHierarchical().holds()).isTrue();
        assertThat(c.pHierarchical().holds()).isTrue();
        assertThat(c.freeConnex().holds()).isTrue();
    }

    @Test
    void crossProductsAndNullaryAtomsAreFine() {
        Classification c = classify("Q(A,B) :- R(A), S(B), Flag()");
        assertThat(c.summary()).isEqualTo("p-hierarchical, q-hierarchical, α-acyclic, free-connex");
        Classification count = classify("Count() :- R(X,Y), S(X)");
        assertThat(count.summary()).isEqualTo("p-hierarchical, q-hierarchical, α-acyclic, free-connex");
    }
}
