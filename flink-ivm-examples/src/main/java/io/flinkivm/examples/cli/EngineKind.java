package io.flinkivm.examples.cli;

/** The runtimes {@code --engine} can select. */
enum EngineKind {
    /** The in-memory engine of flink-ivm-core ({@link io.flinkivm.core.engine.Engines}). */
    MEMORY
}
