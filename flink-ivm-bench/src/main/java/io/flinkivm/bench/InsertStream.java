package io.flinkivm.bench;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * A generated stream of inserts with natural-number payloads, held in arrays so that every system
 * reads the same tuples and a measured loop allocates nothing. Immutable once built.
 */
final class InsertStream {
    private final String[] relations;
    private final Tuple[] tuples;
    private final Long[] payloads;
    private final Distribution distribution;
    private final long seed;

    InsertStream(String[] relations, Tuple[] tuples, Long[] payloads, Distribution distribution, long seed) {
        if (relations.length != tuples.length || tuples.length != payloads.length) {
            throw new IllegalArgumentException("relations, tuples and payloads must have the same length");
        }
        this.relations = relations;
        this.tuples = tuples;
        this.payloads = payloads;
        this.distribution = distribution;
        this.seed = seed;
    }

    int size() {
        return tuples.length;
    }

    String relation(int i) {
        return relations[i];
    }

    Tuple tuple(int i) {
        return tuples[i];
    }

    Long payload(int i) {
        return payloads[i];
    }

    Distribution distribution() {
        return distribution;
    }

    long seed() {
        return seed;
    }

    /** The stream as flink-ivm input records, in order. */
    List<InputRecord<Long>> toInputRecords() {
        List<InputRecord<Long>> out = new ArrayList<>(size());
        for (int i = 0; i < size(); i++) {
            out.add(InputRecord.insert(relations[i], tuples[i], payloads[i]));
        }
        return out;
    }
}
