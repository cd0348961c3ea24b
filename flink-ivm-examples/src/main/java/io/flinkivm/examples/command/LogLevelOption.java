package io.flinkivm.examples.command;

import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code --log-level}, mixed into a top-level command and accepted by each of its commands (before or after its name). */
public final class LogLevelOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(
            names = "--log-level",
            paramLabel = "LEVEL",
            scope = ScopeType.INHERIT,
            converter = LevelConverter.class,
            description = {
                "Level of Flink's and the libraries' logs on stderr: off, error, warn, info, debug or trace"
                        + " (flink-ivm's own log at info). Default: warn, or the system property "
                        + Logging.LEVEL_PROPERTY + ". Applies to the self-contained jar's logging; under 'flink run'"
                        + " the cluster's logging configuration decides."
            })
    void logLevel(String level) {
        String note = Logging.setLevel(level);
        if (note != null) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("note: --log-level " + level + " has no effect: " + note);
            err.flush();
        }
    }

    /** A Log4j level name, in any letter case. */
    static final class LevelConverter implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!Logging.LEVELS.contains(value.trim().toLowerCase(Locale.ROOT))) {
                throw new CommandLine.TypeConversionException(
                        "unknown log level '" + value + "'; expected one of: " + String.join(", ", Logging.LEVELS));
            }
            return value.trim();
        }
    }
}
