package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A constant in an atom, e.g. {@code 'x'} or {@code 3}: a selection. A tuple value matches it when
 * the value's text form ({@link String#valueOf(Object)}) equals {@link #text()}.
 *
 * @param text the constant's value as text (without quotes)
 * @param quoted whether it was written as a quoted string
 */
@PublicEvolving
public record Constant(String text, boolean quoted) implements Term {
    /** Whether a tuple value matches this constant. */
    public boolean matches(Object value) {
        return text.equals(String.valueOf(value));
    }

    @Override
    public String toString() {
        return quoted ? "'" + text.replace("'", "''") + "'" : text;
    }
}
