package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.examples.csv.Csv;
import io.flinkivm.examples.testing.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code run --output-mode changelog|snapshot --snapshot-every N}: every trigger k of the output is
 * checked against the naive evaluator over exactly the first k·N accepted lines (malformed lines in
 * the input do not count), on the in-memory engine, on Flink with the heap backend at parallelism 1
 * and with RocksDB at parallelism 2, for a p-hierarchical query (Ex. 10), a cyclic one (the triangle)
 * and one that gets the fallback (the path), over the natural numbers, min-plus and provenance
 * polynomials. A changelog trigger holds exactly the tuples whose payload changed, each once: +I for a
 * new tuple, -U with the previous payload then +U with the new one for a changed tuple; applied in
 * order the lines give every trigger's result, and at the end the result that {@code run} writes
 * without the options.
 */
class RunChangelogITCase {

    private static final String TRIANGLE = "Q(A,B,C) :- R(A,B), S(B,C), T(A,C)";
    private static final String[] SEMIRINGS = {"natural", "min-plus", "provenance"};
    private static final int LINES = 70;
    private static final int EVERY = 9;

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        String[][] queries = {
            {"p-hierarchical", RunCommandTest.EX10},
            {"cyclic", TRIANGLE},
            {"fallback", RunOnFlinkITCase.PATH}
        };
        List<List<String>> engines = List.of(
                List.of("--engine", "memory"),
                List.of("--state", "heap", "--parallelism", "1"),
                List.of("--state", "rocksdb", "--parallelism", "2"));
        List<Arguments> out = new ArrayList<>();
        for (int q = 0; q < queries.length; q++) {
            for (int e = 0; e < engines.size(); e++) {
                String semiring = SEMIRINGS[(q + e) % SEMIRINGS.length];
                out.add(Arguments.of(queries[q][0], queries[q][1], semiring, engines.get(e), 100L * q + e));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2} {3}")
    @MethodSource("cases")
    void everyTriggerIsTheOracleOverItsLines(
            String kind, String query, String semiringName, List<String> engine, long seed) throws Exception {
        Semiring<?> semiring = Semirings.byName(semiringName);
        check(kind, query, semiring, engine, seed);
    }

    private <T> void check(String kind, String query, Semiring<T> semiring, List<String> engine, long seed)
            throws Exception {
        ConjunctiveQuery q = QueryParser.parse(query);
        MaintenancePlan plan = Planner.plan(q, semiring, Planner.Strategy.AUTO);
        assertThat(plan)
                .isInstanceOf(
                        switch (kind) {
                            case "p-hierarchical" -> PHierarchicalPlan.class;
                            case "cyclic" -> CyclicPHierarchicalPlan.class;
                            default -> FallbackPlan.class;
                        });
        List<Insert<T>> inserts = new ArrayList<>();
        Path in = writeInput(q, semiring, seed, inserts);
        List<Map<Tuple, T>> oracle = oracleAfterEachTrigger(q, semiring, inserts);

        String every = String.valueOf(EVERY);
        Path changes = dir.resolve("changes.csv");
        CliRun changelog = run(
                query,
                semiring,
                in,
                changes,
                engine,
                "--snapshot-every",
                every,
                "--output-mode",
                "changelog",
                "--update-before");
        assertThat(changelog.exitCode()).as(changelog.err()).isZero();
        assertThat(changelog.out()).contains("inserts: " + LINES + ", rejected: 3\n");
        Map<Tuple, T> applied = checkChangelog(q, semiring, Files.readAllLines(changes), oracle);

        Path snapshots = dir.resolve("snapshots.csv");
        CliRun snapshot = run(query, semiring, in, snapshots, engine, "--snapshot-every", every);
        assertThat(snapshot.exitCode()).as(snapshot.err()).isZero();
        checkSnapshots(q, semiring, Files.readAllLines(snapshots), oracle);

        Path plain = dir.resolve("plain.csv");
        CliRun result = run(query, semiring, in, plain, engine);
        assertThat(result.exitCode()).as(result.err()).isZero();
        List<String> lines = Files.readAllLines(plain);
        assertThat(lines.get(0)).isEqualTo(String.join(",", q.head()) + ",payload");
        assertThat(parseRows(semiring, lines.subList(1, lines.size()), 0))
                .as("the changelog applied in order = run's result without the options")
                .isEqualTo(applied)
                .isEqualTo(oracle.get(oracle.size() - 1));
    }

    private static CliRun run(
            String query, Semiring<?> semiring, Path in, Path out, List<String> engine, String... options) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--query",
                query,
                "--semiring",
                semiring.name(),
                "--input",
                in.toString(),
                "--output",
                out.toString()));
        args.addAll(List.of(options));
        args.addAll(engine);
        return CliRun.of(args.toArray(new String[0]));
    }

    /**
     * Checks every trigger's changes against the oracle's difference and returns the result the lines
     * give when applied in order.
     */
    private static <T> Map<Tuple, T> checkChangelog(
            ConjunctiveQuery q, Semiring<T> semiring, List<String> lines, List<Map<Tuple, T>> oracle) {
        assertThat(lines.get(0)).isEqualTo("trigger,kind," + String.join(",", q.head()) + ",payload");
        TreeMap<Integer, List<List<String>>> byTrigger = new TreeMap<>();
        int previousTrigger = 0;
        for (String line : lines.subList(1, lines.size())) {
            List<String> fields = fields(line);
            int trigger = Integer.parseInt(fields.get(0));
            assertThat(trigger).as("triggers in order: " + line).isGreaterThanOrEqualTo(previousTrigger);
            previousTrigger = trigger;
            byTrigger.computeIfAbsent(trigger, k -> new ArrayList<>()).add(fields);
        }
        assertThat(byTrigger.keySet()).allSatisfy(k -> assertThat(k).isBetween(1, oracle.size()));
        Map<Tuple, T> state = new HashMap<>();
        int arity = q.head().size();
        for (int k = 1; k <= oracle.size(); k++) {
            Map<Tuple, T> before = k == 1 ? Map.of() : oracle.get(k - 2);
            Map<Tuple, T> after = oracle.get(k - 1);
            Set<Tuple> changed = new HashSet<>();
            Tuple announced = null;
            for (List<String> f : byTrigger.getOrDefault(k, List.of())) {
                Tuple t = Tuple.wrap(f.subList(2, 2 + arity).toArray());
                T payload = semiring.parse(f.get(2 + arity));
                String what = "trigger " + k + ": " + f;
                switch (f.get(1)) {
                    case "+I" -> {
                        assertThat(before).as(what + " is new").doesNotContainKey(t);
                        assertThat(changed.add(t)).as(what + " once").isTrue();
                        state.put(t, payload);
                    }
                    case "-U" -> {
                        assertThat(payload)
                                .as(what + " carries the previous payload")
                                .isEqualTo(before.get(t));
                        assertThat(state.get(t)).as(what).isEqualTo(payload);
                        announced = t;
                    }
                    case "+U" -> {
                        assertThat(announced).as(what + " follows its -U").isEqualTo(t);
                        assertThat(before).as(what + " was in the result").containsKey(t);
                        assertThat(changed.add(t)).as(what + " once").isTrue();
                        state.put(t, payload);
                        announced = null;
                    }
                    default -> throw new AssertionError("unexpected kind in " + what);
                }
            }
            Set<Tuple> expected = new HashSet<>();
            after.forEach((t, p) -> {
                if (!p.equals(before.get(t))) {
                    expected.add(t);
                }
            });
            assertThat(changed)
                    .as("trigger " + k + " changes exactly the tuples whose payload changed")
                    .isEqualTo(expected);
            assertThat(state).as("the result after trigger " + k).isEqualTo(after);
        }
        return state;
    }

    private static <T> void checkSnapshots(
            ConjunctiveQuery q, Semiring<T> semiring, List<String> lines, List<Map<Tuple, T>> oracle) {
        assertThat(lines.get(0)).isEqualTo("trigger," + String.join(",", q.head()) + ",payload");
        TreeMap<Integer, List<String>> byTrigger = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            int trigger = Integer.parseInt(fields(line).get(0));
            assertThat(trigger)
                    .as("triggers in order")
                    .isGreaterThanOrEqualTo(byTrigger.isEmpty() ? 0 : byTrigger.lastKey());
            byTrigger.computeIfAbsent(trigger, k -> new ArrayList<>()).add(line);
        }
        for (int k = 1; k <= oracle.size(); k++) {
            assertThat(parseRows(semiring, byTrigger.getOrDefault(k, List.of()), 1))
                    .as("snapshot of trigger " + k)
                    .isEqualTo(oracle.get(k - 1));
        }
        assertThat(byTrigger.keySet()).allSatisfy(k -> assertThat(k).isBetween(1, oracle.size()));
    }

    /** Rows of tuples and payloads after {@code skip} leading fields; a tuple twice fails. */
    private static <T> Map<Tuple, T> parseRows(Semiring<T> semiring, List<String> lines, int skip) {
        Map<Tuple, T> out = new HashMap<>();
        for (String line : lines) {
            List<String> f = fields(line);
            Tuple t = Tuple.wrap(f.subList(skip, f.size() - 1).toArray());
            assertThat(out.put(t, semiring.parse(f.get(f.size() - 1))))
                    .as("once: " + line)
                    .isNull();
        }
        return out;
    }

    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        try {
            Csv.forFileLines().split(line, out, RejectedLineException::new);
        } catch (RejectedLineException e) {
            throw new AssertionError("not a CSV line: " + line, e);
        }
        return out;
    }

    private record Insert<T>(String relation, Tuple tuple, T payload) {}

    /**
     * {@value #LINES} accepted inserts over small domains (so that tuples join and payloads change), with a
     * comment, a blank line and three malformed lines among them.
     */
    private <T> Path writeInput(ConjunctiveQuery q, Semiring<T> semiring, long seed, List<Insert<T>> inserts)
            throws Exception {
        Random random = new Random(seed);
        List<String> relations = new ArrayList<>(q.relations());
        StringBuilder text = new StringBuilder("# generated\n");
        for (int i = 0; i < LINES; i++) {
            if (i == 5) {
                text.append("NoSuchRelation,a0,1\n");
            } else if (i == 20) {
                text.append("\n").append(relations.get(0)).append(",a0\n");
            } else if (i == 41) {
                text.append(relations.get(0)).append(",a0,a1,a2,a3,a4,a5,a6,not a payload\n");
            }
            String r = relations.get(random.nextInt(relations.size()));
            Object[] values = new Object[q.arityOf(r)];
            StringBuilder line = new StringBuilder(r);
            for (int v = 0; v < values.length; v++) {
                values[v] = "v" + random.nextInt(v == 0 ? 2 : 3);
                line.append(',').append(values[v]);
            }
            String payload = switch (semiring.name()) {
                case "natural" -> String.valueOf(1 + random.nextInt(3));
                case "min-plus" -> String.valueOf(random.nextInt(8) / 2.0);
                default -> "x" + random.nextInt(4) + (random.nextBoolean() ? " + y" : "");
            };
            text.append(line).append(',').append(payload).append('\n');
            inserts.add(new Insert<>(r, Tuple.wrap(values), semiring.parse(payload)));
        }
        return Files.writeString(dir.resolve("in.csv"), text, StandardCharsets.UTF_8);
    }

    /** The oracle's result after each trigger's lines: the first k·N accepted inserts, and all of them at the end. */
    private static <T> List<Map<Tuple, T>> oracleAfterEachTrigger(
            ConjunctiveQuery q, Semiring<T> semiring, List<Insert<T>> inserts) {
        List<Map<Tuple, T>> out = new ArrayList<>();
        KDatabase<T> db = new KDatabase<>(semiring);
        for (int i = 0; i < inserts.size(); i++) {
            Insert<T> insert = inserts.get(i);
            db.insert(insert.relation(), insert.tuple(), insert.payload());
            if ((i + 1) % EVERY == 0 || i + 1 == inserts.size()) {
                out.add(NaiveEvaluator.evaluate(q, semiring, db.relations()));
            }
        }
        return out;
    }
}
