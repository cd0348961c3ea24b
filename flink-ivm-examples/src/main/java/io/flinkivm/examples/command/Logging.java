package io.flinkivm.examples.command;

import java.util.List;
import java.util.Locale;

/**
 * The {@code --log-level} option: the level of Flink's (and the libraries') logs in the self-contained jar,
 * whose {@code log4j2.properties} reads it from the system property {@link #LEVEL_PROPERTY} (default
 * {@code WARN}; flink-ivm's own loggers log at {@code INFO}). Under another logging configuration (the
 * cluster's, or {@code -Dlog4j.configurationFile=...}) the option changes nothing and says so.
 */
public final class Logging {

    /** The system property that the self-contained jar's {@code log4j2.properties} takes the root level from. */
    public static final String LEVEL_PROPERTY = "flinkivm.log.level";
    /** The {@code name} of the self-contained jar's Log4j configuration. */
    static final String CONFIGURATION_NAME = "flink-ivm";
    /** Log4j's level names, as {@code --log-level} accepts them (any letter case). */
    public static final List<String> LEVELS = List.of("off", "fatal", "error", "warn", "info", "debug", "trace", "all");

    private Logging() {}

    /**
     * Sets the level of the self-contained jar's logging to {@code level} (every logger but flink-ivm's
     * own), before Log4j starts or, if it has started, by reconfiguring it.
     *
     * @return null if the level applies, else why not (another logging configuration is in charge)
     * @throws IllegalArgumentException for a name that is not a Log4j level
     */
    public static String setLevel(String level) {
        String name = level.trim().toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                    "unknown log level '" + level + "'; expected one of: " + String.join(", ", LEVELS));
        }
        System.setProperty(LEVEL_PROPERTY, name);
        try {
            return Log4j.setRootLevel(name);
        } catch (LinkageError e) {
            return "no Log4j 2 on the classpath; logging is configured by whatever binds SLF4J here";
        }
    }

    /** The Log4j calls, in their own class so that {@link Logging} loads without Log4j on the classpath. */
    private static final class Log4j {
        static String setRootLevel(String name) {
            // Starts Log4j if it has not started: with the property set, the configuration reads the level.
            org.apache.logging.log4j.core.LoggerContext context =
                    org.apache.logging.log4j.core.LoggerContext.getContext(false);
            String active = context.getConfiguration().getName();
            if (!CONFIGURATION_NAME.equals(active)) {
                return "the logging configuration '" + active + "' (" + context.getConfigLocation()
                        + ") is in charge here, not the self-contained jar's: set the level there";
            }
            context.reconfigure(); // reads the property again, in every logger that uses it
            return null;
        }
    }
}
