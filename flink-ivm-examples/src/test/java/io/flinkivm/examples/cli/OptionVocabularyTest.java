package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.testing.OptionDeclarations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * One command-line vocabulary: an option of several commands is one declaration, one type, one converter.
 * flink-ivm-bench's {@code soak} shares these declarations too (its {@code SoakCommandTest}).
 */
class OptionVocabularyTest {

    private static final Map<String, List<String>> SHARED = Map.of(
            "--query", List.of("explain", "run", "kafka"),
            "--plan", List.of("explain", "run", "kafka"),
            "--state", List.of("run", "example", "kafka"),
            "--parallelism", List.of("run", "example", "kafka"),
            "--checkpoint-dir", List.of("run", "example", "kafka"),
            "--checkpoint-interval", List.of("run", "example", "kafka"),
            "--result-dir", List.of("run", "example"),
            "--output-mode", List.of("run", "kafka"),
            "--key-checks", List.of("explain", "run"),
            "--state-ttl", List.of("explain", "run"));

    @Test
    void sharedOptionsAreOneDeclaration() {
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        SHARED.forEach((name, users) -> {
            OptionSpec first = commands.get(users.get(0)).getCommandSpec().findOption(name);
            for (String command : users) {
                OptionDeclarations.assertSameDeclaration(
                        commands.get(command).getCommandSpec().findOption(name), first, command + " " + name);
            }
        });
    }

    @ParameterizedTest
    @CsvSource({
        "1000,    PT1S",
        "200,     PT0.2S",
        "0,       PT0S",
        "3 s,     PT3S",
        "500ms,   PT0.5S",
        "500 ms,  PT0.5S",
        "2 min,   PT2M",
    })
    void aCheckpointIntervalIsADurationOrMilliseconds(String text, String expected) {
        assertThat(new Converters.CheckpointIntervalConverter().convert(text)).isEqualTo(Duration.parse(expected));
    }

    @Test
    void aCheckpointIntervalIsNeitherNegativeNorText() {
        assertThatThrownBy(() -> new Converters.CheckpointIntervalConverter().convert("-5"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new Converters.CheckpointIntervalConverter().convert("soon"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining(
                        "not a duration: 'soon'; write e.g. 500 ms, 10 s, 2 min or a number of milliseconds");
    }

    /** The kafka command's original form (milliseconds) and the others' (a duration) both parse, everywhere. */
    @Test
    void everyCommandTakesBothSpellings() {
        Map<String, List<String>> required = Map.of(
                "run",
                List.of("--input", "in.csv", "--output", "out.csv"),
                "example",
                List.of(),
                "kafka",
                List.of("--semiring", "natural", "--kafka-bootstrap", "h:1"));
        for (String command : List.of("run", "example", "kafka")) {
            for (String[] spelling : List.of(new String[] {"1000", "PT1S"}, new String[] {"3 s", "PT3S"})) {
                List<String> args = new java.util.ArrayList<>(List.of(command, "--checkpoint-interval", spelling[0]));
                args.addAll(required.get(command));
                CommandLine.ParseResult r = Main.commandLine().parseArgs(args.toArray(new String[0]));
                Duration d = r.subcommand().matchedOptionValue("--checkpoint-interval", null);
                assertThat(d).as(command + " " + spelling[0]).isEqualTo(Duration.parse(spelling[1]));
            }
        }
    }

    @Test
    void commandsShowTheirOwnDefaults() {
        String kafka = CliRunHelp.of("kafka");
        String run = CliRunHelp.of("run");

        assertThat(kafka).contains("Default: 1 s", "Default: 1").doesNotContain("Default: null");
        assertThat(run)
                .contains("Where no default is shown: Flink's configured backend")
                .doesNotContain("Default: null");
        for (String help : List.of(kafka, run)) {
            assertThat(help).doesNotContain("Default: null").doesNotContainPattern("(Default: [^ ]+)\\.? \\1");
        }
    }

    /** A command's help with the line breaks of picocli's wrapping taken out. */
    private static final class CliRunHelp {
        static String of(String command) {
            return io.flinkivm.examples.testing.CliRun.of(command, "--help")
                    .out()
                    .replaceAll("\\s+", " ");
        }
    }
}
