package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.examples.testing.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(BenchMain::run, args);
    }

    @Test
    void helpDocumentsTheContract() {
        CliRun r = run("bench", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm-bench bench",
                        "--quick",
                        "--suite",
                        "--out",
                        "Default: all",
                        "bench-out",
                        "--distributions",
                        "--queries",
                        "--systems",
                        "--parallelism",
                        "--object-reuse",
                        "plot.png",
                        "Exit codes:");
        assertThat(r.out().replaceAll("\\s+", ""))
                .as("the header, however it is wrapped")
                .contains(ResultsCsv.HEADER);
        assertThat(r.out() + r.err())
                .as("every %% escaped")
                .doesNotContain("Could not format")
                .contains("5% of the task CPU");
    }

    @Test
    void aFlinkConfEntryWithoutKeyIsAUsageError() {
        CliRun r = run("bench", "--flink-conf", "=1", "--out", dir.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--flink-conf needs KEY=VALUE");
    }

    @Test
    void objectReuseIsOnOrOff() {
        CliRun bad = run("bench", "--object-reuse", "yes", "--out", dir.toString());
        CliRun viaFlinkConf = run("bench", "--flink-conf", "pipeline.object-reuse=true", "--out", dir.toString());

        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--object-reuse must be on or off, not 'yes'");
        assertThat(viaFlinkConf.exitCode()).isEqualTo(2);
        assertThat(viaFlinkConf.err()).contains("--flink-conf pipeline.object-reuse: use --object-reuse on|off");
        assertThat(BenchCommand.onOff("ON")).isTrue();
        assertThat(BenchCommand.onOff(" off")).isFalse();
        assertThat(Files.exists(dir.resolve("results.csv"))).as("nothing ran").isFalse();
    }

    @Test
    void objectReuseOnReachesEveryFlinkEnvironmentAndResultsCsv() throws Exception {
        CliRun r = run(
                "bench",
                "--suite",
                "core",
                "--queries",
                "star",
                "--systems",
                "hash-map",
                "--sizes",
                "100",
                "--reps",
                "1",
                "--object-reuse",
                "on",
                "--out",
                dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("object reuse: on (pipeline.object-reuse in every Flink job");
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertThat(lines.get(0)).isEqualTo(ResultsCsv.HEADER);
        assertThat(lines.subList(1, lines.size()))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).endsWith(",1,on"));
        assertThat(FlinkRuns.objectReuse()).as("reset after the run").isFalse();
        FlinkRuns.objectReuse(true);
        try {
            assertThat(FlinkRuns.environment("hashmap", 1).getConfig().isObjectReuseEnabled())
                    .isTrue();
        } finally {
            FlinkRuns.objectReuse(false);
        }
        assertThat(FlinkRuns.environment("hashmap", 1).getConfig().isObjectReuseEnabled())
                .isFalse();
    }

    @Test
    void anUnknownSuiteIsAUsageError() {
        CliRun r = run("bench", "--suite", "nope", "--out", dir.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown suite 'nope'");
    }

    @Test
    void coreSuiteOnTinyStreamsFromTheCommandLine() throws Exception {
        CliRun r = run(
                "bench",
                "--suite",
                "core",
                "--sizes",
                "100,300",
                "--reps",
                "1",
                "--distributions",
                "zipf",
                "--out",
                dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        var lines = Files.readAllLines(dir.resolve("results.csv"));
        // ex10, tpch and star: 4 systems at 2 sizes; path: the fallback and hash-map; then enumeration rows where a
        // result is non-empty (never for hash-map, which maintains no query).
        assertThat(lines.stream().filter(l -> l.contains(",insert,"))).hasSize(3 * 4 * 2 + 2 * 2);
        assertThat(lines.stream().filter(l -> l.contains(",enumerate,")))
                .hasSize(lines.size() - 1 - (3 * 4 * 2 + 2 * 2))
                .noneMatch(l -> l.contains("hash-map"));
        for (String q : List.of("ex10", "tpch", "star", "path")) {
            for (String n : List.of("100", "300")) {
                assertThat(lines)
                        .as(q + " n=" + n)
                        .anyMatch(l -> l.startsWith(q + ",hash-map,")
                                && l.contains("," + n + ",")
                                && l.contains(",entries,insert,"));
            }
        }
        assertThat(lines)
                .anyMatch(l -> l.startsWith("tpch,ablation,tpch,300,"))
                .anyMatch(l -> l.startsWith("star,p-hierarchical,zipf-1.1,300,") && l.contains(",entries,insert,"))
                .anyMatch(l -> l.startsWith("path,fallback,zipf-1.1,100,"))
                .anyMatch(l -> l.startsWith("ex10,in-memory-list(p-hierarchical),zipf-1.1,300,")
                        && l.contains(",result tuples,enumerate,"))
                .noneMatch(l -> l.startsWith("path,p-hierarchical") || l.startsWith("path,ablation"));
        assertThat(r.out())
                .contains(
                        "ratio fallback/p-hierarchical (ns per insert):",
                        "ratio ablation/p-hierarchical",
                        "slope of ns per insert against n",
                        "p-hierarchical: does not apply",
                        "ratio p-hierarchical/hash-map (ns per insert):",
                        "ratio fallback/hash-map (ns per insert):",
                        "enumeration p-hierarchical zipf-1.1 n=300:",
                        "enumeration p-hierarchical(cursor) zipf-1.1 n=300:",
                        "plot: ");
        var image = javax.imageio.ImageIO.read(dir.resolve("plot.png").toFile());
        assertThat(image.getWidth()).isEqualTo(PlotPng.size(4, 4).width);
        assertThat(image.getHeight()).isEqualTo(PlotPng.size(4, 4).height);
    }

    @Test
    void aParallelismBelowOneOrAboveTheLimitIsAUsageError() {
        for (String bad : List.of("0", "1,0", "-2", "17")) {
            CliRun r = run("bench", "--suite", "flink", "--parallelism", bad, "--out", dir.toString());

            assertThat(r.exitCode()).as(bad).isEqualTo(2);
            assertThat(r.err())
                    .as(bad)
                    .contains("--parallelism must list numbers from 1 to 16 (e.g. 1,2,4), not " + bad);
        }
        assertThat(Files.exists(dir.resolve("results.csv"))).as("nothing ran").isFalse();
    }

    @Test
    void aParallelismThatIsNotANumberIsAUsageError() {
        CliRun r = run("bench", "--parallelism", "1,two", "--out", dir.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--parallelism", "two");
    }

    @Test
    void theParallelismsAreSortedWithoutRepeats() {
        BenchSettings s = new BenchSettings(
                        false,
                        1,
                        1,
                        1,
                        java.time.Duration.ofSeconds(1),
                        java.time.Duration.ofSeconds(1),
                        null,
                        List.of(Distribution.UNIFORM),
                        false)
                .withParallelisms(List.of(4, 1, 2, 4));

        assertThat(s.parallelisms()).containsExactly(1, 2, 4);
        assertThat(s.maxParallelism()).isEqualTo(4);
        assertThatThrownBy(() -> s.withParallelisms(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theForStSystemsRunOnlyWhenNamed() {
        BenchSettings all = new BenchSettings(
                false,
                1,
                1,
                1,
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(1),
                null,
                List.of(Distribution.UNIFORM),
                false);
        BenchSettings named = new BenchSettings(
                false,
                1,
                1,
                1,
                java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(1),
                null,
                List.of(Distribution.UNIFORM),
                false,
                null,
                List.of("flink-ivm-forst"),
                BenchSettings.DEFAULT_COUNT_UP_TO,
                List.of(1),
                0,
                false);

        assertThat(all.runsSystem("flink-ivm-rocksdb")).isTrue();
        assertThat(all.runsSystem("flink-ivm-forst")).isFalse();
        assertThat(all.runsSystem("flink-sql-forst")).isFalse();
        assertThat(named.runsSystem("flink-ivm-forst")).isTrue();
        assertThat(named.runsSystem("flink-ivm-rocksdb")).isFalse();
    }

    @Test
    void anUnknownDistributionIsAUsageError() {
        CliRun r = run("bench", "--distributions", "gauss", "--out", dir.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown distribution 'gauss'");
    }

    @Test
    void example10HasTwoKeyedHops() {
        var plan = Planner.plan(QueryParser.parse(Example10Workload.QUERY), NaturalSemiring.INSTANCE);

        // ingest -> view tree -> sink
        assertThat(TrivialKeyedSystem.keyedHops(plan)).isEqualTo(2);
        assertThat(TrivialKeyedSystem.keyedHops(Planner.plan(
                        QueryParser.parse(Example10Workload.QUERY),
                        NaturalSemiring.INSTANCE,
                        Planner.Strategy.FALLBACK)))
                .isEqualTo(1);
        // No TPC-H tree has state below its root: ingest -> sink
        assertThat(TrivialKeyedSystem.keyedHops(
                        Planner.plan(QueryParser.parse(new TpchWorkload().query()), NaturalSemiring.INSTANCE)))
                .isEqualTo(1);
    }
}
