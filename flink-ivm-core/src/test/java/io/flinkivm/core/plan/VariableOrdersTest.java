package io.flinkivm.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.QueryParser;
import org.junit.jupiter.api.Test;

/** Algorithm 1 (CreateVarOrders) on its own. */
class VariableOrdersTest {

    /** Ex. 16 and 17, Fig. 3 left and middle: B → {D → {E, F}, G} and H; R4(C) is over free variables only. */
    @Test
    void example10GivesTheForestOfFigure3() {
        VariableOrders o = VariableOrders.create(QueryParser.parse(PlannerTest.EX10));
        assertThat(o.roots()).containsExactly("B", "H");
        assertThat(o.children("B")).containsExactly("D", "G");
        assertThat(o.children("D")).containsExactly("E", "F");
        assertThat(o.children("E")).isEmpty();
        assertThat(o.parent("E")).isEqualTo("D");
        assertThat(o.parent("D")).isEqualTo("B");
        assertThat(o.parent("B")).isNull();
        assertThat(o.parent("H")).isNull();
        assertThat(o.pathTo("F")).containsExactly("B", "D", "F");
        // Lines 5-9: R1 under E, R2 under F, R3 under G, R5 under H.
        assertThat(o.atomsUnder("E")).containsExactly(0);
        assertThat(o.atomsUnder("F")).containsExactly(1);
        assertThat(o.atomsUnder("G")).containsExactly(2);
        assertThat(o.atomsUnder("H")).containsExactly(4);
        assertThat(o.atomsUnder("B")).isEmpty();
        assertThat(o.treeAtoms(0)).containsExactly(0, 1, 2);
        assertThat(o.treeAtoms(1)).containsExactly(4);
        assertThat(o.freeOnlyAtoms()).containsExactly(3);
    }

    @Test
    void equalAtomSetsAreOrderedLexicographicallyAndAtomsHangUnderTheLowestVariable() {
        // at(X) = at(Y): X < Y, so Y minimally dominates X; S hangs under Z, R and T under X.
        VariableOrders o = VariableOrders.create(QueryParser.parse("Q(A) :- R(A,Y,X), S(A,Y,X,Z), T(A,X,Y)"));
        assertThat(o.roots()).containsExactly("Y");
        assertThat(o.children("Y")).containsExactly("X");
        assertThat(o.children("X")).containsExactly("Z");
        assertThat(o.atomsUnder("X")).containsExactly(0, 2);
        assertThat(o.atomsUnder("Z")).containsExactly(1);
    }

    @Test
    void treesAreNumberedByTheirFirstAtom() {
        VariableOrders o = VariableOrders.create(QueryParser.parse("Q() :- S(Y), R(X), T(X), U(Y)"));
        assertThat(o.roots()).containsExactly("Y", "X");
        assertThat(o.treeAtoms(0)).containsExactly(0, 3);
        assertThat(o.treeAtoms(1)).containsExactly(1, 2);
    }

    @Test
    void aQueryThatIsNotPHierarchicalViolatesLemma22() {
        assertThatThrownBy(() -> VariableOrders.create(QueryParser.parse("Q() :- R(X), S(X,Y), T(Y)")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Lemma 22 violated");
    }
}
