package io.flinkivm.core.partition;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * How fast each relation of a query receives inserts, relative to the others (inserts per second, or
 * the relations' sizes when they grow in proportion): what {@link HyperCube} weighs the parts of a
 * join by. A part made of atoms (a root view of a view tree, or one atom of the fallback) receives one
 * delta per insert into each of its atoms' relations at most, so its rate is the sum of theirs: an
 * upper bound, since selections and batching only remove deltas. Without rates (the empty map) every
 * part counts as equally fast. Immutable.
 *
 * @param rates rate per relation name, each positive and finite, in the order given
 */
@Internal
public record RelationRates(Map<String, Double> rates) implements Serializable {

    public RelationRates {
        if (rates == null) {
            throw new IllegalArgumentException("relation rates must not be null (use RelationRates.none())");
        }
        Map<String, Double> copy = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : rates.entrySet()) {
            String relation = e.getKey();
            Double rate = e.getValue();
            if (relation == null || relation.isBlank()) {
                throw new IllegalArgumentException("a relation rate needs a relation name, got " + rates);
            }
            if (rate == null || !Double.isFinite(rate) || rate <= 0) {
                throw new IllegalArgumentException("the rate of relation " + relation
                        + " must be a positive finite number (inserts per unit of time, relative to the others), got "
                        + rate);
            }
            copy.put(relation, rate);
        }
        rates = Collections.unmodifiableMap(copy);
    }

    /** No rates: every part of a join counts as equally fast. */
    public static RelationRates none() {
        return new RelationRates(Map.of());
    }

    /** Whether no rate is given. */
    public boolean isEmpty() {
        return rates.isEmpty();
    }

    /**
     * Checks that the rates name exactly the relations of {@code query}: every one of them (a
     * missing rate cannot be guessed) and no other (a misspelt name would otherwise be dropped).
     *
     * @throws IllegalArgumentException naming the missing or unknown relations
     */
    public void checkCovers(ConjunctiveQuery query) {
        if (isEmpty()) {
            return;
        }
        List<String> relations = query.relations();
        List<String> missing = new ArrayList<>();
        for (String r : relations) {
            if (!rates.containsKey(r)) {
                missing.add(r);
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String r : rates.keySet()) {
            if (!relations.contains(r)) {
                unknown.add(r);
            }
        }
        if (!missing.isEmpty() || !unknown.isEmpty()) {
            throw new IllegalArgumentException("relation rates must name every relation of " + query.name() + " ("
                    + String.join(", ", relations) + ") and no other"
                    + (missing.isEmpty() ? "" : "; missing: " + String.join(", ", missing))
                    + (unknown.isEmpty() ? "" : "; not in the query: " + String.join(", ", unknown)));
        }
    }

    /**
     * The rate of each part of {@code query}'s join, a part given by its atoms' indexes: the sum of
     * their relations' rates; 1 for every part when no rate is given.
     *
     * @throws IllegalArgumentException if the rates do not cover the query ({@link #checkCovers})
     */
    public double[] weights(ConjunctiveQuery query, List<List<Integer>> parts) {
        checkCovers(query);
        double[] w = new double[parts.size()];
        for (int p = 0; p < w.length; p++) {
            if (isEmpty()) {
                w[p] = 1;
                continue;
            }
            for (int atom : parts.get(p)) {
                w[p] += rates.get(query.body().get(atom).relation());
            }
        }
        return w;
    }

    /** {@code R=150000 S=1.5e+06}, in the order given; {@code none} without rates. */
    public String describe() {
        if (isEmpty()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        rates.forEach((r, v) -> parts.add(r + "=" + number(v)));
        return String.join(" ", parts);
    }

    /** A rate as it was probably written: an integer without a fraction, else up to 6 significant digits. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("\\.?0+(e|$)", "$1");
    }
}
