package io.flinkivm.flink;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.ResultRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;

/** Reassembles snapshots from a collected stream of {@link ResultRecord}s. */
@PublicEvolving
public final class Snapshots {
    private Snapshots() {}

    /**
     * The rows of every complete prefix-exact snapshot, by snapshot id. A snapshot is complete
     * when {@code parts} end markers (one per sink subtask) arrived for it.
     *
     * @throws IllegalStateException if a snapshot has a tuple twice, or its rows disagree with its end markers
     */
    public static <T> TreeMap<Long, Map<Tuple, T>> byId(Iterable<ResultRecord<T>> records, int parts) {
        Map<Long, Map<Tuple, T>> rows = new HashMap<>();
        Map<Long, long[]> ends = new HashMap<>();
        for (ResultRecord<T> r : records) {
            if (!r.isPrefixExact()) {
                continue;
            }
            if (r.isEnd()) {
                long[] e = ends.computeIfAbsent(r.snapshotId(), k -> new long[2]);
                e[0]++;
                e[1] += r.rows();
            } else {
                Map<Tuple, T> snapshot = rows.computeIfAbsent(r.snapshotId(), k -> new HashMap<>());
                if (snapshot.put(r.tuple(), r.payload()) != null) {
                    throw new IllegalStateException(
                            "snapshot " + r.snapshotId() + " has tuple " + r.tuple() + " twice");
                }
            }
        }
        TreeMap<Long, Map<Tuple, T>> out = new TreeMap<>();
        ends.forEach((id, e) -> {
            if (e[0] >= parts) {
                Map<Tuple, T> snapshot = rows.getOrDefault(id, new HashMap<>());
                if (e[0] == parts && snapshot.size() != e[1]) {
                    throw new IllegalStateException(
                            "snapshot " + id + " has " + snapshot.size() + " rows but its end markers count " + e[1]);
                }
                out.put(id, snapshot);
            }
        });
        return out;
    }

    /**
     * The cut of every snapshot with an end marker, by snapshot id: per ingest subtask, how many of
     * its inserts the snapshot reflects ({@link ResultRecord#cut()}).
     *
     * @throws IllegalStateException if two end markers of one snapshot disagree on its cut
     */
    public static <T> TreeMap<Long, long[]> cuts(Iterable<ResultRecord<T>> records) {
        TreeMap<Long, long[]> out = new TreeMap<>();
        for (ResultRecord<T> r : records) {
            if (r.isEnd()) {
                long[] cut = r.cut();
                long[] before = out.putIfAbsent(r.snapshotId(), cut);
                if (before != null && !java.util.Arrays.equals(before, cut)) {
                    throw new IllegalStateException("snapshot " + r.snapshotId() + " has the cuts "
                            + java.util.Arrays.toString(before) + " and " + java.util.Arrays.toString(cut));
                }
            }
        }
        return out;
    }

    /** The rows of the latest complete prefix-exact snapshot (empty if there is none). */
    public static <T> Map<Tuple, T> latest(Iterable<ResultRecord<T>> records, int parts) {
        TreeMap<Long, Map<Tuple, T>> all = byId(records, parts);
        return all.isEmpty() ? new HashMap<>() : all.lastEntry().getValue();
    }

    /**
     * For a changelog ({@link OutputMode#CHANGELOG}): the result after every complete trigger, by id,
     * obtained by applying the changes in id order ({@code +I} and {@code +U} set a tuple's payload,
     * {@code -D} removes it, {@code -U} only announces an update). Every trigger counts, also one whose
     * cut a processing-time tick ended (not prefix-exact): a changelog's triggers build on each other.
     *
     * @throws IllegalStateException if a trigger changes a tuple twice, or its rows disagree with its end markers
     */
    public static <T> TreeMap<Long, Map<Tuple, T>> changelogStates(Iterable<ResultRecord<T>> records, int parts) {
        Map<Long, Map<Tuple, ResultRecord<T>>> changes = new HashMap<>();
        Map<Long, long[]> ends = new HashMap<>();
        for (ResultRecord<T> r : records) {
            if (r.isEnd()) {
                long[] e = ends.computeIfAbsent(r.snapshotId(), k -> new long[2]);
                e[0]++;
                e[1] += r.rows();
            } else {
                Map<Tuple, ResultRecord<T>> trigger = changes.computeIfAbsent(r.snapshotId(), k -> new HashMap<>());
                if (r.kind() != ResultRecord.Kind.UPDATE_BEFORE && trigger.put(r.tuple(), r) != null) {
                    throw new IllegalStateException(
                            "trigger " + r.snapshotId() + " changes tuple " + r.tuple() + " twice");
                }
                ends.computeIfAbsent(r.snapshotId(), k -> new long[2])[1] -= 1;
            }
        }
        TreeMap<Long, Map<Tuple, T>> out = new TreeMap<>();
        Map<Tuple, T> state = new HashMap<>();
        for (long id : new TreeMap<>(ends).keySet()) {
            long[] e = ends.get(id);
            if (e[0] < parts) {
                continue;
            }
            if (e[0] == parts && e[1] != 0) {
                throw new IllegalStateException(
                        "trigger " + id + ": its rows and its end markers' counts differ by " + e[1]);
            }
            for (ResultRecord<T> r : changes.getOrDefault(id, Map.of()).values()) {
                if (r.kind() == ResultRecord.Kind.DELETE) {
                    state.remove(r.tuple());
                } else {
                    state.put(r.tuple(), r.payload());
                }
            }
            out.put(id, new HashMap<>(state));
        }
        return out;
    }
}
