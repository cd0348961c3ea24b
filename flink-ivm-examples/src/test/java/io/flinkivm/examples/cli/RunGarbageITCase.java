package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.testing.CliRun;
import io.flinkivm.examples.testing.GarbageLines;
import io.flinkivm.examples.testing.GarbageLines.Expected;
import io.flinkivm.examples.testing.GarbageLines.Fate;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A property test of {@code run}: random files of valid inserts mixed with garbage (see {@link GarbageLines})
 * lose no line and crash nothing. For every file, every line is an accepted insert, a dead letter or a
 * blank/comment line, as the format says; each dead letter names a real line, with its text and the
 * reason; the summary's counts match; and the result is the naive evaluator's over the valid lines.
 * Seeded: a failure names its seed.
 */
class RunGarbageITCase {

    /** A query, its semiring and payloads that keep results exact. */
    record Config(String query, Semiring<?> semiring, String[] goodPayloads) {}

    static final Config EX10 =
            new Config(RunCommandTest.EX10, NaturalSemiring.INSTANCE, new String[] {"1", "2", "3", "0", " 2"});
    static final Config PATH_MIN_PLUS = new Config(
            RunOnFlinkITCase.PATH, MinPlusSemiring.INSTANCE, new String[] {"0", "1", "2.5", "7", "inf", "0.25"});

    @TempDir
    Path dir;

    @Test
    void theMemoryEngineLosesNoLine() throws Exception {
        for (int i = 0; i < 300; i++) {
            check(i % 2 == 0 ? EX10 : PATH_MIN_PLUS, 1000 + i, List.of("--engine", "memory"));
        }
    }

    @Test
    void flinkLosesNoLine() throws Exception {
        check(EX10, 7, List.of("--engine", "flink", "--state", "rocksdb", "--parallelism", "2"));
        check(PATH_MIN_PLUS, 8, List.of("--engine", "flink", "--state", "heap", "--parallelism", "2"));
    }

    private void check(Config config, long seed, List<String> engine) throws Exception {
        Random random = new Random(seed);
        ConjunctiveQuery query = QueryParser.parse(config.query());
        GarbageLines garbage = new GarbageLines(query, config.semiring(), config.goodPayloads(), random);
        int count = random.nextInt(8) == 0 ? random.nextInt(3) : 1 + random.nextInt(60);
        List<byte[]> lines = new ArrayList<>(garbage.lines(count));
        if (random.nextInt(10) == 0) {
            // A byte-order mark starts the file: it belongs to line 1 (which the reader drops).
            byte[] first = lines.isEmpty() ? new byte[0] : lines.get(0);
            byte[] withMark = new byte[first.length + 3];
            withMark[0] = (byte) 0xEF;
            withMark[1] = (byte) 0xBB;
            withMark[2] = (byte) 0xBF;
            System.arraycopy(first, 0, withMark, 3, first.length);
            if (lines.isEmpty()) {
                lines.add(withMark);
            } else {
                lines.set(0, withMark);
            }
        }
        Path in =
                Files.write(dir.resolve("in-" + seed + ".csv"), GarbageLines.file(lines, false, random.nextBoolean()));
        Path out = dir.resolve("out-" + seed + ".csv");
        Path dead = dir.resolve("dead-" + seed + ".csv");
        String context = "seed " + seed + " (" + config.query() + ", " + engine + ")";

        List<String> args = new ArrayList<>(List.of(
                "run",
                "--query",
                config.query(),
                "--semiring",
                config.semiring().name(),
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString()));
        args.addAll(engine);
        CliRun r = CliRun.of(args.toArray(new String[0]));

        assertThat(r.exitCode())
                .as(context + ": exit code " + r.exitCode() + ", stderr: " + tail(r.err()))
                .isZero();
        assertThat(r.err()).as(context).doesNotContain("internal error");
        // What the format says of each line.
        Map<Long, Expected> rejected = new TreeMap<>();
        List<GarbageLines.Insert> inserts = new ArrayList<>();
        int skipped = 0;
        // A file that ends in '\n' has no extra empty line; an empty file has none.
        for (int i = 0; i < lines.size(); i++) {
            if (i == lines.size() - 1 && lines.get(i).length == 0 && !endsWithNewline(in)) {
                skipped++;
                continue;
            }
            Expected e = garbage.runExpects(lines.get(i), i + 1);
            if (e.fate() == Fate.REJECT) {
                rejected.put((long) i + 1, e);
            } else if (e.fate() == Fate.INSERT) {
                inserts.add(e.insert());
            } else {
                skipped++;
            }
        }
        assertThat(inserts.size() + rejected.size() + skipped).isEqualTo(lines.size());
        assertThat(r.out())
                .as(context)
                .contains("inserts: " + inserts.size() + ", rejected: " + rejected.size() + "\n");

        // Every dead letter is a real line, once, with its text and the reason.
        List<List<String>> letters = records(dead);
        Set<Long> seen = new HashSet<>();
        for (List<String> letter : letters) {
            assertThat(letter).as(context + ": dead letter " + letter).hasSize(3);
            long number = Long.parseLong(letter.get(0));
            assertThat(seen.add(number))
                    .as(context + ": line " + number + " dead-lettered twice")
                    .isTrue();
            assertThat(rejected)
                    .as(context + ": line " + number + " (" + letter.get(1) + ") should not be rejected")
                    .containsKey(number);
            byte[] raw = lines.get((int) number - 1);
            assertThat(letter.get(2))
                    .as(context + ": text of line " + number)
                    .isEqualTo(GarbageLines.deadLetterText(raw, number));
            assertThat(letter.get(1))
                    .as(context + ": reason for line " + number)
                    .contains(rejected.get(number).reason());
        }
        assertThat(seen).as(context + ": dead-lettered lines").isEqualTo(rejected.keySet());

        // The result is the naive evaluator's over the valid lines.
        assertThat(rows(out)).as(context + ": result").isEqualTo(expectedRows(query, config.semiring(), inserts));
    }

