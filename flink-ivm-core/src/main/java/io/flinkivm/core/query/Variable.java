package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/** A query variable, e.g. {@code A}. */
@PublicEvolving
public record Variable(String name) implements Term {
    public Variable {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("variable name is empty");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
