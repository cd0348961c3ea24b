package io.flinkivm.examples.command;

import io.flinkivm.flink.OutputMode;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/** {@code --output-mode}, declared once and mixed into {@code run} and {@code kafka}. */
public final class OutputModeOption {

    @Option(
            names = "--output-mode",
            paramLabel = "MODE",
            defaultValue = "snapshot",
            converter = Converters.OutputModeConverter.class,
            showDefaultValue = Visibility.ALWAYS,
            description = {
                "snapshot: every trigger writes the whole result; changelog: every trigger writes only the"
                        + " result tuples whose payload changed since the previous trigger, each once (+I new, +U"
                        + " changed; see the formats below)."
            })
    OutputMode outputMode;

    /** The mode given (snapshot by default). */
    public OutputMode mode() {
        return outputMode;
    }
}
