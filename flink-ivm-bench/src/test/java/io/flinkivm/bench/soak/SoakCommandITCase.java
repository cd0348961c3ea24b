package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code soak} with a short stream: it runs on RocksDB with checkpoints, reports per tenth, and checks its result. */
class SoakCommandITCase {

    private static final Pattern RESTORE =
            Pattern.compile("^  ([a-z0-9 ()]+), about [\\d,]+ inserts, [^:]+: ([\\d.]+) s \\(", Pattern.MULTILINE);
    private static final Pattern TENTH =
            Pattern.compile("^  (\\d+)\\s+([\\d,]+)\\s+[\\d.]+\\s+([\\d,]+)\\s", Pattern.MULTILINE);

    @Test
    void aShortSoakReportsEveryTenthAndMatchesTheEngine() {
        CliRun r = CliRun.of(
                BenchMain::run,
                "soak",
                "--inserts",
                "20000",
                "--checkpoint-interval",
                "200 ms",
                "--parallelism",
                "2",
                "--managed-memory",
                "256 mb",
                "--flink-conf",
                "state.backend.rocksdb.thread.num=1",
                "--rate",
                "400000");

        assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
        assertThat(r.out())
                .contains(
                        "over natural (p-hierarchical plan)",
                        "state rocksdb",
                        "incremental checkpoints",
                        "uniform over a domain growing with the stream", // the default domain
                        "at most 400,000 inserts/s",
                        "Flink configuration added: {state.backend.rocksdb.thread.num=1}",
                        "compact µs",
                        "Check: the Flink result equals the in-memory engine's on the same stream",
                        " ms at the sink)", // the final snapshot, timed at the sink
                        "last/first = ",
                        "Checkpoints: ",
                        "CPU per insert (the whole process): first tenth ",
                        "cpu µs/ins");
        // The state at the end, by operator and column family, and two restores by restart, each timed.
        assertThat(r.out())
                .contains(
                        "Checkpoints in the first tenth: ",
                        "State at the end (the last checkpoint, taken after the final snapshot):",
                        "sink) / join-records",
                        "final checkpoint ",
                        "Restore by restart");
        Matcher restore = RESTORE.matcher(r.out());
        List<String> restored = new ArrayList<>();
        while (restore.find()) {
            restored.add(restore.group(1));
            assertThat(Double.parseDouble(restore.group(2))).as(restore.group()).isPositive();
        }
        assertThat(restored).containsExactly("savepoint after tenth 1 (native)", "last checkpoint (incremental)");
        if (java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self/task"))) {
            assertThat(r.out()).contains("CPU per insert by thread (µs; first tenth -> tenth ");
        }
        List<Long> done = new ArrayList<>();
        Matcher m = TENTH.matcher(r.out());
        while (m.find()) {
            assertThat(Long.parseLong(m.group(1))).isEqualTo(done.size() + 1);
            done.add(Long.parseLong(m.group(2).replace(",", "")));
        }
        assertThat(done).hasSize(10).isSorted();
        for (int i = 0; i < 9; i++) {
            assertThat(done.get(i)).as("tenth %d", i + 1).isGreaterThanOrEqualTo(2000L * (i + 1));
        }
        // The last tenth ends at the last progress watermark before the final snapshot (one every 256 inserts).
        assertThat(done.get(9)).isBetween(20000L - 256, 20000L);
    }

    @Test
    void zipfDrawsFromTheFixedDomainAndFlinkConfReachesTheJob() {
        // An invalid RocksDB setting fails the job only if it reaches the state backend.
        CliRun r = CliRun.of(
                BenchMain::run,
                "soak",
                "--inserts",
                "2000",
                "--distribution",
                "zipf",
                "--parallelism",
                "1",
                "--managed-memory",
                "256 mb",
                "--flink-conf",
                "state.backend.rocksdb.compaction.style=SIDEWAYS");

        assertThat(r.out())
                .contains("Zipf (s = 1.1) values of the free variables")
                .doesNotContain("growing");
        assertThat(r.exitCode()).as(r.err() + r.out()).isEqualTo(CliException.FAILURE);
        assertThat(r.err()).contains("CompactionStyle", "UNIVERSAL");
    }

