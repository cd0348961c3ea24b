package io.flinkivm.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryParserTest {

    /**
     * Parses {@code marked}, a query text with one '^' before the offending character, and checks that
     * the parser fails there with a message containing {@code expected}.
     */
    private static InvalidQueryException fails(String marked, String expected) {
        int caret = marked.indexOf('^');
        assertThat(caret).as("marker ^ in %s", marked).isNotNegative();
        String text = marked.substring(0, caret) + marked.substring(caret + 1);
        InvalidQueryException e = catchThrowableOfType(InvalidQueryException.class, () -> QueryParser.parse(text));
        assertThat(e).as("parse error for %s", text).isNotNull();
        assertThat(e.position()).as("position in %s", text).isEqualTo(caret);
        assertThat(e).hasMessageContaining(expected).hasMessageContaining("at position " + caret + " ");
        return e;
    }

    private static Atom atom(int index, String relation, Term... terms) {
        return new Atom(index, relation, List.of(terms));
    }

    private static Variable v(String name) {
        return new Variable(name);
    }

    @Test
    void parsesTheRunningExample() {
        ConjunctiveQuery q = QueryParser.parse("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)");
        assertThat(q.name()).isEqualTo("Q");
        assertThat(q.head()).containsExactly("A", "C");
        assertThat(q.body()).hasSize(5);
        assertThat(q.body().get(0)).isEqualTo(atom(0, "R1", v("A"), v("B"), v("D"), v("E")));
        assertThat(q.body().get(4)).isEqualTo(atom(4, "R5", v("A"), v("C"), v("H")));
        assertThat(q.bound()).containsExactly("B", "D", "E", "F", "G", "H");
    }

    @Test
    void acceptsWhitespaceAnywhereAndATrailingDot() {
        ConjunctiveQuery q = QueryParser.parse(" \n Q ( A , B )\t:-\n  R ( A , B ) ,S(B)  .  \n");
        assertThat(q).isEqualTo(QueryParser.parse("Q(A,B) :- R(A,B), S(B)"));
    }

    @Test
    void emptyHeadAndNullaryAtoms() {
        ConjunctiveQuery q = QueryParser.parse("Count() :- R(X), Flag()");
        assertThat(q.head()).isEmpty();
        assertThat(q.body().get(1)).isEqualTo(atom(1, "Flag"));
        assertThat(q.body().get(1).arity()).isZero();
        assertThat(q.bound()).containsExactly("X");
    }

    @Test
    void selfJoinsAreSeparateAtoms() {
        ConjunctiveQuery q = QueryParser.parse("P(A,C) :- E(A,B), E(B,C)");
        assertThat(q.body()).containsExactly(atom(0, "E", v("A"), v("B")), atom(1, "E", v("B"), v("C")));
        assertThat(q.hasSelfJoin()).isTrue();
        assertThat(q.relations()).containsExactly("E");
    }

    @Test
    void constantsAndRepeatedVariablesAreSelections() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A, 'x', 42, -3.25, A, 'it''s', '')");
        assertThat(q.body().get(0).terms())
                .containsExactly(
                        v("A"),
                        new Constant("x", true),
                        new Constant("42", false),
                        new Constant("-3.25", false),
                        v("A"),
                        new Constant("it's", true),
                        new Constant("", true));
        assertThat(q.body().get(0).variables()).containsExactly("A");
        assertThat(q.body().get(0).match(Tuple.of(1L, "x", 42L, -3.25, 1L, "it's", "")))
                .isEqualTo(Tuple.of(1L));
        assertThat(q.body().get(0).match(Tuple.of(1L, "x", 42L, -3.25, 2L, "it's", "")))
                .isNull();
    }

    @Test
    void identifiersMayHaveUnderscoresAndDigits() {
        ConjunctiveQuery q = QueryParser.parse("_q1(x_2) :- edge_3(x_2, _)");
        assertThat(q.name()).isEqualTo("_q1");
        assertThat(q.body().get(0)).isEqualTo(atom(0, "edge_3", v("x_2"), v("_")));
    }

    @Test
    void roundTripsThroughToString() {
        for (String text : List.of(
                "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)",
                "Q1() :- R(X), S(X,Y), T(Y)",
                "P(A,C) :- E(A,B), E(B,C)",
                "Q(A) :- R(A,'x',42,-3.25,A,'it''s',''), N()",
                "Q(A, B) :- R(A, B) .")) {
            ConjunctiveQuery q = QueryParser.parse(text);
            assertThat(QueryParser.parse(q.toString())).as(text).isEqualTo(q);
        }
        assertThat(QueryParser.parse("Q(A) :- R(A, 'it''s')").toString()).isEqualTo("Q(A) :- R(A,'it''s')");
    }

    @Test
    void syntaxErrorsNameThePositionAndWhatWasExpected() {
        fails("Q(A) :- R(A ^B)", "expected ')' or ',' at position 12 (line 1, column 13) but found 'B'");
        fails("Q(A ^:- R(A)", "expected ')' or ','");
        fails("^(A) :- R(A)", "expected a query name");
        fails("Q ^:- R(A)", "expected '(' at position 2 (line 1, column 3) but found ':'");
        fails("Q(^,A) :- R(A)", "expected a variable or ')'");
        fails("Q(A,^) :- R(A)", "expected a variable");
        fails("Q(A) ^<- R(A)", "expected ':-' at position 5 (line 1, column 6) but found '<'");
        fails("Q(A) ^: R(A)", "expected ':-'");
        fails("Q(A) :- ^", "expected a relation name at position 8 (line 1, column 9) but found end of input");
        fails("Q(A) :- R ^A", "expected '(' at position 10 (line 1, column 11) but found 'A'");
        fails("Q(A) :- R(^,A)", "expected a variable, a constant or ')' at position 10");
        fails("Q(A) :- R(A,^)", "expected a variable or a constant at position 12 (line 1, column 13) but found ')'");
        fails(
                "Q(A) :- R(A) ^S(A)",
                "expected ',', '.', KEY or end of input at position 13 (line 1, column 14) but found 'S'");
        fails("Q(A) :- R(A), ^", "expected a relation name");
        fails("Q(A) :- R(A). ^S(A)", "expected end of input");
        fails("Q(A) :- R(A, -^x)", "expected a digit");
        fails("Q(A) :- R(A, 1^.)", "expected ')' or ',' at position 14 (line 1, column 15) but found '.'");
        fails("Q(A) :- R(A, ^'abc)", "expected a closing quote for this string constant");
        fails("Q(A) :- R(A, ^\"x\")", "found '\"'");
    }

    @Test
    void errorMessageShowsTheLineWithACaret() {
        InvalidQueryException e = fails("Q(A) :- R(A ^B)", "expected ')' or ','");
        assertThat(e.getMessage())
                .isEqualTo(String.join(
                        "\n",
                        "expected ')' or ',' at position 12 (line 1, column 13) but found 'B'",
                        "Q(A) :- R(A B)",
                        "            ^"));
    }

    @Test
    void errorOnALaterLineCountsLinesAndColumns() {
        InvalidQueryException e = fails("Q(A) :-\n  R(A),\n  S(A ^B)", "expected ')' or ','");
        assertThat(e.getMessage())
                .isEqualTo(String.join(
                        "\n",
                        "expected ')' or ',' at position 22 (line 3, column 7) but found 'B'",
                        "  S(A B)",
                        "      ^"));
    }

    @Test
    void constantInTheHeadIsAnError() {
        fails("Q(A, ^'x') :- R(A, 'x')", "the constant 'x'; the head lists free variables only");
        fails("Q(^3) :- R(A)", "expected a variable at position 2 (line 1, column 3) but found the constant 3");
    }

    @Test
    void semanticErrorsComeFromTheQueryModel() {
        assertThatThrownBy(() -> QueryParser.parse("Q(A,Z) :- R(A,B)"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("head variable Z does not occur in the body");
        assertThatThrownBy(() -> QueryParser.parse("Q(A,A) :- R(A,B)"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("head variable A appears twice");
        assertThatThrownBy(() -> QueryParser.parse("Q(A) :- R(A,B), R(A)"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("relation R is used with arity 2 and with arity 1");
    }

    @Test
    void keysNameColumnsByVariableOrByPosition() {
        ConjunctiveQuery q =
                QueryParser.parse("Q(S) :- customer(K,S), orders(O,K), lineitem(O) KEY customer(K), orders(O)");
        assertThat(q.keys())
                .containsExactly(ConjunctiveQuery.Key.of("customer", 0), ConjunctiveQuery.Key.of("orders", 0));
        assertThat(QueryParser.parse("Q(S) :- customer(K,S), orders(O,K) key orders(#0), customer(#0).")
                        .keys())
                .containsExactly(ConjunctiveQuery.Key.of("customer", 0), ConjunctiveQuery.Key.of("orders", 0));
        assertThat(QueryParser.parse("Q(A) :- R(A,B,C) KEY R(C,A)").keys())
                .containsExactly(ConjunctiveQuery.Key.of("R", 0, 2));
        assertThat(QueryParser.parse("Q() :- Config(X) KEY Config()").keys())
                .containsExactly(ConjunctiveQuery.Key.of("Config"));
        // A variable named like the keyword is a variable; KEY is a keyword only after the body.
        assertThat(QueryParser.parse("Q(KEY) :- R(KEY) KEY R(KEY)").keys())
                .containsExactly(ConjunctiveQuery.Key.of("R", 0));
    }

    @Test
    void keysResolveInTheFirstAtomThatHasTheirVariablesOnce() {
        assertThat(QueryParser.parse("Q(x) :- E(x,y), E(y,z) KEY E(x)").keys())
                .containsExactly(ConjunctiveQuery.Key.of("E", 0));
        // x is twice in R(x,x,y): it names column 1, where R(y,x,z) has it once.
        assertThat(QueryParser.parse("Q(x) :- R(x,x,y), R(y,x,z) KEY R(x)").keys())
                .containsExactly(ConjunctiveQuery.Key.of("R", 1));
    }

    @Test
    void keysRoundTripThroughToString() {
        for (String text : List.of(
                "Q(S) :- customer(K,S), orders(O,K), lineitem(O) KEY customer(K), orders(O)",
                "Q(x) :- E(x,y), E(y,z) KEY E(#1)",
                "Q(x) :- E(x,y), E(y,x) KEY E(#0)",
                "Q(A) :- R(A,'x',B) KEY R(#0,#1)",
                "Q() :- Config(X) KEY Config()")) {
            ConjunctiveQuery q = QueryParser.parse(text);
            assertThat(QueryParser.parse(q.toString())).as(text).isEqualTo(q);
        }
        assertThat(QueryParser.parse("Q(x) :- E(x,y), E(y,z) KEY E(#0)").toString())
                .isEqualTo("Q(x) :- E(x,y), E(y,z) KEY E(x)");
        // y is column 1 of E(x,y) and column 0 of E(y,z): ambiguous by name, so written by column.
        assertThat(QueryParser.parse("Q(x) :- E(x,y), E(y,z) KEY E(#1)").toString())
                .isEqualTo("Q(x) :- E(x,y), E(y,z) KEY E(#1)");
        assertThat(QueryParser.parse("Q(A) :- R(A,'x',B) KEY R(#0,#1)").toString())
                .isEqualTo("Q(A) :- R(A,'x',B) KEY R(#0,#1)");
    }

    @Test
    void keyErrorsNameThePosition() {
        fails("Q(A) :- R(A) KEY ^S(A)", "KEY names relation S, which the body does not use");
        fails("Q(A) :- R(A,B) KEY R(A), ^R(B)", "relation R has two keys");
        fails("Q(A) :- R(A,B) KEY ^R(C)", "variable C occurs in no atom of R");
        fails("Q(A) :- R(A,A) KEY ^R(A)", "no atom of R has each of A exactly once");
        fails("Q(A) :- R(A,B), R(B,A) KEY ^R(A)", "is ambiguous: it is column 0 of R(A,B) but column 1 of R(B,A)");
        fails("Q(A) :- R(A,B) KEY R(^#2)", "column #2 of a key of R, which has arity 2");
        fails("Q(A) :- R(A,B) KEY R(#0,^B)", "by variable or by position, not both");
        fails("Q(A) :- R(A,B) KEY R(A,^A)", "variable A appears twice in the key of R");
        fails("Q(A) :- R(A,B) KEY R(#1,^#1)", "column #1 appears twice");
        fails("Q(A) :- R(A,B) KEY R(#^x)", "expected a column number after '#'");
        fails("Q(A) :- R(A,B) KEY R(A) ^S(B)", "expected ',', '.' or end of input");
        fails("Q(A) :- R(A,B) KEY R(A), ^", "expected a relation name");
    }

    @Test
    void nullTextIsRejected() {
        assertThatThrownBy(() -> QueryParser.parse(null)).isInstanceOf(NullPointerException.class);
    }
}
