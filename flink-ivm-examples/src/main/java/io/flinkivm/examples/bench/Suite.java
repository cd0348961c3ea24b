package io.flinkivm.examples.bench;

import java.util.List;

/** A group of measurements with its own sizes, systems and summary lines. */
interface Suite {

    /** The {@code --suite} value. */
    String name();

    /** Measures, records every measurement in {@code harness}, prints the summary; returns the measurements. */
    List<Measurement> run(Harness harness, BenchSettings settings) throws Exception;
}
