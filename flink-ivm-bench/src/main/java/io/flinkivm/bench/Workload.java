package io.flinkivm.bench;

/**
 * A benchmark workload: a conjunctive query over the natural numbers and a deterministic generator
 * of streams of inserts into its relations. Every system of a run reads the same generated stream.
 */
interface Workload {

    /** A short identifier, the {@code query} column of results.csv (e.g. {@code ex10}). */
    String name();

    /** The query in flink-ivm's syntax. */
    String query();

    /** How the streams are generated (domains, skew, payloads), for the printed report. */
    String describe(int n);

    /**
     * The distributions this workload is measured on, given those asked for ({@code --distributions}):
     * by default the same; a workload with its own data (TPC-H) has one of its own.
     */
    default java.util.List<Distribution> distributions(java.util.List<Distribution> requested) {
        return requested;
    }

    /**
     * How fast each relation of {@link #query()} receives inserts relative to the others, for the
     * flink-ivm job's {@code IvmOptions.withRelationRates}; empty (the default): all equally fast.
     */
    default java.util.Map<String, Double> relationRates() {
        return java.util.Map.of();
    }

    /**
     * Per relation, the columns (0-based) that no two live rows of a generated stream share: the
     * primary keys the Flink SQL peers declare, as an expert declares a table's key. Empty (the
     * default) where the generator does not guarantee it: a relation that may receive one tuple twice
     * has no key, since flink-ivm adds the payloads of repeats and Flink SQL would read a second row
     * under one key as a replacement.
     */
    default java.util.Map<String, java.util.List<Integer>> primaryKeys() {
        return java.util.Map.of();
    }

    /** The largest stream this workload is measured at (larger sizes of a suite are skipped for it). */
    default int maxSize() {
        return Integer.MAX_VALUE;
    }

    /**
     * Whether the streams have deletes and updates ({@link ChangesWorkload}): flink-ivm then reads every
     * relation as a changelog over the integer ring, Flink SQL reads the rows with their kinds.
     */
    default boolean hasDeletes() {
        return false;
    }

    /** A stream of exactly {@code n} inserts (or changes); the same arguments give the same stream. */
    InsertStream generate(int n, Distribution distribution, long seed);
}