    /**
     * A windowed soak: every window closes while the stream runs, so the job's state at the end is what
     * its last windows left (the final watermark closed them), each window's groups come once, and the
     * result equals the in-memory engines' window by window; no insert is late.
     */
    @Test
    void aWindowedSoakEmitsEachWindowOnceAndMatchesTheEngines(@TempDir Path dir) throws IOException {
        Path series = dir.resolve("series.csv");
        CliRun r = CliRun.of(
                BenchMain::run,
                "soak",
                "--inserts",
                "40000",
                "--query",
                "Q(W,A) :- bid(A,P,T,W,E), auction(A,S,U,W,E)",
                "--window",
                "tumble:100ms",
                "--event-rate",
                "20000",
                "--disorder",
                "30 ms",
                "--domain",
                "sliding",
                "--checkpoint-interval",
                "300 ms",
                "--parallelism",
                "2",
                "--managed-memory",
                "256 mb",
                "--rate",
                "100000",
                "--series",
                series.toString());

        assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
        assertThat(r.out())
                .contains(
                        "Windows: TUMBLE(size 100 ms) on every relation's last column; 20,000 inserts per second",
                        "over the newest 10000 of a domain growing",
                        ", 0 dead letters;",
                        // 2 s of event time; the first inserts' jitter puts some into the window before.
                        "Check: the Flink result equals the in-memory engine's on the same stream, window by window"
                                + " (21 windows,",
                        "_timer_state/event_window-close");
        List<SoakSeries.Point> points = SoakSeries.read(series);
        assertThat(points).isNotEmpty();
        assertThat(points.get(points.size() - 1).inserts()).isEqualTo(40000);
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertThat(CliRun.of(BenchMain::run, "soak", "--distribution", "normal").exitCode())
                .isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--inserts", "0").exitCode())
                .isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--rate", "-1").exitCode()).isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--domain", "shrinking").exitCode())
                .isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--domain", "growing", "--distribution", "zipf")
                        .exitCode())
                .isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--flink-conf", "no-value").exitCode())
                .isEqualTo(CliException.USAGE);
        assertThat(CliRun.of(BenchMain::run, "soak", "--flink-conf", "=1").exitCode())
                .isEqualTo(CliException.USAGE);
        CliRun memory = CliRun.of(BenchMain::run, "soak", "--managed-memory", "lots");
        assertThat(memory.exitCode()).isEqualTo(CliException.USAGE);
        assertThat(memory.err()).contains("--managed-memory", "'lots'");
        for (String[] args : List.of(
                new String[] {"--window", "slide:1s"},
                new String[] {"--window", "hop:1s"},
                new String[] {"--window", "tumble:soon"},
                new String[] {"--window", "tumble:1s", "--event-rate", "0"},
                new String[] {"--window", "tumble:1s", "--disorder", "a while"},
                new String[] {"--window", "tumble:1s", "--query", "Q(A,C) :- R(A,B), S(B,C)"},
                new String[] {"--domain", "sliding", "--distribution", "zipf"})) {
            List<String> line = new ArrayList<>(List.of("soak"));
            line.addAll(List.of(args));
            CliRun bad = CliRun.of(BenchMain::run, line.toArray(new String[0]));
            assertThat(bad.exitCode())
                    .as(String.join(" ", args) + ": " + bad.err())
                    .isEqualTo(CliException.USAGE);
        }
        CliRun r = CliRun.of(BenchMain::run, "soak", "--query", "Q(A) :- R(A");
        assertThat(r.exitCode()).isEqualTo(CliException.USAGE);
        assertThat(r.err()).contains("invalid query");
    }
}
