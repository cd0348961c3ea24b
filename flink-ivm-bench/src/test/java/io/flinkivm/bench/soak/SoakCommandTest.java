package io.flinkivm.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.bench.cli.BenchMain;
import io.flinkivm.examples.cli.Main;
import io.flinkivm.examples.testing.CliRun;
import io.flinkivm.examples.testing.OptionDeclarations;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code soak}'s options, without running a soak ({@code SoakCommandITCase} runs them). */
class SoakCommandTest {

    /** The options soak shares with flink-ivm's commands are their declarations (kafka has every one of them). */
    @ParameterizedTest
    @ValueSource(
            strings = {"--query", "--plan", "--state", "--parallelism", "--checkpoint-dir", "--checkpoint-interval"})
    void sharesFlinkIvmsDeclarations(String name) {
        OptionSpec kafka = Main.commandLine()
                .getSubcommands()
                .get("kafka")
                .getCommandSpec()
                .findOption(name);
        OptionSpec soak = BenchMain.commandLine()
                .getSubcommands()
                .get("soak")
                .getCommandSpec()
                .findOption(name);

        OptionDeclarations.assertSameDeclaration(soak, kafka, "soak " + name);
    }

    @ParameterizedTest
    @CsvSource({"1000, PT1S", "3 s, PT3S"})
    void takesBothSpellingsOfTheCheckpointInterval(String text, String expected) {
        CommandLine.ParseResult r = BenchMain.commandLine().parseArgs("soak", "--checkpoint-interval", text);
        Duration d = r.subcommand().matchedOptionValue("--checkpoint-interval", null);

        assertThat(d).isEqualTo(Duration.parse(expected));
    }

    @Test
    void showsItsOwnDefaults() {
        String help = CliRun.of(BenchMain::run, "soak", "--help").out().replaceAll("\\s+", " ");

        assertThat(help)
                .contains("Default: rocksdb", "Default: 3 s", "Default: Q(A,C) :- R1(A,B,D,E)")
                .doesNotContain("Default: null")
                .doesNotContainPattern("(Default: [^ ]+)\\.? \\1");
    }
}
