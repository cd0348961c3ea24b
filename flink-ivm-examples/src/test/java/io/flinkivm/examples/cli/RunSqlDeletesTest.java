package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code run --sql} with change kinds (+I, -D, -U, +U) on both engines (Flink at parallelism 1 and 2),
 * against an oracle that evaluates the SQL over the rows left at the end; and {@code explain --sql
 * --changelog}.
 */
class RunSqlDeletesTest {
    private static final String SCHEMA =
            "customer(ck BIGINT, seg STRING); orders(ok BIGINT, ck BIGINT," + " price DECIMAL(10,2))";
    /** Not q-hierarchical: the fallback over the product ring, MIN as a multiset. */
    private static final String BY_SEGMENT = "SELECT c.seg, COUNT(*) AS n, SUM(o.price) AS total, MIN(o.price) AS lo"
            + " FROM customer c JOIN orders o ON c.ck = o.ck GROUP BY c.seg";
    /** q-hierarchical: Q(ck) :- customer(ck), orders(ck). */
    private static final String BY_CUSTOMER = "SELECT o.ck, COUNT(*) AS n, SUM(o.price) AS total"
            + " FROM customer c JOIN orders o ON c.ck = o.ck GROUP BY o.ck";

    private static final String[] SEGMENTS = {"A", "B", "C"};

    @TempDir
    Path dir;

    /** The engines: memory, and Flink at parallelism 1 and 2. */
    static List<List<String>> engines() {
        return List.of(
                List.of("--engine", "memory"),
                List.of("--engine", "flink", "--parallelism", "1"),
                List.of("--engine", "flink", "--parallelism", "2"));
    }

    /** Random changes and the rows they leave; some deletes name rows that are not there. */
    private static final class Changes {
        final StringBuilder lines = new StringBuilder();
        final List<String> customers = new ArrayList<>();
        final List<String> orders = new ArrayList<>();
        int accepted;
        int rejected;

        Changes(long seed, int n) {
            Random random = new Random(seed);
            for (int i = 0; i < n; i++) {
                int dice = random.nextInt(20);
                if (dice < 3 || customers.isEmpty()) {
                    add("customer", customers, (1 + random.nextInt(6)) + "," + SEGMENTS[random.nextInt(3)], random);
                } else if (dice == 3) {
                    remove("customer", customers, random);
                } else if (dice < 12 || orders.isEmpty()) {
                    add("orders", orders, order(random), random);
                } else if (dice < 16) {
                    remove("orders", orders, random);
                } else if (dice < 19) {
                    String old = orders.remove(random.nextInt(orders.size()));
                    String now = order(random);
                    orders.add(now);
                    lines.append("-U,orders,").append(old).append('\n');
                    lines.append("+U,orders,").append(now).append('\n');
                    accepted += 2;
                } else {
                    // Not there: a key no order has, or a price the order does not have.
                    lines.append("-D,orders,")
                            .append(random.nextBoolean() ? "999,1,1.00" : withPrice(orders.get(0), "0.00"))
                            .append('\n');
                    rejected++;
                }
            }
        }

        private static String withPrice(String order, String price) {
            return order.substring(0, order.lastIndexOf(',') + 1) + price;
        }

        private static String order(Random random) {
            return random.nextInt(40) + "," + (1 + random.nextInt(6)) + ","
                    + BigDecimal.valueOf(1 + random.nextInt(999), 2);
        }

        private void add(String table, List<String> rows, String row, Random random) {
            rows.add(row);
            lines.append(random.nextBoolean() ? "+I," : "")
                    .append(table)
                    .append(',')
                    .append(row)
                    .append('\n');
            accepted++;
        }

        private void remove(String table, List<String> rows, Random random) {
            if (rows.isEmpty()) {
                return;
            }
            lines.append("-D,")
                    .append(table)
                    .append(',')
                    .append(rows.remove(random.nextInt(rows.size())))
                    .append('\n');
            accepted++;
        }

