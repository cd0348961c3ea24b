package io.flinkivm.examples.jobs;

import java.util.ArrayList;
import java.util.List;

/** The registry of example jobs: {@code flink-ivm example NAME} looks them up here. */
public final class ExampleJobs {

    /** The example that runs without a name (and without any command). */
    public static final String DEFAULT = "ex10";

    private ExampleJobs() {}

    /** Every example, in the order {@code example --list} shows them; a new example is one line here. */
    public static List<ExampleJob<?>> all() {
        return List.of(new Ex10Job(), new TropicalJob(), new ProvenanceJob(), new TpchJob(), new FallbackJob());
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (ExampleJob<?> j : all()) {
            names.add(j.name());
        }
        return names;
    }

    /**
     * The example called {@code name}.
     *
     * @throws IllegalArgumentException if there is none, with the names there are
     */
    public static ExampleJob<?> byName(String name) {
        for (ExampleJob<?> j : all()) {
            if (j.name().equals(name)) {
                return j;
            }
        }
        throw new IllegalArgumentException(
                "unknown example '" + name + "'; the examples are: " + String.join(", ", names()));
    }
}
