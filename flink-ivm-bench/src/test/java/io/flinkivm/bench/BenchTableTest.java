package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.examples.testing.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bench-table over sample results.csv files: the rows, their order, the ratios and bounds. */
class BenchTableTest {

    @TempDir
    Path dir;

    private static final String HEADER = ResultsCsv.HEADER;

    /** A results.csv row; {@code ns} and {@code task} as the file has them (a bound with its sign). */
    private static String row(
            String query,
            String system,
            String distribution,
            int n,
            String ns,
            int p,
            String task,
            int runs,
            String reuse) {
        return String.join(
                ",",
                query,
                system,
                distribution,
                Integer.toString(n),
                "1.0",
                ns,
                "",
                "n/a",
                "insert",
                "100.0",
                "",
                Integer.toString(p),
                "1.000",
                "",
                task,
                Integer.toString(runs),
                reuse);
    }

    private Path write(String name, String... rows) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, List.of(HEADER + "\n" + String.join("\n", rows)), StandardCharsets.UTF_8);
        return f;
    }

    private Path sample() throws Exception {
        return write(
                "results.csv",
                row("tpch", "flink-sql", "tpch", 100_000, "9000.0", 1, "8000.0", 3, "off"),
                row("tpch", "flink-ivm-heap", "tpch", 1_000_000, "2000.0", 1, "1600.0", 3, "off"),
                row("tpch", "flink-sql", "tpch", 1_000_000, "4000.0", 1, "4800.0", 3, "off"),
                row("tpch", "flink-sql-rocksdb", "tpch", 1_000_000, "7000.0", 1, "7700.0", 3, "off"),
                row("tpch", "flink-ivm-rocksdb", "tpch", 1_000_000, "7000.0", 1, "7000.0", 3, "off"),
                row("tpch", "trivial-keyed", "tpch", 1_000_000, "500.0", 1, "400.0", 3, "off"),
                row("ex10", "flink-sql", "uniform", 1_000_000, ">300000.0", 1, ">250000.0", 1, "off"),
                row("ex10", "flink-ivm-heap", "uniform", 1_000_000, "1500.0", 1, "1250.0", 3, "off"),
                row("ex10", "flink-ivm-heap", "zipf-1.1", 100_000, "1700.5", 2, "", 3, "off"),
                "ex10,p-hierarchical,uniform,1000000,2000000.0,500.0,10,entries,insert,480.0,4.000,1,,,,3,off");
    }

    @Test
    void theLargestNOfEachWorkloadGroupedByBackendWithFlinkIvmsSpeedUpOnEachPeersRow() throws Exception {
        List<String> table = BenchTable.markdown(BenchTable.read(List.of(sample()), s -> s.startsWith("flink-"), 0));

        assertThat(table)
                .containsExactly(
                        BenchTable.HEADER,
                        BenchTable.SEPARATOR,
                        "| `tpch` | 10^6 | 1 | off | flink-ivm-heap | 2,000 | 1,600 |  |",
                        "| `tpch` | 10^6 | 1 | off | flink-sql | 4,000 | 4,800 | 2.00× (3.00×) |",
                        "| `tpch` | 10^6 | 1 | off | flink-ivm-rocksdb | 7,000 | 7,000 |  |",
                        "| `tpch` | 10^6 | 1 | off | flink-sql-rocksdb | 7,000 | 7,700 | 1.00× (1.10×) |",
                        "| `ex10` | 10^6 | 1 | off | flink-ivm-heap | 1,500 | 1,250 |  |",
                        "| `ex10` | 10^6 | 1 | off | flink-sql | > 300,000 (1 run) | > 250,000 | > 200.00× (> 200.00×) |",
                        "| `ex10` zipf-1.1 | 10^5 | 2 | off | flink-ivm-heap | 1,701 | n/a |  |");
    }

    @Test
    void aChosenNAndChosenSystems() throws Exception {
        List<String> table = BenchTable.markdown(BenchTable.read(
                List.of(sample()), s -> List.of("flink-sql", "trivial-keyed").contains(s), 100_000));

        assertThat(table)
                .containsExactly(
                        BenchTable.HEADER,
                        BenchTable.SEPARATOR,
                        "| `tpch` | 10^5 | 1 | off | flink-sql | 9,000 | 8,000 |  |");
    }

    @Test
    void runsWithObjectReuseOnAndOffFromTwoFilesSitSideBySide() throws Exception {
        Path off = write(
                "off.csv",
                row("q", "flink-ivm-heap", "tpch", 1000, "100.0", 1, "90.0", 3, "off"),
                row("q", "flink-sql", "tpch", 1000, "50.0", 1, "45.0", 3, "off"));
        Path on = write(
                "on.csv",
                row("q", "flink-sql", "tpch", 1000, "40.0", 1, "36.0", 3, "on"),
                row("q", "flink-ivm-heap", "tpch", 1000, ">80.0", 1, ">72.0", 1, "on"));

        assertThat(BenchTable.markdown(BenchTable.read(List.of(on, off), s -> true, 0)))
                .containsExactly(
                        BenchTable.HEADER,
                        BenchTable.SEPARATOR,
                        "| `q` | 10^3 | 1 | off | flink-ivm-heap | 100 | 90 |  |",
                        "| `q` | 10^3 | 1 | off | flink-sql | 50 | 45 | 0.50× (0.50×) |",
                        "| `q` | 10^3 | 1 | on | flink-ivm-heap | > 80 (1 run) | > 72 |  |",
                        "| `q` | 10^3 | 1 | on | flink-sql | 40 | 36 | < 0.50× (< 0.50×) |");
    }

    @Test
    void aFigureInTwoFilesIsRefused() throws Exception {
        Path a = write("a.csv", row("q", "flink-sql", "tpch", 1000, "50.0", 1, "45.0", 3, "off"));
        Path b = write("b.csv", row("q", "flink-sql", "tpch", 1000, "60.0", 1, "45.0", 3, "off"));

        assertThatThrownBy(() -> BenchTable.read(List.of(a, b), s -> true, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flink-sql on q tpch n=1000 P=1 is in")
                .hasMessageContaining("give each figure once");
    }

    @Test
    void aFileThatIsNotAResultsCsvIsRefused() throws Exception {
        Path f = dir.resolve("other.csv");
        Files.writeString(f, "a,b\n1,2\n");

        assertThatThrownBy(() -> BenchTable.read(f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no column query");
    }

    @Test
    void countsAndBounds() {
        assertThat(BenchTable.count(1_000_000)).isEqualTo("10^6");
        assertThat(BenchTable.count(50_000)).isEqualTo("50,000");
        assertThat(BenchTable.count(1)).isEqualTo("1");
        assertThat(BenchTable.nanos(Bounded.parse("<1234.5"))).isEqualTo("< 1,235");
        assertThat(BenchTable.nanos(Bounded.parse(""))).isEqualTo("n/a");
        assertThat(BenchTable.backend("flink-sql-minibatch-rocksdb")).isEqualTo("rocksdb");
        assertThat(BenchTable.backend("flink-sql-multijoin")).isEqualTo("heap");
    }

    @Test
    void quotedFieldsAreRead() {
        assertThat(BenchTable.split("a,\"b,c\",\"d \"\"e\"\"\",")).containsExactly("a", "b,c", "d \"e\"", "");
    }

    @Test
    void theCommandPrintsTheTable() throws Exception {
        CliRun r = CliRun.of(BenchMain::run, "bench-table", sample().toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().toList())
                .hasSize(9)
                .startsWith(BenchTable.HEADER, BenchTable.SEPARATOR)
                .contains("| `tpch` | 10^6 | 1 | off | flink-sql | 4,000 | 4,800 | 2.00× (3.00×) |");
    }

    @Test
    void theCommandsErrors() throws Exception {
        CliRun missing =
                CliRun.of(BenchMain::run, "bench-table", dir.resolve("none.csv").toString());
        CliRun none = CliRun.of(BenchMain::run, "bench-table", "--n", "7", sample().toString());
        CliRun negative = CliRun.of(BenchMain::run, "bench-table", "--n", "-1", sample().toString());
        CliRun noFile = CliRun.of(BenchMain::run, "bench-table");

        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("cannot read", "none.csv");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.err()).contains("no Flink figures in", "at n = 7");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("--n must not be negative");
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.err()).contains("RESULTS_CSV");
    }
}
