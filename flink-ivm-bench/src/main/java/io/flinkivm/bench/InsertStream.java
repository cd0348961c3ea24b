package io.flinkivm.bench;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A generated stream of inserts with natural-number payloads, held in arrays so that every system
 * reads the same tuples and a measured loop allocates nothing. Immutable once built. A changelog
 * stream ({@link ChangeStream}) also has a kind per record: {@code +I}, {@code -D}, or the two
 * records {@code -U}, {@code +U} of one update; its {@link #changes()} counts an update once.
 */
final class InsertStream {
    private final String[] relations;
    private final Tuple[] tuples;
    private final Long[] payloads;
    private final ChangeKind[] kinds;
    private final int changes;
    private final Distribution distribution;
    private final long seed;
    private List<InputRecord<Long>> inputRecords;

    InsertStream(String[] relations, Tuple[] tuples, Long[] payloads, Distribution distribution, long seed) {
        this(relations, tuples, payloads, null, tuples.length, distribution, seed);
    }

    /**
     * A changelog stream: {@code kinds[i]} is record i's kind (null: every record an insert), and
     * {@code changes} the number of changes, an update's two records counted once.
     */
    InsertStream(
            String[] relations,
            Tuple[] tuples,
            Long[] payloads,
            ChangeKind[] kinds,
            int changes,
            Distribution distribution,
            long seed) {
        if (relations.length != tuples.length
                || tuples.length != payloads.length
                || (kinds != null && kinds.length != tuples.length)) {
            throw new IllegalArgumentException("relations, tuples, payloads and kinds must have the same length");
        }
        this.relations = relations;
        this.tuples = tuples;
        this.payloads = payloads;
        this.kinds = kinds;
        this.changes = changes;
        this.distribution = distribution;
        this.seed = seed;
    }

    /** The number of records (a changelog's update is two). */
    int size() {
        return tuples.length;
    }

    /** The number of changes: inserts, deletes and updates, an update's two records counted once. */
    int changes() {
        return changes;
    }

    /** Whether some record is not an insert. */
    boolean isChangelog() {
        return kinds != null;
    }

    ChangeKind kind(int i) {
        return kinds == null ? ChangeKind.INSERT : kinds[i];
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

    /**
     * Per record, a hash of its row (its relation and values): the same for every change of one row,
     * so that a source keyed by row ({@link IndexedInput#byRow}) keeps one row's changes in order.
     */
    int[] rows() {
        int[] rows = new int[size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = 31 * relations[i].hashCode() + tuples[i].hashCode();
        }
        return rows;
    }

    /**
     * The stream as flink-ivm input records of their kinds, in order: built on the first call and kept,
     * so that every run on the stream reads the same records, built before its timed span.
     */
    synchronized List<InputRecord<Long>> inputRecords() {
        if (inputRecords == null) {
            List<InputRecord<Long>> out = new ArrayList<>(size());
            for (int i = 0; i < size(); i++) {
                out.add(InputRecord.change(kind(i), relations[i], tuples[i], payloads[i], null));
            }
            inputRecords = Collections.unmodifiableList(out);
        }
        return inputRecords;
    }
}
