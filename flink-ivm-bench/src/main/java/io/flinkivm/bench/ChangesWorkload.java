package io.flinkivm.bench;

import java.util.List;
import java.util.Map;

/**
 * A workload's query over a changelog ({@link ChangeStream}) of its inserts: n changes, 20 % deletes
 * and 20 % updates of live rows. Every relation is read as a changelog, so flink-ivm plans it over the
 * integer ring: a q-hierarchical query keeps O(1) per change, any other runs on the fallback. Named
 * after the workload with {@value #SUFFIX}; run by the Flink suite only.
 */
final class ChangesWorkload implements Workload {
    static final String SUFFIX = "-changes";

    private final Workload inserts;

    ChangesWorkload(Workload inserts) {
        this.inserts = inserts;
    }

    @Override
    public String name() {
        return inserts.name() + SUFFIX;
    }

    @Override
    public String query() {
        return inserts.query();
    }

    @Override
    public boolean hasDeletes() {
        return true;
    }

    @Override
    public String describe(int n) {
        return n + " changes: " + ChangeStream.DELETE_PERCENT + "% deletes and " + ChangeStream.UPDATE_PERCENT
                + "% updates (-U/+U, one change) of live rows, the rest inserts, made from " + inserts.name()
                + "'s stream: " + inserts.describe(n);
    }

    @Override
    public List<Distribution> distributions(List<Distribution> requested) {
        return inserts.distributions(requested);
    }

    @Override
    public Map<String, Double> relationRates() {
        return inserts.relationRates();
    }

    /**
     * The inserts' keys: they hold among the live rows of the changelog too, as every insert and every
     * update's new row is a row of the inserts' stream, each taken once, and a delete or update takes a
     * live row away.
     */
    @Override
    public Map<String, List<Integer>> primaryKeys() {
        return inserts.primaryKeys();
    }

    @Override
    public int maxSize() {
        return inserts.maxSize();
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        return ChangeStream.of(inserts.generate(n, distribution, seed), n, seed);
    }
}
