package io.flinkivm.bench;

import java.util.Locale;

/** How a workload draws the values of its skewable attributes. */
enum Distribution {
    /** Every value of the domain equally likely. */
    UNIFORM,
    /** Zipf with exponent {@link #ZIPF_EXPONENT}: value rank r has probability ∝ 1/r^s. */
    ZIPF,
    /** The workload's own data as its generator makes it (TPC-H), neither uniform nor Zipf by choice. */
    TPCH;

    /** The exponent of {@link #ZIPF}: skewed, but with a long tail (the hottest of 100 values draws ~19 %). */
    static final double ZIPF_EXPONENT = 1.1;

    /** The label in results.csv and the tables. */
    String label() {
        return switch (this) {
            case UNIFORM -> "uniform";
            case ZIPF -> "zipf-" + ZIPF_EXPONENT;
            case TPCH -> "tpch";
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
