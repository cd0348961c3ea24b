package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli converters for the options shared by the subcommands; a failed conversion exits with 2. */
final class Converters {

    private Converters() {
    }

    /** The command-line spelling of an enum constant: lower case, '_' as '-' (P_HIERARCHICAL → p-hierarchical). */
    static String cliName(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A built-in semiring by name, see {@link Semirings#byName}. */
    static final class SemiringConverter implements ITypeConverter<Semiring<?>> {
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
    abstract static class EnumConverter<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;

        EnumConverter(Class<E> type) {
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
            throw new TypeConversionException("unknown value '" + value + "'; expected one of: " + String.join(", ", names));
        }
    }

    static final class StrategyConverter extends EnumConverter<Planner.Strategy> {
        StrategyConverter() {
            super(Planner.Strategy.class);
        }
    }

    static final class EngineConverter extends EnumConverter<EngineKind> {
        EngineConverter() {
            super(EngineKind.class);
        }
    }
}
