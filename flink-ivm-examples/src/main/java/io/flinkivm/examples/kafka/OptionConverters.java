package io.flinkivm.examples.kafka;

import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Picocli converters of the {@code kafka} command's options; a failed conversion exits with 2. */
final class OptionConverters {

    private OptionConverters() {
    }

    /** The command-line spelling of an enum constant: lower case, '_' as '-' (EXACTLY_ONCE → exactly-once). */
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

    static final class FormatConverter extends EnumConverter<RecordFormat> {
        FormatConverter() {
            super(RecordFormat.class);
        }
    }

    static final class DeliveryConverter extends EnumConverter<KafkaCommand.Delivery> {
        DeliveryConverter() {
            super(KafkaCommand.Delivery.class);
        }
    }

    static final class StateConverter extends EnumConverter<KafkaCommand.StateBackend> {
        StateConverter() {
            super(KafkaCommand.StateBackend.class);
        }
    }
}