    /** What stderr says besides the rejected lines, each line cut to 300 characters. */
    private static String tail(String s) {
        StringBuilder sb = new StringBuilder();
        for (String line : s.split("\n")) {
            if (!line.startsWith("line ")) {
                sb.append(line, 0, Math.min(line.length(), 300)).append('\n');
            }
        }
        return sb.toString();
    }

    private static boolean endsWithNewline(Path file) throws Exception {
        byte[] b = Files.readAllBytes(file);
        return b.length > 0 && b[b.length - 1] == '\n';
    }

    private static <T> Set<List<String>> expectedRows(
            ConjunctiveQuery query, Semiring<T> s, List<GarbageLines.Insert> inserts) {
        Map<String, Map<Tuple, T>> db = new HashMap<>();
        for (GarbageLines.Insert i : inserts) {
            T p = s.parse(i.payload());
            Map<Tuple, T> relation = db.computeIfAbsent(i.relation(), k -> new HashMap<>());
            T sum = s.plus(relation.getOrDefault(i.tuple(), s.zero()), p);
            if (s.isZero(sum)) {
                relation.remove(i.tuple());
            } else {
                relation.put(i.tuple(), sum);
            }
        }
        Set<List<String>> rows = new HashSet<>();
        for (Map.Entry<Tuple, T> e : NaiveEvaluator.evaluate(query, s, db).entrySet()) {
            List<String> row = new ArrayList<>();
            for (int i = 0; i < e.getKey().arity(); i++) {
                row.add(String.valueOf(e.getKey().get(i)));
            }
            row.add(s.format(e.getValue()));
            rows.add(row);
        }
        return rows;
    }

    /** The result rows without the header. */
    private static Set<List<String>> rows(Path out) throws Exception {
        List<List<String>> records = records(out);
        assertThat(records).isNotEmpty();
        Set<List<String>> rows = new HashSet<>(records.subList(1, records.size()));
        assertThat(rows).hasSize(records.size() - 1);
        return rows;
    }

    /** The CSV records of a file written by the command: one per '\n'-ended line (fields may hold CR). */
    private static List<List<String>> records(Path file) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<List<String>> records = new ArrayList<>();
        if (text.isEmpty()) {
            return records;
        }
        assertThat(text).endsWith("\n");
        for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
            List<String> fields = new ArrayList<>();
            assertThat(GarbageLines.split(line, fields)).as("CSV of " + line).isNull();
            records.add(fields);
        }
        return records;
    }
}