        /** The result of {@link #BY_SEGMENT} or {@link #BY_CUSTOMER} over the rows left, as output lines. */
        List<String> expected(boolean bySegment) {
            Map<String, long[]> groups = new TreeMap<>(); // count, sum in cents, min in cents
            for (String c : customers) {
                String[] cf = c.split(",");
                for (String o : orders) {
                    String[] of = o.split(",");
                    if (!of[1].equals(cf[0])) {
                        continue;
                    }
                    long cents = new BigDecimal(of[2]).movePointRight(2).longValueExact();
                    long[] g =
                            groups.computeIfAbsent(bySegment ? cf[1] : cf[0], k -> new long[] {0, 0, Long.MAX_VALUE});
                    g[0]++;
                    g[1] += cents;
                    g[2] = Math.min(g[2], cents);
                }
            }
            List<String> out = new ArrayList<>();
            out.add(bySegment ? "seg,n,total,lo" : "ck,n,total");
            groups.forEach((k, g) -> out.add(k + "," + g[0] + "," + BigDecimal.valueOf(g[1], 2)
                    + (bySegment ? "," + BigDecimal.valueOf(g[2], 2) : "")));
            return out;
        }
    }

    private CliRun run(String sql, Path in, Path out, List<String> engine, String... options) {
        List<String> args = new ArrayList<>(
                List.of("run", "--sql", sql, "--schema", SCHEMA, "--input", in.toString(), "--output", out.toString()));
        args.addAll(engine);
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(new String[0]));
    }

    @ParameterizedTest
    @MethodSource("engines")
    void randomChangesGiveTheResultOverTheRowsLeft(List<String> engine) throws IOException {
        for (String sql : List.of(BY_SEGMENT, BY_CUSTOMER)) {
            Changes changes = new Changes(sql.length() + engine.size(), 120);
            Path in = Files.writeString(dir.resolve("in.csv"), changes.lines, StandardCharsets.UTF_8);
            Path out = dir.resolve("out.csv");

            CliRun r = run(sql, in, out, engine);

            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.out()).contains("inserts: " + changes.accepted + ", rejected: " + changes.rejected + "\n");
            assertThat(Files.readAllLines(out))
                    .as(sql)
                    .containsExactlyInAnyOrderElementsOf(changes.expected(sql == BY_SEGMENT));
        }
    }

    @ParameterizedTest
    @MethodSource("engines")
    void theChangelogHasDeletesForGroupsThatLeave(List<String> engine) throws IOException {
        Path in = Files.writeString(
                dir.resolve("in.csv"),
                "customer,1,A\n" // 1
                        + "customer,2,B\n" // 2
                        + "orders,10,1,5.00\n" // 3: A 1 5.00 5.00
                        + "orders,11,2,3.50\n" // 4: B 1 3.50 3.50
                        + "-D,orders,11,2,3.50\n" // 5: B leaves
                        + "-U,orders,10,1,5.00\n" // 6
                        + "+U,orders,10,1,6.0\n" // 7: A 1 6.00 6.00
                        + "-D,orders,10,1,7.00\n", // 8: not there (another price)
                StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");

        CliRun r = run(
                BY_SEGMENT,
                in,
                out,
                engine,
                "--output-mode",
                "changelog",
                "--snapshot-every",
                "4",
                "--dead-letter",
                dead.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 7, rejected: 1\n");
        assertThat(Files.readAllLines(out))
                .containsExactlyInAnyOrder(
                        "trigger,kind,seg,n,total,lo",
                        "1,+I,A,1,5.00,5.00",
                        "1,+I,B,1,3.50,3.50",
                        "2,-D,B,1,3.50,3.50",
                        "2,+U,A,1,6.00,6.00");
        assertThat(Files.readAllLines(dead))
                .containsExactly("8,\"a -D of a row that table orders does not hold (10,1,7.00): no earlier line"
                        + " inserted it, or it was deleted; the line is rejected and changes nothing\","
                        + "\"-D,orders,10,1,7.00\"");
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aBagLosesACopyPerDeleteAndADistinctRowItsLastCopy(List<String> engine) throws IOException {
        Path in = Files.writeString(
                dir.resolve("in.csv"),
                "customer,1,A\n" // 1: A
                        + "customer,2,A\n" // 2: A twice
                        + "customer,3,B\n" // 3
                        + "-D,customer,1,A\n" // 4: one A left
                        + "-U,customer,3,B\n" // 5
                        + "+U,customer,3,C\n" // 6: B leaves, C comes
                        + "-D,customer,2,A\n", // 7: A leaves
                StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");
        List<String> changelog = List.of("--output-mode", "changelog", "--snapshot-every", "1");

        CliRun bag = run("SELECT c.seg FROM customer c", in, out, engine, changelog.toArray(new String[0]));
        assertThat(bag.exitCode()).as(bag.err()).isZero();
        assertThat(Files.readAllLines(out))
                .containsExactlyInAnyOrder(
                        "trigger,kind,seg", "1,+I,A", "2,+I,A", "3,+I,B", "4,-D,A", "5,-D,B", "6,+I,C", "7,-D,A");

        CliRun distinct =
                run("SELECT DISTINCT c.seg FROM customer c", in, out, engine, changelog.toArray(new String[0]));
        assertThat(distinct.exitCode()).as(distinct.err()).isZero();
        assertThat(Files.readAllLines(out))
                .containsExactlyInAnyOrder("trigger,kind,seg", "1,+I,A", "3,+I,B", "5,-D,B", "6,+I,C", "7,-D,A");
    }

    @Test
    void explainShowsThePlanUnderDeletes() {
        CliRun fallback = CliRun.of("explain", "--sql", BY_SEGMENT, "--schema", SCHEMA, "--changelog", "orders");
        assertThat(fallback.exitCode()).as(fallback.err()).isZero();
        assertThat(fallback.out())
                .contains("SQL translation:")
                .contains(
                        "Semiring: product(integer,integer,integer,min-multiset over DECIMAL(10, 2)) (commutative, ring)")
                .contains("Inputs: customer insert-only; orders with deletes and updates\n")
                .contains("Plan: fallback")
                .contains("Guarantee: an insert or delete costs")
                .contains("MIN/MAX as multisets of values");

        CliRun q = CliRun.of("explain", "--sql", BY_CUSTOMER, "--schema", SCHEMA, "--changelog", "customer,orders");
        assertThat(q.exitCode()).as(q.err()).isZero();
        assertThat(q.out())
                .contains("Inputs: customer, orders with deletes and updates")
                .contains("Plan: q-hierarchical")
                .contains("Guarantee: O(1) per insert or delete");

        CliRun unknown = CliRun.of("explain", "--sql", BY_CUSTOMER, "--schema", SCHEMA, "--changelog", "lineitem");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("--changelog: lineitem is not a table of the query; with --sql it names tables, and the"
                        + " query reads customer, orders");

        CliRun bag = CliRun.of(
                "explain", "--sql", "SELECT c.seg FROM customer c", "--schema", SCHEMA, "--changelog", "customer");
        assertThat(bag.exitCode()).as(bag.err()).isZero();
        assertThat(bag.out())
                .contains("Semiring: integer (commutative, ring)")
                .contains("Inputs: customer with deletes and updates")
                .contains("Plan: q-hierarchical");

        // The translation's payloads as the plan counts them: a distinct row's true is a count of 1.
        CliRun distinct = CliRun.of(
                "explain",
                "--sql",
                "SELECT DISTINCT c.seg FROM customer c",
                "--schema",
                SCHEMA,
                "--changelog",
                "customer");
        assertThat(distinct.exitCode()).as(distinct.err()).isZero();
        assertThat(distinct.out())
                .contains("  semiring: boolean (no aggregate: distinct rows)\n"
                        + "  planned:  integer (tables with deletes: a count per row, which leaves with its last"
                        + " derivation)\n")
                .contains("payload 1 (the semiring's one)")
                .doesNotContain("payload true")
                .contains("Semiring: integer (commutative, ring)");
        assertThat(fallback.out())
                .contains("  planned:  product(integer,integer,integer,min-multiset over DECIMAL(10, 2)) (tables with"
                        + " deletes: the ring of product(natural,integer,natural,min over DECIMAL(10, 2)))\n")
                .contains("→ orders (alias o), payload count 1, c1 = price in units of 10^-2");
    }
}
