package io.flinkivm.examples.cli;

/** The runtimes {@code --engine} can select. */
enum EngineKind {
    /** flink-ivm's operators on Flink: the embedded local Flink, or the cluster under {@code flink run}. */
    FLINK,
    /** The in-memory engine of flink-ivm-core ({@link io.flinkivm.core.engine.Engines}), single-threaded. */
    MEMORY
}
