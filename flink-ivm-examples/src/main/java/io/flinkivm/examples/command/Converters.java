package io.flinkivm.examples.command;

import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.examples.jobs.StateBackendKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converters for the options of every subcommand (the {@code kafka} command's included); a
 * failed conversion exits with 2.
 */
public final class Converters {

    private Converters() {}

    /** The command-line spelling of an enum constant: lower case, '_' as '-' (P_HIERARCHICAL → p-hierarchical). */
    public static String cliName(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A built-in semiring by name, see {@link Semirings#byName}. */
    public static final class SemiringConverter implements ITypeConverter<Semiring<?>> {
        @Override
        public Semiring<?> convert(String value) {
            try {
                return Semirings.byName(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** An enum constant by its {@link #cliName}, ignoring letter case. */
    public abstract static class EnumConverter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;

        protected EnumConverter(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String value) {
            List<String> names = new ArrayList<>();
            for (E e : type.getEnumConstants()) {
                if (cliName(e).equalsIgnoreCase(value.trim())) {
                    return e;
                }
                names.add(cliName(e));
            }
            throw new TypeConversionException(
                    "unknown value '" + value + "'; expected one of: " + String.join(", ", names));
        }
    }

    static final class StrategyConverter extends EnumConverter<Planner.Strategy> {
        StrategyConverter() {
            super(Planner.Strategy.class);
        }
    }

    /** An output mode: snapshot or changelog. */
    public static final class OutputModeConverter extends EnumConverter<io.flinkivm.flink.OutputMode> {
        public OutputModeConverter() {
            super(io.flinkivm.flink.OutputMode.class);
        }
    }

    /** A state backend: heap or rocksdb. */
    public static final class StateConverter extends EnumConverter<StateBackendKind> {
        StateConverter() {
            super(StateBackendKind.class);
        }
    }

    /** A positive duration in Flink's form: {@code 500 ms}, {@code 10 s}, {@code 2 min} (a bare number is ms). */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Duration d = duration(value);
            if (d.isZero()) {
                throw new TypeConversionException("the duration must be positive, got '" + value + "'");
            }
            return d;
        }
    }

    /**
     * A checkpoint interval: a duration in Flink's form ({@code 500 ms}, {@code 3 s}) or a bare number of
     * milliseconds ({@code 1000}, the {@code kafka} command's original form); 0 means "no checkpoints".
     */
    public static final class CheckpointIntervalConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return duration(value);
        }
    }

    /** A parallelism: a whole number of at least 1. */
    public static final class ParallelismConverter implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int p;
            try {
                p = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a whole number");
            }
            if (p < 1) {
                throw new TypeConversionException("the parallelism must be at least 1, got " + p);
            }
            return p;
        }
    }

    /**
     * Relation rates {@code R=150000,S=1.5e6}: per relation of the query, how fast it receives inserts
     * relative to the others (positive numbers), in the order written.
     */
    public static final class RelationRatesConverter implements ITypeConverter<RelationRates> {
        @Override
        public RelationRates convert(String value) {
            Map<String, Double> rates = new LinkedHashMap<>();
            for (String part : value.split(",", -1)) {
                int eq = part.indexOf('=');
                String relation = eq < 0 ? "" : part.substring(0, eq).trim();
                if (eq < 0 || relation.isEmpty()) {
                    throw new TypeConversionException(
                            "'" + part.trim() + "' is not RELATION=RATE; write e.g. Customer=150000,Orders=1500000");
                }
                double rate;
                try {
                    rate = Double.parseDouble(part.substring(eq + 1).trim());
                } catch (NumberFormatException e) {
                    throw new TypeConversionException("the rate of " + relation + " is not a number: '"
                            + part.substring(eq + 1).trim() + "'");
                }
                if (!(rate > 0) || Double.isInfinite(rate)) {
                    throw new TypeConversionException("the rate of " + relation + " must be a positive number, got "
                            + part.substring(eq + 1).trim());
                }
                if (rates.put(relation, rate) != null) {
                    throw new TypeConversionException("relation " + relation + " has two rates");
                }
            }
            return new RelationRates(rates);
        }
    }

    /** A duration of zero or more: Flink's {@code TimeUtils} form, where a bare number is milliseconds. */
    private static Duration duration(String value) {
        if (value.trim().startsWith("-")) {
            throw new TypeConversionException("the duration must not be negative, got '" + value + "'");
        }
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new TypeConversionException(
                    "not a duration: '" + value + "'; write e.g. 500 ms, 10 s, 2 min or" + " a number of milliseconds");
        }
    }
}
