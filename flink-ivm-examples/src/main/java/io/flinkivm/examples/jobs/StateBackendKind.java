package io.flinkivm.examples.jobs;

/** The Flink state backends a job can select ({@code state.backend.type}). */
public enum StateBackendKind {
    /** Keyed state as objects on the JVM heap ({@code hashmap}). */
    HEAP("hashmap"),
    /** Keyed state in embedded RocksDB, serialized, on local disk ({@code rocksdb}). */
    ROCKSDB("rocksdb");

    private final String configValue;

    StateBackendKind(String configValue) {
        this.configValue = configValue;
    }

    /** The value of Flink's {@code state.backend.type}. */
    public String configValue() {
        return configValue;
    }
}
