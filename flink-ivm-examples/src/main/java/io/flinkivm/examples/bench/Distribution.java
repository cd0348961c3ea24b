package io.flinkivm.examples.bench;

import java.util.Locale;

/** How a workload draws the values of its skewable attributes. */
enum Distribution {
    /** Every value of the domain equally likely. */
    UNIFORM,
    /** Zipf with exponent {@link ZipfSampler#DEFAULT_EXPONENT}: value rank r has probability ∝ 1/r^s. */
    ZIPF,
    /** The workload's own data as its generator makes it (TPC-H), neither uniform nor Zipf by choice. */
    TPCH;

    /** The label in results.csv and the tables. */
    String label() {
        return switch (this) {
            case UNIFORM -> "uniform";
            case ZIPF -> "zipf-" + ZipfSampler.DEFAULT_EXPONENT;
            case TPCH -> "tpch";
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
