package io.flinkivm.examples.bench;

import java.util.Locale;

/** How a workload draws the values of its skewable attributes. */
enum Distribution {
    /** Every value of the domain equally likely. */
    UNIFORM,
    /** Zipf with exponent {@link ZipfSampler#DEFAULT_EXPONENT}: value rank r has probability ∝ 1/r^s. */
    ZIPF;

    /** The label in results.csv and the tables. */
    String label() {
        return this == UNIFORM ? "uniform" : "zipf-" + ZipfSampler.DEFAULT_EXPONENT;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
