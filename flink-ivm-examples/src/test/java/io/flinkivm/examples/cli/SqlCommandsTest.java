package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code explain --sql} and {@code run --sql}: the translation, refusals with exit code 2, the output header. */
class SqlCommandsTest {
    static final String SCHEMA = "customer(ck BIGINT, seg STRING); orders(ok BIGINT, ck BIGINT, total DECIMAL(10, 2))";
    static final String SQL = "SELECT o.ck AS customer, SUM(o.total) AS spent FROM customer c JOIN orders o"
            + " ON c.ck = o.ck WHERE c.seg = 'BUILDING' GROUP BY o.ck";

    @Test
    void explainPrintsTheTranslationThenThePlan() {
        CliRun r = CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("SQL translation:\n  query:    Q(ck) :- customer(ck), orders(ck)\n"
                        + "  semiring: product(natural,integer,natural) (SUM(o.total))\n");
        assertThat(r.out())
                .contains(
                        "customer (alias c), where seg = 'BUILDING'",
                        "orders: columns ck, total",
                        "c1 = total in units of 10^-2, c2 = 1 where total IS NOT NULL",
                        "result:   customer BIGINT = ck, spent DECIMAL(38, 2) = c1/10^2, NULL if c2 = 0");
        // Then the plan of that query over that semiring.
        assertThat(r.out())
                .contains("\nQuery: Q(ck) :- customer(ck), orders(ck)\nSemiring: product(natural,integer,natural)")
                .contains("Guarantee: amortized O(1) per insert");
    }

    @Test
    void explainSaysWhenAQueryIsNotPHierarchical() {
        CliRun r = CliRun.of(
                "explain",
                "--sql",
                "SELECT c.seg, COUNT(*) FROM customer c JOIN orders o ON c.ck = o.ck" + " GROUP BY c.seg",
                "--schema",
                SCHEMA);
        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Q(seg) :- customer(ck,seg), orders(ck)",
                        "p-hierarchical: no — bound ck and free seg",
                        "Plan: fallback");
    }

    @Test
    void sqlOutsideTheSubsetExitsWith2() {
        CliRun r = CliRun.of(
                "explain",
                "--sql",
                "SELECT o.ck, COUNT(*) FROM orders o, customer c WHERE o.ok < c.ck GROUP BY o.ck",
                "--schema",
                SCHEMA);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("unsupported SQL: the condition o.ok < c.ck across the tables o and c at line 1, column 55"
                        + " is not supported")
                .contains("flink-ivm maintains SELECT [DISTINCT]");
        CliRun unknown = CliRun.of("explain", "--sql", "SELECT x FROM orders", "--schema", SCHEMA);
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err())
                .startsWith("invalid SQL: column x not found in any table of FROM (orders) at line 1," + " column 8");
        assertThat(CliRun.of("explain", "--sql", SQL, "--schema", "customer(ck BIGINT")
                        .exitCode())
                .isEqualTo(2);
        assertThat(CliRun.of("explain", "--sql", SQL).exitCode()).isEqualTo(2);
        assertThat(CliRun.of("explain", "--sql", SQL, "--schema", SCHEMA, "--semiring", "boolean")
                        .exitCode())
                .isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"memory", "flink"})
    void runWritesTheSelectListsRows(String engine, @TempDir Path dir) throws IOException {
        Path in = dir.resolve("in.csv");
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");
        Files.writeString(
                in,
                String.join(
                                "\n",
                                "customer,1,BUILDING",
                                "customer,2,MACHINERY",
                                "orders,10,1,5.50",
                                "orders,11,1,4.00",
                                "orders,12,2,7.25",
                                "orders,13,1,-1.00",
                                "orders,14,1,abc",
                                "lineitem,1,2",
                                "customer,3,BUILDING",
                                "orders,15,3,0.01")
                        + "\n");
        CliRun r = CliRun.of(
                "run",
                "--sql",
                SQL,
                "--schema",
                SCHEMA,
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString(),
                "--engine",
                engine);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 8, rejected: 2");
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("customer,spent");
        assertThat(lines.subList(1, lines.size())).containsExactlyInAnyOrder("1,8.50", "3,0.01");
        assertThat(Files.readString(dead))
                .contains(
                        "7,\"column total of orders: 'abc' is not" + " a DECIMAL(10, 2) value",
                        "8,\"unknown table 'lineitem'; the query reads customer, orders");
    }

    static final String ABSORBED = "SELECT l.l_shipmode, COUNT(*) AS n FROM orders AS o JOIN lineitem AS l"
            + " ON l.l_orderkey = o.o_orderkey WHERE o.o_priority = '1-URGENT' GROUP BY l.l_shipmode";
    static final String ABSORBED_SCHEMA = "orders(o_orderkey BIGINT, o_priority STRING, PRIMARY KEY (o_orderkey));"
            + " lineitem(l_orderkey BIGINT, l_shipmode STRING)";

    /**
     * TPC-H Q12's shape: orders folded into lineitem. An order that the filter drops is its key stage's
     * mark (lineitems that look it up are dropped); a second order with one key is rejected.
     */
    @ParameterizedTest
    @ValueSource(strings = {"memory", "flink"})
    void runFoldsAKeyTableIntoTheRowsThatLookItUp(String engine, @TempDir Path dir) throws IOException {
        Path in = dir.resolve("in.csv");
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");
        Files.writeString(
                in,
                String.join(
                                "\n",
                                "lineitem,1,AIR",
                                "lineitem,1,RAIL",
                                "lineitem,2,AIR",
                                "orders,1,1-URGENT",
                                "orders,2,5-LOW",
                                "lineitem,2,RAIL",
                                "lineitem,3,AIR",
                                "orders,1,1-URGENT")
                        + "\n");
        assertThat(CliRun.of("explain", "--sql", ABSORBED, "--schema", ABSORBED_SCHEMA)
                        .out())
                .contains("  orders(o_orderkey) folded into lineitem by o_orderkey; payload taken by lineitem\n");
        CliRun r = CliRun.of(
                "run",
                "--sql",
                ABSORBED,
                "--schema",
                ABSORBED_SCHEMA,
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString(),
                "--engine",
                engine);
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines.subList(1, lines.size())).containsExactlyInAnyOrder("AIR,1", "RAIL,1");
        assertThat(Files.readString(dead))
                .contains("8,", "breaks KEY orders(o_orderkey)", "is absorbed into the rows that look it up");
    }
}
