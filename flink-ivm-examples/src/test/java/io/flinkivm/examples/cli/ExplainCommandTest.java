package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import org.junit.jupiter.api.Test;

class ExplainCommandTest {

    static final String EX10 = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";

    @Test
    void explainsExample10AsPHierarchicalButNotQHierarchical() {
        CliRun r = CliRun.of("explain", "--query", EX10);

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Q(A,C) is p-hierarchical, not q-hierarchical",
                        "p-hierarchical: yes",
                        "not q-hierarchical",
                        "Plan: p-hierarchical",
                        "root view V[A,C]",
                        "Boolean join tree");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void endsWithTheFlinkJobAtTheGivenParallelism() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--parallelism", "4");

        assertThat(r.exitCode()).isZero();
        String job = r.out().substring(r.out().indexOf("Flink job:\n"));
        assertThat(job.lines().skip(1))
                .containsExactly(
                        "  ingest Q (validate, route, epochs): parallelism 4, one per input, in its chain: forward from a"
                                + " source at the same parallelism, else rebalance",
                        "  tree 0 V[A] (views V[A,B], V[A,B,D]): parallelism 4, hash(A)",
                        "  Boolean join + payload recovery (sink): parallelism 4, shares A=2 C=2 (4 cells; replication: V[A] 2,"
                                + " V[A,C] 1, R4(C) 2); V[A,C], R4(C) straight from the ingest (no state below the root);"
                                + " epoch ends: broadcast from the ingest",
                        "  exchanges per row:",
                        "    R1(A,B,D,E): 2 exchanges (tree 0, sink)",
                        "    R2(A,B,D,F): 2 exchanges (tree 0, sink)",
                        "    R3(A,B,G): 2 exchanges (tree 0, sink)",
                        "    R4(C): 1 exchange (sink)",
                        "    R5(A,C,H): 1 exchange (sink)");
        assertThat(CliRun.of("explain", "--query", EX10).out())
                .contains("Flink job:\n", "hash(A)\n", "(sink): parallelism 1, shares none (1 cell;");
    }

    static final String TPCH = "Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)";

    static final String Q3 =
            "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok) KEY customer(ck), orders(ok)";

    @Test
    void keysThatOnlyTheHeadsClosureReliesOnAreTrustedUnlessKeyChecksAsk() {
        CliRun trusted = CliRun.of("explain", "--query", Q3);
        assertThat(trusted.exitCode()).isZero();
        assertThat(trusted.out())
                .contains("Keys trusted (relied on through the head's closure only, so no stage looks them up: not"
                        + " checked, as Flink trusts NOT ENFORCED; IvmOptions.withKeyChecks(true) or --key-checks"
                        + " checks them): orders(ok)\n")
                .doesNotContain("key stage");
        CliRun checked = CliRun.of("explain", "--query", Q3, "--key-checks");
        assertThat(checked.exitCode()).isZero();
        assertThat(checked.out())
                .contains("Keys relied on (a row that breaks one is rejected): orders(ok)\n")
                .doesNotContain("Keys trusted")
                .contains("  key stage orders(ok) (check the key): parallelism 1, hash(ok)\n");
    }

    @Test
    void aStateTtlIsSaidInTheFlinkJobSectionAndRunRefusesItInMemory() {
        CliRun r = CliRun.of("explain", "--query", "Q(A,C) :- R(A,B), S(A,C)", "--state-ttl", "12 h");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("  state TTL 12 h: entries of views, key stages and row checks expire 12 h after their"
                        + " last write; a sink key's whole state goes 12 h to 1.5 times that after its last update"
                        + " (results may change)\n");
        assertThat(CliRun.of("explain", "--query", "Q(A,C) :- R(A,B), S(A,C)").out())
                .doesNotContain("state TTL");
        CliRun negative = CliRun.of("explain", "--query", "Q(A,C) :- R(A,B), S(A,C)", "--state-ttl", "0");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("the duration must be positive, got '0'");
        CliRun memory = CliRun.of(
                "run",
                "--query",
                "Q(A,C) :- R(A,B), S(A,C)",
                "--semiring",
                "natural",
                "--engine",
                "memory",
                "--state-ttl",
                "1 h",
                "--input",
                "in.csv",
                "--output",
                "out.csv");
        assertThat(memory.exitCode()).isEqualTo(2);
        assertThat(memory.err())
                .contains("--state-ttl applies to --engine flink only: the in-memory engine keeps all state");
    }

    @Test
    void explainsTheAbsorbedKeyTablesOfASnowflake() {
        CliRun r = CliRun.of(
                "explain",
                "--query",
                "Q() :- shipment(c,p,o), item_return(o), orders(o,r), product(p), carrier(c), region(r)"
                        + " KEY orders(o), product(p), carrier(c), region(r)");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains("  region(r) folded into orders by r; payload taken by shipment\n")
                .contains("Closure under the keys (the absorbed query): Q() :- shipment(c,p,o), item_return(o)\n")
                .contains("  key stage region(r) (check the key, keep the absorbed rows; look up the payload for"
                        + " shipment(c,p,o)): parallelism 1, hash(r)\n")
                .contains("on databases where the keys hold");
    }

    @Test
    void relationRatesSizeTheSinksShares() {
        CliRun r = CliRun.of(
                "explain",
                "--query",
                TPCH,
                "--parallelism",
                "4",
                "--relation-rates",
                "Customer=150000, Orders=1500000,Lineitem=6.001215e6");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains("  Boolean join + payload recovery (sink): parallelism 4, shares O=4 (4 cells; replication:"
                        + " V[C] 4, V[O,C] 1, V[O] 1; shares for the relation rates Customer=150000 Orders=1500000"
                        + " Lineitem=6001215: a cell expects 26.5% of the updates);");
        assertThat(CliRun.of("explain", "--query", TPCH, "--parallelism", "4").out())
                .contains("shares O=2 C=2 (4 cells; replication: V[C] 2, V[O,C] 1, V[O] 2);");
    }

    @Test
    void relationRatesMustNameTheQuerysRelations() {
        CliRun missing =
                CliRun.of("explain", "--query", TPCH, "--relation-rates", "Customer=1,Orders=2", "--format", "mermaid");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err())
                .contains("--relation-rates: relation rates must name every relation of Revenue (Customer, Orders,"
                        + " Lineitem) and no other; missing: Lineitem");
        assertThat(missing.out()).isEmpty();

        CliRun negative = CliRun.of("explain", "--query", TPCH, "--relation-rates", "Customer=1,Orders=-2,Lineitem=3");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("the rate of Orders must be a positive number, got -2");

        CliRun malformed = CliRun.of("explain", "--query", TPCH, "--relation-rates", "Customer");
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.err()).contains("'Customer' is not RELATION=RATE");

        CliRun twice = CliRun.of("explain", "--query", TPCH, "--relation-rates", "Customer=1,Customer=2");
        assertThat(twice.exitCode()).isEqualTo(2);
        assertThat(twice.err()).contains("relation Customer has two rates");
    }

    @Test
    void aParallelismBelowOneIsAUsageError() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--parallelism", "0");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--parallelism must be at least 1, got 0");
    }

    @Test
    void printsMermaid() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--format", "mermaid");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).startsWith("flowchart BT").contains("border");
    }

    @Test
    void fallbackOnRequest() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--plan", "fallback", "--semiring", "min-plus");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Semiring: min-plus", "Plan: fallback", "the fallback plan was requested");
    }

    @Test
    void malformedQueryNamesThePosition() {
        CliRun r = CliRun.of("explain", "--query", "Q(A,C) :- R1(A,,B)");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("invalid query", "at position 15 (line 1, column 16)", "but found ','");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknownSemiringIsAUsageError() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--semiring", "tropical");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown semiring 'tropical'", "natural", "covariance:<m>");
    }

    @Test
    void unsupportedPlanIsAUsageError() {
        CliRun r = CliRun.of("explain", "--query", "Q(A,C) :- R(A,B), S(B,C)", "--plan", "p-hierarchical");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unsupported plan", "not p-hierarchical", "fallback");
    }

    @Test
    void unknownPlanStrategyIsAUsageError() {
        CliRun r = CliRun.of("explain", "--query", EX10, "--plan", "fastest");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--plan", "auto, p-hierarchical, fallback");
    }

    @Test
    void missingQueryIsAUsageError() {
        CliRun r = CliRun.of("explain");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--query");
    }
}
