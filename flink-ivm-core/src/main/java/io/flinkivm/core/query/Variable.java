package io.flinkivm.core.query;

/** A query variable, e.g. {@code A}. */
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
